//! "Did you mean" for misspelt names and keywords, and the checks of the
//! command line's `--assume` condition against the program's inputs.

use crate::analysis::AnalysedProgram;
use crate::ast::Cond;
use crate::walk::cond_names;
use crate::Diagnostic;
use std::sync::Arc;

/// The keywords a statement can start with: a name where a statement
/// starts that is close to one of them is likely a slip (`whlie`).
pub const STATEMENT_KEYWORDS: [&str; 7] =
    ["skip", "fail", "if", "while", "assert", "assume", "return"];

/// The candidate closest to `name` by edit distance (Damerau–Levenshtein:
/// a swap of two neighbours, `whlie`, counts one), if it is close enough to
/// be a likely slip: at most one edit for names of up to four characters,
/// two up to eight, three beyond.
pub fn closest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let limit = match name.chars().count() {
        0..=4 => 1,
        5..=8 => 2,
        _ => 3,
    };
    candidates
        .into_iter()
        .filter(|c| *c != name)
        .map(|c| (strsim::damerau_levenshtein(name, c), c))
        .filter(|&(d, _)| d <= limit)
        .min_by_key(|&(d, c)| (d, c.len()))
        .map(|(_, c)| c)
}

/// `did you mean `x`?`, or the list of what exists.
fn help(name: &str, what: &str, candidates: &[Arc<str>]) -> String {
    if let Some(c) = closest(name, candidates.iter().map(|c| &**c)) {
        return format!("did you mean `{c}`?");
    }
    if candidates.is_empty() {
        return format!("the program has no {what}s");
    }
    let list: Vec<String> = candidates.iter().map(|c| format!("`{c}`")).collect();
    format!("the program's {what}s are {}", list.join(", "))
}

/// Every name in `cond` (an `--assume` condition) must be an input of the
/// program: a main-program scalar that may be read before it is written,
/// or an array. A local the program assigns before reading it, or a name
/// it does not have, makes the assumption meaningless (it would only
/// constrain a variable nobody reads), so it is an error in the
/// condition's own text.
pub(crate) fn check_assumption(cond: &Cond, program: &AnalysedProgram) -> Result<(), Diagnostic> {
    let mut first: Option<Diagnostic> = None;
    cond_names(cond, &mut |ident, is_array| {
        if first.is_some() {
            return;
        }
        let name = &ident.name;
        let error = if is_array {
            (!program.arrays.contains(name)).then(|| {
                Diagnostic::new(ident.span, format!("the program has no array `{name}`"))
                    .with_help(help(name, "array", &program.arrays))
            })
        } else if program.main_inputs.contains(name) {
            None
        } else if program.main_vars.contains(name) {
            Some(
                Diagnostic::new(
                    ident.span,
                    format!("`{name}` is not an input of the program: it assigns `{name}` before reading it"),
                )
                .with_help(format!(
                    "--assume constrains the inputs, the variables the program reads before it assigns them ({}); constrain a computed value with `assume` in the program",
                    help(name, "input", &program.main_inputs)
                )),
            )
        } else {
            Some(
                Diagnostic::new(ident.span, format!("the program has no input `{name}`"))
                    .with_help(help(name, "input", &program.main_inputs)),
            )
        };
        first = error;
    });
    match first {
        Some(d) => Err(d),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::closest;

    #[test]
    fn closest_finds_slips_and_not_strangers() {
        let words = ["while", "if", "assert", "assume"];
        assert_eq!(closest("whlie", words), Some("while"));
        assert_eq!(closest("asert", words), Some("assert"));
        assert_eq!(closest("fi", ["if", "od"]), Some("if"));
        assert_eq!(closest("y", ["x"]), Some("x"));
        assert_eq!(closest("banana", words), None);
        assert_eq!(closest("x", ["x"]), None);
    }
}
