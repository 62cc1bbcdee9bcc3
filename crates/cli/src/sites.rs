//! Decision sites and statements in the program's own terms: what the user
//! wrote at an instruction (`a <= b` for the branch of `if a <= b then`,
//! `assert min <= a`, the operator of a check), and which instructions are
//! statements of the program's file at all (lowering helpers without a
//! source span of their own are not). Coverage and the pictures of the
//! symbolic execution tree speak through these.

use crate::load::Program;
use wiser_frontend::{one_line, Frontend};
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
        _ => (SiteKind::Branch, condition_text(&text, program.language)),
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
pub fn condition_text(stmt: &str, language: &dyn Frontend) -> String {
    let t = stmt.trim();
    statement_condition(t, language).map_or_else(|| t.to_string(), |(_, cond)| cond)
}

/// The keyword and condition of a branching statement's source text
/// (`("while", "i < n")`), or `None` for other text: the program's front
/// end cuts it. The one place that asks: coverage, trees and traces use it.
pub fn statement_condition(stmt: &str, language: &dyn Frontend) -> Option<(&'static str, String)> {
    language.statement_condition(stmt)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conditions_are_cut_from_their_statements() {
        // Each front end's own tests cut its statements; here, that the
        // text of a branch asks the program's front end, and that text it
        // does not cut is shown whole.
        assert_eq!(
            condition_text(
                " while (k < c) and done do k = k + 1 od",
                &wiser_imp::FRONTEND
            ),
            "(k < c) and done"
        );
        assert_eq!(condition_text(" a && b ", &wiser_c::FRONTEND), "a && b");
    }

    #[test]
    fn labels_are_shortened() {
        assert_eq!(shorten("abc", 5), "abc");
        assert_eq!(shorten("abcdefgh", 5), "abcd…");
    }
}
