//! IMP as a [`wiser_frontend::Frontend`]: files (or standard input) to
//! the IR, with an optional `--assume` condition as a text of its own.

use crate::{compile_assumption_cut, compile_files, SourceMap, Sources};
use std::path::Path;
use std::sync::Arc;
use wiser_frontend::{
    one_line, Frontend, LoadError, LoadRequest, Loaded, LoadedProgram, Location, WitnessStyle,
};

/// The IMP front end.
pub struct Imp;

/// The IMP front end, for a registry of front ends.
pub static FRONTEND: Imp = Imp;

/// What an IMP program has beyond its IR: its reads are `x = *`; with an
/// `--assume` condition, the program cut right after it.
struct ImpProgram {
    cut: Option<Arc<wiser_ir::Ir>>,
}

impl LoadedProgram for ImpProgram {
    fn assumption_cut(&self) -> Option<&Arc<wiser_ir::Ir>> {
        self.cut.as_ref()
    }
}

/// All of standard input (`-` as the program's file).
fn read_stdin() -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(&mut std::io::stdin().lock(), &mut bytes)?;
    Ok(bytes)
}

impl Frontend for Imp {
    fn name(&self) -> &'static str {
        "imp"
    }

    fn description(&self) -> &'static str {
        "IMP."
    }

    fn extensions(&self) -> &'static [&'static str] {
        &["imp"]
    }

    fn load(&self, request: &LoadRequest<'_>) -> Result<Loaded, LoadError> {
        let path = request.path;
        let stdin = path == Path::new("-");
        let bytes = if stdin {
            read_stdin()
        } else {
            std::fs::read(path)
        };
        let name = if stdin {
            "<stdin>".to_string()
        } else {
            path.display().to_string()
        };
        let bytes = bytes.map_err(|e| {
            LoadError::refused(
                format!("cannot read `{name}`: {e}"),
                Some("check the path; wiser takes one IMP source file, a C file (.c, .i) or an SV-COMP task (.yml)"),
            )
        })?;
        let text = String::from_utf8(bytes).map_err(|e| {
            let at = SourceMap::new(&name, String::from_utf8_lossy(e.as_bytes()).into_owned())
                .line_col(e.utf8_error().valid_up_to() as u32);
            LoadError::Refused {
                message: "the file is not valid UTF-8".into(),
                location: Some(Location {
                    file: name.clone(),
                    line_col: at,
                }),
                help: None,
            }
        })?;
        let mut sources = Sources::new();
        let file = sources.add(SourceMap::new(&name, text));
        let assume = request
            .assume
            .map(|a| sources.add(SourceMap::new("--assume", a)));
        let compiled = compile_files(&sources, file, assume).and_then(|ir| {
            let cut = assume
                .map(|a| compile_assumption_cut(&sources, file, a))
                .transpose()?;
            Ok((ir, cut))
        });
        match compiled {
            Ok((ir, cut)) => Ok(Loaded {
                sources,
                ir: Arc::new(ir),
                warnings: Vec::new(),
                data_model: None,
                details: Box::new(ImpProgram {
                    cut: cut.map(Arc::new),
                }),
            }),
            Err(diagnostic) => Err(LoadError::Program {
                diagnostic,
                sources,
                unsupported: false,
            }),
        }
    }

    fn witness_style(&self) -> WitnessStyle {
        WitnessStyle::Variables
    }

    fn reads_name(&self) -> &'static str {
        "read(s) of `x = *`"
    }

    fn statement_condition(&self, statement: &str) -> Option<(&'static str, String)> {
        condition(statement)
    }

    fn suggested_args<'t>(&self, text: &'t str) -> Option<&'t str> {
        text.lines()
            .take_while(|l| l.starts_with('#'))
            .find_map(|l| l.strip_prefix("# args:"))
            .map(str::trim)
    }
}

/// The text between `if`/`while` and `then`/`do` (expressions hold no
/// keyword that ends a condition; comments run from `#` to the line's
/// end).
fn condition(stmt: &str) -> Option<(&'static str, String)> {
    let stmt = stmt.trim();
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
            assert_eq!(
                condition(stmt).map(|c| c.1).as_deref(),
                Some(cond),
                "{stmt}"
            );
        }
    }

    #[test]
    fn statements_with_comments_give_their_conditions() {
        assert_eq!(
            condition("if x > 10 # big\n then y = 1 else skip fi"),
            Some(("if", "x > 10".into()))
        );
        assert_eq!(
            condition("while s <= x and\n t do s = s + 1 od"),
            Some(("while", "s <= x and t".into()))
        );
    }

    #[test]
    fn the_header_suggests_arguments() {
        let text = "# A program.\n# args: --assume 'x > 0'\nx = *\n";
        assert_eq!(Imp.suggested_args(text), Some("--assume 'x > 0'"));
        assert_eq!(Imp.suggested_args("x = *\n# args: no\n"), None);
    }
}
