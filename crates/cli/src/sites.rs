//! Decision sites and statements in the program's own terms: what the user
//! wrote at an instruction (`a <= b` for the branch of `if a <= b then`,
//! `assert min <= a`, the operator of a check), and which instructions are
//! statements of the program's file at all (lowering helpers without a
//! source span of their own are not). Coverage and the pictures of the
//! symbolic execution tree speak through these.

use crate::load::Program;
use wiser_ir::{FileId, Instr, LineCol, Pc, Site, Span};

/// The longest label drawn or listed; longer texts are cut with `…`.
pub const MAX_LABEL: usize = 48;

/// What kind of decision a site is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SiteKind {
    /// An `if`, a loop test, a short-circuit operator lowered to a branch.
    Branch,
    /// An assertion (true: it holds).
    Assert,
    /// An assumption (only its true side goes on).
    Assume,
    /// A runtime check of an operator (true: it faults).
    Check,
}

/// A decision site as the user sees it.
#[derive(Clone, Debug)]
pub struct SiteInfo {
    /// What kind of decision.
    pub kind: SiteKind,
    /// The condition (or for a check, the checked operation and what it
    /// checks), in the program's syntax, on one line.
    pub label: String,
    /// Where (the statement, or a check's operator).
    pub span: Span,
    /// Its line and column.
    pub at: LineCol,
}

/// The program's own file (the `--assume` text and headers are others).
pub fn program_file() -> FileId {
    FileId(0)
}

/// Is the instruction at `pc` a statement of the program's file: an
/// instruction with a location of its own in it (not `halt`, not a
/// `skip` of a jump cycle, not a helper without a span)?
pub fn is_statement(program: &Program, pc: Pc) -> bool {
    let loc = program.ir.at(pc);
    !loc.span.is_dummy()
        && loc.span.file == program_file()
        && !matches!(loc.instr, Instr::Halt | Instr::Skip { .. })
}

/// The source text of a span, as written.
pub fn snippet(program: &Program, span: Span) -> &str {
    let text = program.sources.get(span.file).text();
    let (lo, hi) = (span.lo as usize, (span.hi as usize).min(text.len()));
    text.get(lo..hi).unwrap_or("")
}

/// The source text of a span, on one line (runs of white space as one
/// space).
pub fn span_text(program: &Program, span: Span) -> String {
    one_line(snippet(program, span))
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `s`, cut to `max` characters with `…`.
pub fn shorten(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        let cut: String = s.chars().take(max.saturating_sub(1)).collect();
        format!("{}…", cut.trim_end())
    }
}

/// The site of a decision, described.
pub fn site_info(program: &Program, site: Site) -> SiteInfo {
    let loc = program.ir.at(site.pc);
    if site.check == Some(Site::INPUT_HEAP) {
        return SiteInfo {
            kind: SiteKind::Assume,
            label: "the input heap's bound (--max-objects)".into(),
            span: loc.span,
            at: program.line_col(loc.span),
        };
    }
    if let Some(check) = site.check.and_then(|k| loc.checks.get(k as usize)) {
        // A check's span may be its operator alone (`-`): then show the
        // statement it is in.
        let mut op = span_text(program, check.span);
        if op.chars().count() <= 3 {
            op = statement_label(&span_text(program, loc.span), "");
        }
        return SiteInfo {
            kind: SiteKind::Check,
            label: format!("{}? {op}", check.kind.describe()),
            span: check.span,
            at: program.line_col(check.span),
        };
    }
    let mut text = span_text(program, loc.span);
    if text.is_empty() {
        // C's `assert(c)` is a macro: its span is the empty one where the
        // expansion starts. Show the rest of the line.
        text = rest_of_line(program, loc.span);
    }
    let (kind, label) = match loc.instr {
        Instr::Assert { .. } => (SiteKind::Assert, statement_label(&text, "assert")),
        Instr::Assume { .. } => (SiteKind::Assume, statement_label(&text, "assume")),
        _ => (SiteKind::Branch, condition_text(&text, program.c.is_some())),
    };
    SiteInfo {
        kind,
        label,
        span: loc.span,
        at: program.line_col(loc.span),
    }
}

/// The text from `span`'s start to the end of its line, on one line.
fn rest_of_line(program: &Program, span: Span) -> String {
    let text = program.sources.get(span.file).text();
    let from = text.get(span.lo as usize..).unwrap_or("");
    one_line(from.lines().next().unwrap_or(""))
}

/// `assert COND` as written, without a trailing `;` (C's `assert(c);`
/// stays as it is).
fn statement_label(text: &str, keyword: &str) -> String {
    let t = text.trim_end_matches(';').trim();
    if t.is_empty() {
        keyword.to_string()
    } else {
        t.to_string()
    }
}

/// The condition of a branch statement: IMP's `if C then …`, `while C do
/// …`; C's `if (C)`, `while (C)`, `for (…; C; …)`, `do … while (C);`.
/// Any other text (a short-circuit operator, `?:`) is shown whole.
pub fn condition_text(stmt: &str, c: bool) -> String {
    let t = stmt.trim();
    statement_condition(t, c).map_or_else(|| t.to_string(), |(_, cond)| cond)
}

