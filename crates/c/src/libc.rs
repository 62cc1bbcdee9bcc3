//! The C library wiser links with a program, as KLEE links its own: the
//! functions of `libc/libc.c`, plain C compiled by this front end like the
//! program, so that `strlen` and `atoi` run on the one semantics with every
//! access checked. A program that uses one of them without defining it
//! gets its definition appended to its text (with those it calls); the
//! text keeps the library file's offsets, so locations inside it point
//! into `<wiser libc>/libc.c`.

use lang_c::ast;
use std::collections::HashSet;

/// The library's source.
pub const SOURCE: &str = include_str!("../libc/libc.c");

/// The name the library's file has in diagnostics and traces.
pub const FILE_NAME: &str = "<wiser libc>/libc.c";

/// The marker that starts a function of the library.
const MARKER: &str = "/* wiser-libc: ";

/// The functions of the library: name and byte range in [`SOURCE`].
fn functions() -> Vec<(&'static str, std::ops::Range<usize>)> {
    let starts: Vec<usize> = SOURCE.match_indices(MARKER).map(|(i, _)| i).collect();
    starts
        .iter()
        .enumerate()
        .filter_map(|(k, &start)| {
            let end = starts.get(k + 1).copied().unwrap_or(SOURCE.len());
            let rest = &SOURCE[start + MARKER.len()..];
            let name = &rest[..rest.find(' ')?];
            Some((name, start..end))
        })
        .collect()
}

/// Does the library's `function` only read through its parameter `k`
/// (a pointer)? Then a pointer into a union's member may be passed there
/// (see `lower/unions.rs`): `strlen(u.name)`, `strcpy(buf, u.name)`.
pub fn reads_only(function: &str, k: usize) -> bool {
    match function {
        "strlen" | "strnlen" | "atoi" | "atol" | "isdigit" => k == 0,
        "strcmp" | "strncmp" | "strspn" | "strcspn" => k <= 1,
        "strcpy" | "strncpy" | "strcat" | "strncat" => k == 1,
        _ => false,
    }
}

/// The identifiers of a text (words of letters, digits and `_`).
fn identifiers(text: &str) -> HashSet<&str> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .collect()
}

/// The names of the functions a translation unit defines.
pub fn defined(unit: &ast::TranslationUnit) -> HashSet<String> {
    unit.0
        .iter()
        .filter_map(|ext| match &ext.node {
            ast::ExternalDeclaration::FunctionDefinition(f) => {
                match &f.node.declarator.node.kind.node {
                    ast::DeclaratorKind::Identifier(id) => Some(id.node.name.clone()),
                    _ => None,
                }
            }
            _ => None,
        })
        .collect()
}

/// The library's text for a program whose text is `program` and which
/// defines `defined`: [`SOURCE`] with every function the program does not
/// use (directly, or through another function kept) blanked out, keeping
/// its offsets and lines; `None` when the program uses none.
pub fn text_for(program: &str, defined: &HashSet<String>) -> Option<String> {
    let all = functions();
    let mut used = identifiers(program);
    let mut keep: HashSet<&str> = HashSet::new();
    loop {
        let more: Vec<&str> = all
            .iter()
            .filter(|(n, _)| !keep.contains(n) && used.contains(n) && !defined.contains(*n))
            .map(|(n, _)| *n)
            .collect();
        if more.is_empty() {
            break;
        }
        for (n, range) in all.iter().filter(|(n, _)| more.contains(n)) {
            keep.insert(n);
            used.extend(identifiers(&SOURCE[range.clone()]));
        }
    }
    if keep.is_empty() {
        return None;
    }
    let mut text = SOURCE.to_string();
    for (name, range) in &all {
        if !keep.contains(name) {
            let blank: String = SOURCE[range.clone()]
                .chars()
                .map(|c| if c == '\n' { '\n' } else { ' ' })
                .collect();
            text.replace_range(range.clone(), &blank);
        }
    }
    Some(blank_comments(&text))
}

/// `text` with its `/* ... */` comments blanked out (the parser reads
/// preprocessed text, which has none), keeping offsets and lines.
fn blank_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("/*") {
        out.push_str(&rest[..start]);
        let len = rest[start..]
            .find("*/")
            .map_or(rest.len() - start, |e| e + 2);
        out.extend(
            rest[start..start + len]
                .chars()
                .map(|c| if c == '\n' { '\n' } else { ' ' }),
        );
        rest = &rest[start + len..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_function_has_a_name_and_the_library_keeps_only_what_is_used() {
        let names: Vec<&str> = functions().iter().map(|(n, _)| *n).collect();
        for n in ["strlen", "strcmp", "atoi", "strtol", "isdigit", "toupper"] {
            assert!(names.contains(&n), "{names:?}");
        }
        // `atoi` calls `strtol`: both are kept, nothing else.
        let text = text_for("int main(void) { return atoi(\"1\"); }", &HashSet::new()).unwrap();
        assert_eq!(text.len(), SOURCE.len());
        assert!(text.contains("int atoi(") && text.contains("long strtol("));
        assert!(!text.contains("strlen("));
        // A function the program defines itself is its own.
        let mine: HashSet<String> = ["atoi".to_string()].into();
        assert!(text_for(
            "int atoi(const char *s); int f(void) { return atoi(0); }",
            &mine
        )
        .is_none());
        assert!(text_for("int main(void) { return 0; }", &HashSet::new()).is_none());
    }
}
