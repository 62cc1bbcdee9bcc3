//! Loading a program: read it, compile it with its front end (with the
//! `--assume` condition as a text of its own), and keep every text so
//! that each location can be shown as `file:line:col` with its line.

use std::sync::Arc;
use wiser_ir::{FileId, Ir, LineCol, SourceMap, Sources, Span};

/// A loaded program and what is needed to talk about its locations.
pub struct Program {
    /// Every source text (the file, then the `--assume` text if any).
    pub sources: Sources,
    /// The lowered program.
    pub ir: Arc<Ir>,
}

impl Program {
    /// `file:line:col` of a span (the `--assume` text is called `--assume`).
    pub fn location(&self, span: Span) -> String {
        self.sources.location(span)
    }

    /// Line and column of a span's start.
    pub fn line_col(&self, span: Span) -> LineCol {
        self.sources.line_col(span)
    }

    /// The source line a span starts on, trimmed.
    pub fn line_text(&self, span: Span) -> &str {
        self.sources.line_text(span).trim()
    }
}

/// Reads and compiles `path`, with an optional extra assumption on the
/// inputs (checked as `assume BEXPR` before the main statement).
pub fn load(path: &std::path::Path, assume: Option<&str>) -> Result<Program, String> {
    let name = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| {
        format!("wiser: cannot read `{name}`: {e}\n  = help: check the path; wiser takes one IMP source file\n")
    })?;
    let text = String::from_utf8(bytes).map_err(|e| {
        let at = SourceMap::new(&name, String::from_utf8_lossy(e.as_bytes()).into_owned())
            .line_col(e.utf8_error().valid_up_to() as u32);
        format!("{name}:{at}: error: the file is not valid UTF-8\n")
    })?;
    let mut sources = Sources::new();
    let file = sources.add(SourceMap::new(&name, text));
    let assume_file: Option<FileId> = assume.map(|a| sources.add(SourceMap::new("--assume", a)));
    match wiser_imp::compile_files(&sources, file, assume_file) {
        Ok(ir) => Ok(Program {
            sources,
            ir: Arc::new(ir),
        }),
        Err(d) => Err(sources.render(&d)),
    }
}
