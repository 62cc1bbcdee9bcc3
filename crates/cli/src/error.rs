//! A command's error, typed where it is found: its text (rustc's style, on
//! stderr) and its structured diagnostics (for the JSON and SARIF error
//! documents) are both rendered from the same value.

use crate::json::Diag;
use crate::load::LoadFailure;
use wiser_frontend::LoadError;
use wiser_ir::{Diagnostic, Sources};

/// Why a command failed.
#[derive(Debug)]
pub enum CliError {
    /// The front end refused the program (typed: located in its sources
    /// or with its own message, place and help).
    Load(LoadError),
    /// An error located in a program's texts (an `--assume` condition
    /// that can fail).
    Located {
        /// The error.
        diagnostic: Diagnostic,
        /// The texts its span points into.
        sources: Sources,
    },
    /// A usage error: options that do not go together, or do not apply.
    Usage {
        /// What is wrong.
        message: String,
        /// What to do about it.
        help: Option<String>,
    },
    /// An error already worded in rustc's style by the code that found it
    /// (usage, files, inputs, test files). Its diagnostics for JSON and
    /// SARIF are read back from that fixed style ([`crate::json::diagnostics`]).
    Worded(String),
}

impl From<String> for CliError {
    fn from(text: String) -> CliError {
        CliError::Worded(text)
    }
}

impl From<&str> for CliError {
    fn from(text: &str) -> CliError {
        CliError::Worded(text.to_string())
    }
}

impl From<LoadFailure> for CliError {
    fn from(f: LoadFailure) -> CliError {
        match f {
            LoadFailure::Frontend(e) => CliError::Load(e),
            LoadFailure::Other(text) => CliError::Worded(text),
        }
    }
}

impl CliError {
    /// The error as people read it on stderr.
    pub fn text(&self) -> String {
        match self {
            CliError::Load(e) => e.render(),
            CliError::Located {
                diagnostic,
                sources,
            } => sources.render(diagnostic),
            CliError::Usage { message, help } => {
                let mut text = format!("error: {message}\n");
                if let Some(help) = help {
                    text.push_str(&format!("  = help: {help}\n"));
                }
                text
            }
            CliError::Worded(text) => text.clone(),
        }
    }

    /// The error's diagnostics, for the JSON and SARIF documents.
    pub fn diagnostics(&self) -> Vec<Diag> {
        match self {
            CliError::Load(LoadError::Program {
                diagnostic,
                sources,
                ..
            })
            | CliError::Located {
                diagnostic,
                sources,
            } => vec![located(diagnostic, sources)],
            CliError::Load(LoadError::Refused {
                message,
                location,
                help,
            }) => vec![Diag {
                message: message.clone(),
                file: location.as_ref().map(|l| l.file.clone()),
                line: location.as_ref().map(|l| l.line_col.line),
                column: location.as_ref().map(|l| l.line_col.column),
                help: help.clone(),
            }],
            CliError::Usage { message, help } => vec![Diag {
                message: message.clone(),
                file: None,
                line: None,
                column: None,
                help: help.clone(),
            }],
            CliError::Worded(text) => crate::json::diagnostics(text),
        }
    }
}

/// A diagnostic in `sources`, with its file, line and column.
fn located(diagnostic: &Diagnostic, sources: &Sources) -> Diag {
    let at = sources.line_col(diagnostic.span);
    Diag {
        message: diagnostic.message.clone(),
        file: Some(sources.get(diagnostic.span.file).name().to_string()),
        line: Some(at.line),
        column: Some(at.column),
        help: diagnostic.help.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wiser_ir::{SourceMap, Span};

    #[test]
    fn typed_errors_give_the_diagnostics_their_text_shows() {
        let mut sources = Sources::new();
        let file = sources.add(SourceMap::new("x.imp", "x = 1;\ny = ;\n"));
        let diagnostic = Diagnostic::new(Span::in_file(file, 11, 12), "expected an expression")
            .with_help("write a value after '='");
        let located = CliError::Located {
            diagnostic,
            sources,
        };
        let typed = located.diagnostics();
        assert_eq!(typed, crate::json::diagnostics(&located.text()));
        assert_eq!(typed[0].file.as_deref(), Some("x.imp"));
        assert_eq!((typed[0].line, typed[0].column), (Some(2), Some(5)));
        let usage = CliError::Usage {
            message: "`--tree` writes the results of one program".into(),
            help: Some("check the files one at a time".into()),
        };
        assert_eq!(usage.diagnostics(), crate::json::diagnostics(&usage.text()));
        let refused = CliError::Load(LoadError::Refused {
            message: "the file is not valid UTF-8".into(),
            location: Some(wiser_frontend::Location {
                file: "b.imp".into(),
                line_col: wiser_ir::LineCol { line: 3, column: 2 },
            }),
            help: None,
        });
        assert_eq!(
            refused.diagnostics(),
            crate::json::diagnostics(&refused.text())
        );
    }
}
