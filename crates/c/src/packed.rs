//! gcc's `__attribute__((packed))` on a structure or union type: `struct
//! __attribute__((packed)) S { … }` and `struct S { … }
//! __attribute__((packed))`. The parser (`lang-c`) reads no attribute
//! between `struct` and the tag, and the layout needs the packing where
//! the members are, so the attribute is found in the parsed text here,
//! blanked (spaces of the same length: every offset keeps its meaning),
//! and its structure laid out as under `#pragma pack(1)`, which gcc's
//! x86 targets lay out alike (each member aligned to 1 byte, bit-fields
//! packed bit after bit).
//!
//! An attribute list with anything besides `packed` (`aligned(8)` too)
//! is left in the text, as is `packed` on a member or a variable.

/// Blanks each `__attribute__((packed))` of a structure type in `text`
/// and returns the offsets of the `struct` or `union` keywords of the
/// types it packed, in order.
pub fn blank(text: &mut String) -> Vec<u32> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(k) = text[from..].find("__attribute__") {
        let start = from + k;
        from = start + "__attribute__".len();
        if start > 0 && is_ident(text.as_bytes()[start - 1]) {
            continue;
        }
        let Some(end) = balanced(text, from) else {
            continue;
        };
        if !only_packed(&text[from..end]) {
            continue;
        }
        let Some(keyword) = structure_of(text, start) else {
            continue;
        };
        text.replace_range(start..end, &" ".repeat(end - start));
        out.push(keyword as u32);
        from = end;
    }
    out.sort_unstable();
    out
}

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// The end of the parenthesised attribute list after offset `at` (after
/// `__attribute__`): one past its last `)`.
fn balanced(text: &str, at: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut i = at;
    while i < bytes.len() && bytes[i].is_ascii_whitespace() {
        i += 1;
    }
    if bytes.get(i) != Some(&b'(') {
        return None;
    }
    let mut depth = 0u32;
    for (j, &b) in bytes.iter().enumerate().skip(i) {
        match b {
            b'(' => depth += 1,
            b')' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(j + 1);
                }
            }
            b';' | b'{' | b'}' => return None,
            _ => {}
        }
    }
    None
}

/// Is the attribute list `((…))` `packed` alone (or `__packed__`)?
fn only_packed(list: &str) -> bool {
    let inner: String = list
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '(' && *c != ')')
        .collect();
    inner.split(',').all(|a| a == "packed" || a == "__packed__") && !inner.is_empty()
}

/// The offset of the `struct` or `union` keyword of the type the
/// attribute at `start` packs: the keyword just before it, or the one
/// before the body that ends just before it. (gcc takes no attribute
/// between the tag and the body.)
fn structure_of(text: &str, start: usize) -> Option<usize> {
    let before = text[..start].trim_end();
    if let Some(k) = keyword_at_end(before) {
        return Some(k);
    }
    if !before.ends_with('}') {
        return None;
    }
    // The `{` that opens the body.
    let bytes = before.as_bytes();
    let mut depth = 0u32;
    let mut open = None;
    for j in (0..bytes.len()).rev() {
        match bytes[j] {
            b'}' => depth += 1,
            b'{' => {
                depth -= 1;
                if depth == 0 {
                    open = Some(j);
                    break;
                }
            }
            _ => {}
        }
    }
    let head = text[..open?].trim_end();
    keyword_at_end(head).or_else(|| keyword_at_end(untagged(head)))
}

/// `text` without the identifier it ends with (a tag).
fn untagged(text: &str) -> &str {
    text.trim_end_matches(|c: char| c.is_ascii_alphanumeric() || c == '_')
        .trim_end()
}

/// The offset of `struct` or `union` when `text` ends with that word.
fn keyword_at_end(text: &str) -> Option<usize> {
    ["struct", "union"].into_iter().find_map(|w| {
        let k = text.strip_suffix(w).map(str::len)?;
        (k == 0 || !is_ident(text.as_bytes()[k - 1])).then_some(k)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn packed(text: &str) -> (String, Vec<u32>) {
        let mut t = text.to_string();
        let keys = blank(&mut t);
        assert_eq!(t.len(), text.len());
        (t, keys)
    }

    #[test]
    fn both_places_of_the_attribute_pack_their_structure() {
        let (t, k) = packed("struct __attribute__((packed)) P { char c; int i; };");
        assert_eq!(k, vec![0]);
        assert!(!t.contains("attribute") && t.starts_with("struct "));
        let text =
            "typedef struct Q { struct { int a; } in; char c; } __attribute__ ((__packed__)) Q;";
        let (t, k) = packed(text);
        assert_eq!(k, vec![8]);
        assert!(!t.contains("packed"));
        let (_, k) = packed("union __attribute__((packed)) { char c; int i; } u;");
        assert_eq!(k, vec![0]);
    }

    #[test]
    fn other_attributes_and_other_places_are_left_alone() {
        for text in [
            "struct S { char c; int i __attribute__((packed)); };",
            "struct __attribute__((packed, aligned(4))) S { int i; };",
            "int x __attribute__((packed));",
            "void f(void) __attribute__((noreturn));",
            "my__attribute__((packed)) struct S { int i; };",
            "struct S __attribute__((packed",
            "struct S __attribute__((packed)) { int i; };",
        ] {
            let (t, k) = packed(text);
            assert_eq!((t.as_str(), k), (text, vec![]), "{text}");
        }
    }
}
