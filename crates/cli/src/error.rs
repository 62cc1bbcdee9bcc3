//! A command's error, typed where it is found: its text (rustc's style, on
//! stderr) and its structured diagnostics (for the JSON and SARIF error
//! documents) are both rendered from the same value, never read back from
//! the text.

use crate::json::Diag;
use wiser_frontend::{LoadError, Location};
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
    /// An error outside any program's text: in the options, a file or
    /// folder, the inputs, a test file or a task file.
    Plain(Plain),
    /// An error with a note on where it arose (which test's input, say).
    Noted {
        /// The error.
        error: Box<CliError>,
        /// The note (`= note: ...`).
        note: String,
    },
}

/// What a [`CliError::Plain`] is about (the `kind` of its diagnostic).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Options that do not go together, or do not apply.
    Usage,
    /// Values given for the program's inputs (`--input`, `--reads`,
    /// `--schedule`, a test's inputs).
    Input,
    /// A file or folder that cannot be read or written.
    File,
    /// A test file that is not one.
    TestFile,
    /// An SV-COMP task or property file that wiser cannot use.
    Task,
}

/// An error outside any program's text.
#[derive(Debug)]
pub struct Plain {
    /// What it is about.
    pub kind: Kind,
    /// What is wrong.
    pub message: String,
    /// Where, when somewhere in a file (a task file's YAML).
    pub location: Option<Location>,
    /// What to do about it.
    pub help: Option<String>,
}

impl CliError {
    /// An error of `kind` with its message and no help.
    pub fn new(kind: Kind, message: impl Into<String>) -> CliError {
        CliError::Plain(Plain {
            kind,
            message: message.into(),
            location: None,
            help: None,
        })
    }

    /// A usage error.
    pub fn usage(message: impl Into<String>) -> CliError {
        CliError::new(Kind::Usage, message)
    }

    /// An error in the inputs given.
    pub fn input(message: impl Into<String>) -> CliError {
        CliError::new(Kind::Input, message)
    }

    /// A file or folder that cannot be read or written.
    pub fn file(message: impl Into<String>) -> CliError {
        CliError::new(Kind::File, message)
    }

    /// `what` (the tree, the harness) cannot be written to `path`.
    pub fn cannot_write(what: &str, path: &std::path::Path, e: &std::io::Error) -> CliError {
        CliError::file(format!("cannot write {what} to `{}`: {e}", path.display()))
            .help("check that its folder exists and is writable")
    }

    /// The error with `help` (a plain error's; others keep theirs).
    pub fn help(mut self, help: impl Into<String>) -> CliError {
        if let CliError::Plain(p) = &mut self {
            p.help = Some(help.into());
        }
        self
    }

    /// The error placed at `location` (a plain error's; others keep
    /// theirs).
    pub fn at(mut self, location: Location) -> CliError {
        if let CliError::Plain(p) = &mut self {
            p.location = Some(location);
        }
        self
    }

    /// The error with a note on where it arose.
    pub fn note(self, note: impl Into<String>) -> CliError {
        CliError::Noted {
            error: Box::new(self),
            note: note.into(),
        }
    }

    /// Is the error in the program's text (a syntax or type error, or a
    /// construct outside the front end's subset)?
    pub fn is_in_program(&self) -> bool {
        match self {
            CliError::Load(LoadError::Program { .. }) => true,
            CliError::Noted { error, .. } => error.is_in_program(),
            _ => false,
        }
    }