/// The keyword and condition of a branching statement's source text
/// (`("while", "i < n")`), or `None` for other text. The one place that
/// cuts conditions out of statements: coverage, trees and traces use it.
pub fn statement_condition(stmt: &str, c: bool) -> Option<(&'static str, String)> {
    if c {
        c_condition(stmt)
    } else {
        imp_condition(stmt)
    }
}

/// IMP: the text between `if`/`while` and `then`/`do` (expressions hold
/// no keyword that ends a condition; comments run from `#` to the line's
/// end).
fn imp_condition(stmt: &str) -> Option<(&'static str, String)> {
    let (keyword, end) = if stmt.starts_with("if") {
        ("if", "then")
    } else if stmt.starts_with("while") {
        ("while", "do")
    } else {
        return None;
    };
    let body = &stmt[keyword.len()..];
    let mut cond = String::new();
    for line in body.lines() {
        let code = line.split('#').next().unwrap_or("");
        let mut words = code.split_whitespace().peekable();
        let mut done = false;
        for w in words.by_ref() {
            if w == end {
                done = true;
                break;
            }
            cond.push_str(w);
            cond.push(' ');
        }
        if done {
            return Some((keyword, one_line(&cond)));
        }
    }
    None
}

/// The text inside the parentheses that open at `open` (a byte index of
/// `(`), balanced; character and string literals are skipped.
fn parenthesised_at(text: &str, open: usize) -> Option<&str> {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut i = open;
    while i < bytes.len() {
        match bytes[i] {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return text.get(open + 1..i);
                }
            }
            q @ (b'\'' | b'"') => {
                i += 1;
                while i < bytes.len() && bytes[i] != q {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// C: the condition of `if (c)`, `while (c)`, `for (i; c; s)`, `do ...
/// while (c);`, `switch (v)`.
fn c_condition(stmt: &str) -> Option<(&'static str, String)> {
    let word = stmt
        .split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
        .next()
        .unwrap_or("");
    let open = |from: usize| stmt[from..].find('(').map(|i| i + from);
    match word {
        "if" | "while" | "switch" => {
            let inner = parenthesised_at(stmt, open(word.len())?)?;
            let keyword = match word {
                "if" => "if",
                "while" => "while",
                _ => "switch",
            };
            Some((keyword, one_line(inner)))
        }
        "for" => {
            let inner = parenthesised_at(stmt, open(3)?)?;
            // `for (;;)` loops while true.
            let cond = one_line(inner.split(';').nth(1)?);
            Some(("for", if cond.is_empty() { "true".into() } else { cond }))
        }
        "do" => {
            let at = stmt.rfind("while")?;
            let inner = parenthesised_at(stmt, open(at)?)?;
            Some(("while", one_line(inner)))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conditions_are_cut_from_their_statements() {
        let imp = [
            ("if a <= b then min = a else min = b fi", "a <= b"),
            ("while s <= x do r = r + 1 od", "s <= x"),
            ("while (k < c) and done do k = k + 1 od", "(k < c) and done"),
            ("if (a) then skip else skip fi", "(a)"),
            ("if thenx > 1 then skip else skip fi", "thenx > 1"),
        ];
        for (stmt, cond) in imp {
            assert_eq!(condition_text(stmt, false), cond, "{stmt}");
        }
        let c = [
            ("if (x > 0) { y = 1; }", "x > 0"),
            ("while (i < n && a[i] != 0) i++;", "i < n && a[i] != 0"),
            ("while (i < n) { do { i++; } while (i < 3); }", "i < n"),
            ("for (i = 0; i < 10; i++) s += i;", "i < 10"),
            ("for (;;) { }", "true"),
            ("do { x--; } while (x > 0);", "x > 0"),
            ("a && b", "a && b"),
        ];
        for (stmt, cond) in c {
            assert_eq!(condition_text(stmt, true), cond, "{stmt}");
        }
    }

    #[test]
    fn statements_with_comments_and_literals_give_their_conditions() {
        assert_eq!(
            imp_condition("if x > 10 # big\n then y = 1 else skip fi"),
            Some(("if", "x > 10".into()))
        );
        assert_eq!(
            imp_condition("while s <= x and\n t do s = s + 1 od"),
            Some(("while", "s <= x and t".into()))
        );
        assert_eq!(
            c_condition("if (c == ')' && (x > 0)) { y = 1; }"),
            Some(("if", "c == ')' && (x > 0)".into()))
        );
        assert_eq!(
            c_condition("for (int i = 0; i < 4; i++) a[i] = 0;"),
            Some(("for", "i < 4".into()))
        );
        assert_eq!(
            c_condition("do { x--; } while (x > 0);"),
            Some(("while", "x > 0".into()))
        );
        assert_eq!(c_condition("case 3"), None);
    }

    #[test]
    fn labels_are_shortened() {
        assert_eq!(shorten("abc", 5), "abc");
        assert_eq!(shorten("abcdefgh", 5), "abcd…");
    }
}
