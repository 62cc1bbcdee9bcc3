//! Loading a program: read, parse, add `--assume`, check, lower. Every
//! failure becomes a message that says where and what to do.

use wiser_semantics::{lower, Ir};
use wiser_syntax::ast::Stmt;
use wiser_syntax::{Diagnostic, LineCol, SourceMap, Span};

/// A loaded program and what is needed to talk about its locations.
pub struct Program {
    /// The source file.
    pub source: SourceMap,
    /// The `--assume` text, whose spans start at `assume_offset`.
    assume: Option<SourceMap>,
    assume_offset: u32,
    /// The lowered program.
    pub ir: Ir,
}

impl Program {
    /// `file:line:col` of a span (the `--assume` text is called `--assume`).
    pub fn location(&self, span: Span) -> String {
        let (map, lo) = self.map_for(span);
        format!("{}:{}", map.name(), map.line_col(lo))
    }

    /// Line and column of a span's start.
    pub fn line_col(&self, span: Span) -> LineCol {
        let (map, lo) = self.map_for(span);
        map.line_col(lo)
    }

    /// The source line a span starts on, trimmed.
    pub fn line_text(&self, span: Span) -> &str {
        let (map, lo) = self.map_for(span);
        map.line_text(map.line_col(lo).line).trim()
    }

    fn map_for(&self, span: Span) -> (&SourceMap, u32) {
        match &self.assume {
            Some(a) if span.lo >= self.assume_offset => (a, span.lo - self.assume_offset),
            _ => (&self.source, span.lo),
        }
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
    let source = SourceMap::new(&name, text);
    let render = |d: &Diagnostic, assume_map: Option<&SourceMap>, offset: u32| match assume_map {
        Some(a) if d.span.lo >= offset => {
            let shifted = Diagnostic {
                span: Span::new(d.span.lo - offset, d.span.hi.saturating_sub(offset)),
                ..d.clone()
            };
            a.render(&shifted)
        }
        _ => source.render(d),
    };
    let mut program =
        wiser_syntax::parse_program(source.text()).map_err(|d| render(&d, None, 0))?;
    // `--assume` spans start after the file's text, so each location says
    // which text it is in.
    let assume_offset = source.text().len() as u32 + 1;
    let assume_map = assume.map(|a| SourceMap::new("--assume", a));
    if let Some(a) = assume {
        let cond = parse_cond_at(a, assume_offset)
            .map_err(|d| render(&d, assume_map.as_ref(), assume_offset))?;
        let span = cond.span();
        let assume_stmt = Stmt::Assume { cond, span };
        program.main = match program.main {
            Stmt::Seq(mut items) => {
                items.insert(0, assume_stmt);
                Stmt::Seq(items)
            }
            other => Stmt::Seq(vec![assume_stmt, other]),
        };
    }
    let checked =
        wiser_syntax::check(program).map_err(|d| render(&d, assume_map.as_ref(), assume_offset))?;
    Ok(Program {
        ir: lower(&checked),
        source,
        assume: assume_map,
        assume_offset,
    })
}

/// Parses `text` as a condition whose spans start at byte `offset`: the
/// text is preceded by `offset` spaces, which the lexer skips, so every
/// span the parser makes is already shifted.
fn parse_cond_at(text: &str, offset: u32) -> Result<wiser_syntax::ast::Cond, Diagnostic> {
    let mut padded = " ".repeat(offset as usize);
    padded.push_str(text);
    wiser_syntax::parse_cond(&padded)
}