    /// The error's kind, as its JSON diagnostic names it.
    pub fn kind(&self) -> &'static str {
        match self {
            CliError::Load(LoadError::Program {
                unsupported: true, ..
            }) => "unsupported",
            CliError::Load(LoadError::Program { .. }) | CliError::Located { .. } => "program",
            CliError::Load(LoadError::Refused { .. }) => "refused",
            CliError::Noted { error, .. } => error.kind(),
            CliError::Plain(p) => match p.kind {
                Kind::Usage => "usage",
                Kind::Input => "input",
                Kind::File => "file",
                Kind::TestFile => "test-file",
                Kind::Task => "task",
            },
        }
    }

    /// The error as people read it on stderr.
    pub fn text(&self) -> String {
        match self {
            CliError::Load(e) => e.render(),
            CliError::Located {
                diagnostic,
                sources,
            } => sources.render(diagnostic),
            CliError::Plain(p) => {
                let mut text = format!("error: {}\n", p.message);
                if let Some(at) = &p.location {
                    text.push_str(&format!(" --> {}:{}\n", at.file, at.line_col));
                }
                if let Some(help) = &p.help {
                    text.push_str(&format!("  = help: {help}\n"));
                }
                text
            }
            CliError::Noted { error, note } => format!("{}  = note: {note}\n", error.text()),
        }
    }

    /// The error's diagnostic, for the JSON and SARIF documents.
    pub fn diagnostic(&self) -> Diag {
        let kind = self.kind();
        match self {
            CliError::Load(LoadError::Program {
                diagnostic,
                sources,
                ..
            })
            | CliError::Located {
                diagnostic,
                sources,
            } => {
                let at = sources.line_col(diagnostic.span);
                Diag {
                    kind,
                    message: diagnostic.message.clone(),
                    file: Some(sources.get(diagnostic.span.file).name().to_string()),
                    line: Some(at.line),
                    column: Some(at.column),
                    help: diagnostic.help.clone(),
                    notes: Vec::new(),
                }
            }
            CliError::Load(LoadError::Refused {
                message,
                location,
                help,
            })
            | CliError::Plain(Plain {
                message,
                location,
                help,
                ..
            }) => Diag {
                kind,
                message: message.clone(),
                file: location.as_ref().map(|l| l.file.clone()),
                line: location.as_ref().map(|l| l.line_col.line),
                column: location.as_ref().map(|l| l.line_col.column),
                help: help.clone(),
                notes: Vec::new(),
            },
            CliError::Noted { error, note } => {
                let mut d = error.diagnostic();
                d.notes.push(note.clone());
                d
            }
        }
    }

    /// The error's first line without `error: `, and its place when it
    /// has one: `what (file:line:col)`, for a one-line summary.
    pub fn one_line(&self) -> String {
        let d = self.diagnostic();
        match (d.file, d.line, d.column) {
            (Some(f), Some(l), Some(c)) => format!("{} ({f}:{l}:{c})", d.message),
            _ => d.message,
        }
    }
}

impl From<LoadError> for CliError {
    fn from(e: LoadError) -> CliError {
        CliError::Load(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wiser_ir::{SourceMap, Span};

    /// The text's first line and ` --> ` place, as rustc's style writes
    /// them, agree with the typed diagnostic.
    fn agrees(error: &CliError) {
        let d = error.diagnostic();
        let text = error.text();
        assert_eq!(text.lines().next(), Some(&*format!("error: {}", d.message)));
        if let (Some(f), Some(l), Some(c)) = (&d.file, d.line, d.column) {
            assert!(text.contains(&format!(" --> {f}:{l}:{c}\n")), "{text}");
        }
        if let Some(h) = &d.help {
            assert!(text.contains(&format!("= help: {h}\n")), "{text}");
        }
        for n in &d.notes {
            assert!(text.contains(&format!("= note: {n}\n")), "{text}");
        }
    }

    #[test]
    fn text_and_diagnostic_come_from_one_value() {
        let mut sources = Sources::new();
        let file = sources.add(SourceMap::new("x.imp", "x = 1;\ny = ;\n"));
        let diagnostic = Diagnostic::new(Span::in_file(file, 11, 12), "expected an expression")
            .with_help("write a value after '='");
        let located = CliError::Located {
            diagnostic,
            sources,
        };
        agrees(&located);
        let d = located.diagnostic();
        assert_eq!(d.file.as_deref(), Some("x.imp"));
        assert_eq!((d.line, d.column), (Some(2), Some(5)));
        assert_eq!(d.kind, "program");
        assert_eq!(located.one_line(), "expected an expression (x.imp:2:5)");

        let usage = CliError::usage("`--tree` writes the results of one program")
            .help("check the files one at a time");
        agrees(&usage);
        assert_eq!(usage.diagnostic().kind, "usage");
        assert_eq!(
            usage.diagnostic().help.as_deref(),
            Some("check the files one at a time")
        );

        let place = Location {
            file: "t.yml".into(),
            line_col: wiser_ir::LineCol { line: 3, column: 2 },
        };
        let task = CliError::new(Kind::Task, "invalid YAML").at(place.clone());
        agrees(&task);
        assert_eq!(task.diagnostic().line, Some(3));

        let refused = CliError::Load(LoadError::Refused {
            message: "the file is not valid UTF-8".into(),
            location: Some(place),
            help: None,
        });
        agrees(&refused);
        assert_eq!(refused.diagnostic().kind, "refused");
        assert!(!refused.is_in_program());
        let mut sources = Sources::new();
        let file = sources.add(SourceMap::new("t.c", "main () { }\n"));
        let syntax = CliError::Load(LoadError::Program {
            diagnostic: Diagnostic::new(Span::in_file(file, 0, 4), "syntax error"),
            sources,
            unsupported: false,
        });
        assert!(syntax.is_in_program(), "a task answers it `unknown`");
        assert!(syntax.note("in a test").is_in_program());

        let noted =
            CliError::input("`7` is not a value of type `bool`").note("in the test `t.json`");
        agrees(&noted);
        assert!(noted.text().ends_with("  = note: in the test `t.json`\n"));
        assert_eq!(noted.diagnostic().notes, ["in the test `t.json`"]);
        assert_eq!(noted.diagnostic().kind, "input");
    }
}
