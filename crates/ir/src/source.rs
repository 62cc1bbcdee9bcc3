//! Source locations and user-facing error messages, shared by every front
//! end.
//!
//! A [`Span`] is a byte range of one source text, named by a [`FileId`]; a
//! run may involve several texts (a program and the `--assume` condition,
//! or a C file and its headers), and [`Sources`] holds them all so that a
//! location can always be shown as `file:line:column` with its line.

use std::fmt;

/// Which source text a span is in: an index into [`Sources`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FileId(pub u32);

/// A half-open byte range `[lo, hi)` of one source text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Span {
    /// The text it is in.
    pub file: FileId,
    /// First byte.
    pub lo: u32,
    /// One past the last byte.
    pub hi: u32,
}

impl Span {
    /// The span `[lo, hi)` of the first text (file 0).
    pub fn new(lo: u32, hi: u32) -> Span {
        Span {
            file: FileId(0),
            lo,
            hi,
        }
    }

    /// The span `[lo, hi)` of text `file`.
    pub fn in_file(file: FileId, lo: u32, hi: u32) -> Span {
        Span { file, lo, hi }
    }

    /// The smallest span covering `self` and `other` (of the same text).
    pub fn to(self, other: Span) -> Span {
        Span {
            file: self.file,
            lo: self.lo.min(other.lo),
            hi: self.hi.max(other.hi),
        }
    }

    /// Is this the empty span of file 0 that marks "no location"?
    pub fn is_dummy(&self) -> bool {
        *self == Span::default()
    }
}

/// A 1-based line and column (the column counts characters, not bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LineCol {
    /// Line, from 1.
    pub line: u32,
    /// Column, from 1.
    pub column: u32,
}

impl fmt::Display for LineCol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// Maps byte offsets of one source text to lines and columns.
#[derive(Clone, Debug)]
pub struct SourceMap {
    name: String,
    text: String,
    line_starts: Vec<u32>,
}

impl SourceMap {
    /// A map for `text`, shown to users as `name` (usually the file path).
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> SourceMap {
        let text = text.into();
        let mut line_starts = vec![0];
        line_starts.extend(
            text.bytes()
                .enumerate()
                .filter(|&(_, b)| b == b'\n')
                .map(|(i, _)| i as u32 + 1),
        );
        SourceMap {
            name: name.into(),
            text,
            line_starts,
        }
    }

    /// The name given at construction.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The source text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Line and column of a byte offset (clamped to the text). The end of
    /// a text that ends with a line break is placed at the end of its last
    /// line, not on an empty line after it.
    pub fn line_col(&self, offset: u32) -> LineCol {
        let mut offset = offset.min(self.text.len() as u32);
        if offset as usize == self.text.len() {
            let trimmed = self.text.trim_end_matches(['\n', '\r']).len() as u32;
            offset = offset.min(trimmed);
        }
        let line = self.line_starts.partition_point(|&s| s <= offset) - 1;
        let start = self.line_starts[line] as usize;
        let mut end = offset as usize;
        while !self.text.is_char_boundary(end) {
            end -= 1;
        }
        let column = self.text[start..end].chars().count() as u32 + 1;
        LineCol {
            line: line as u32 + 1,
            column,
        }
    }

    /// The text of a 1-based line, without its line break.
    pub fn line_text(&self, line: u32) -> &str {
        let i = (line.max(1) - 1) as usize;
        let Some(&start) = self.line_starts.get(i) else {
            return "";
        };
        let end = self
            .line_starts
            .get(i + 1)
            .map(|&e| e as usize)
            .unwrap_or(self.text.len());
        self.text[start as usize..end].trim_end_matches(['\n', '\r'])
    }

    /// Renders a diagnostic the way rustc does: `error: message`, then
    /// ` --> file:line:col`, the offending line, a caret under the span,
    /// then any help.
    pub fn render(&self, diag: &Diagnostic) -> String {
        self.render_as(diag, "error")
    }

    /// Renders a diagnostic as [`SourceMap::render`] does, with another
    /// severity (`warning`, `note`).
    ///
    /// Tabs in the shown line are expanded to the next multiple of
    /// [`TAB_WIDTH`] columns, and the caret is placed by the same rule, so
    /// it stands under the span whatever the terminal's tab stops are.
    /// The column in `file:line:col` stays a count of characters.
    pub fn render_as(&self, diag: &Diagnostic, severity: &str) -> String {
        let at = self.line_col(diag.span.lo);
        let line = self.line_text(at.line);
        let end = if diag.span.hi > diag.span.lo {
            self.line_col(diag.span.hi)
        } else {
            at
        };
        let (shown, start) = expand_tabs(line, at.column as usize - 1);
        let width = if end.line == at.line && end.column > at.column {
            let (_, stop) = expand_tabs(line, end.column as usize - 1);
            stop.saturating_sub(start).max(1)
        } else {
            1
        };
        let gutter = at.line.to_string().len();
        let mut out = format!(
            "{severity}: {}\n{:gutter$}--> {}:{}\n{:gutter$} |\n{} | {}\n{:gutter$} | {}{}\n",
            diag.message,
            "",
            self.name,
            at,
            "",
            at.line,
            shown,
            "",
            " ".repeat(start),
            "^".repeat(width),
        );
        if let Some(help) = &diag.help {
            out.push_str(&format!("{:gutter$} = help: {help}\n", ""));
        }
        out
    }
}

/// The tab stops of a shown source line (rustc's choice).
pub const TAB_WIDTH: usize = 4;

/// `line` with its tabs expanded to the next multiple of [`TAB_WIDTH`],
/// and the display column of its character number `chars` (0-based).
fn expand_tabs(line: &str, chars: usize) -> (String, usize) {
    let mut shown = String::with_capacity(line.len());
    let mut column = None;
    let mut width = 0;
    for (i, c) in line.chars().enumerate() {
        if i == chars {
            column = Some(width);
        }
        if c == '\t' {
            let n = TAB_WIDTH - width % TAB_WIDTH;
            shown.extend(std::iter::repeat_n(' ', n));
            width += n;
        } else {
            shown.push(c);
            width += 1;
        }
    }
    // A position at or past the end of the line (an error at end of input).
    let column = column.unwrap_or(width + chars.saturating_sub(line.chars().count()));
    (shown, column)
}

/// An error in a program, with the place it refers to and, when there is
/// one, advice on what to do.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct Diagnostic {
    /// What went wrong, as one sentence without a trailing period.
    pub message: String,
    /// Where.
    pub span: Span,
    /// What to do about it.
    pub help: Option<String>,
}

impl Diagnostic {
    /// A diagnostic without help.
    pub fn new(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            message: message.into(),
            span,
            help: None,
        }
    }

    /// Adds advice on how to fix the problem.
    pub fn with_help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(help.into());
        self
    }
}

/// Every source text of a run, indexed by [`FileId`].
#[derive(Clone, Debug, Default)]
pub struct Sources {
    files: Vec<SourceMap>,
}

impl Sources {
    /// No texts yet.
    pub fn new() -> Sources {
        Sources::default()
    }

    /// Adds a text and returns its id.
    pub fn add(&mut self, map: SourceMap) -> FileId {
        self.files.push(map);
        FileId(self.files.len() as u32 - 1)
    }

    /// The text with id `file` (the first text if there is no such id).
    pub fn get(&self, file: FileId) -> &SourceMap {
        static EMPTY: std::sync::OnceLock<SourceMap> = std::sync::OnceLock::new();
        self.files
            .get(file.0 as usize)
            .or(self.files.first())
            .unwrap_or_else(|| EMPTY.get_or_init(|| SourceMap::new("<no source>", "")))
    }

    /// Line and column of a span's start.
    pub fn line_col(&self, span: Span) -> LineCol {
        self.get(span.file).line_col(span.lo)
    }

    /// `name:line:col` of a span's start.
    pub fn location(&self, span: Span) -> String {
        let map = self.get(span.file);
        format!("{}:{}", map.name(), map.line_col(span.lo))
    }

    /// The source line a span starts on.
    pub fn line_text(&self, span: Span) -> &str {
        let map = self.get(span.file);
        map.line_text(map.line_col(span.lo).line)
    }

    /// Renders a diagnostic in the text its span is in.
    pub fn render(&self, diag: &Diagnostic) -> String {
        self.get(diag.span.file).render(diag)
    }

    /// Renders a warning in the text its span is in.
    pub fn render_warning(&self, diag: &Diagnostic) -> String {
        self.get(diag.span.file).render_as(diag, "warning")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_and_column_count_characters() {
        let map = SourceMap::new("t.imp", "x = 1;\n  é = 2;\ny");
        assert_eq!(map.line_col(0), LineCol { line: 1, column: 1 });
        assert_eq!(map.line_col(7), LineCol { line: 2, column: 1 });
        // 'é' is two bytes; the '=' after it is column 5.
        assert_eq!(map.line_col(12), LineCol { line: 2, column: 5 });
        assert_eq!(map.line_col(100), LineCol { line: 3, column: 2 });
        let ends_with_newline = SourceMap::new("t.imp", "if x\n\n");
        assert_eq!(
            ends_with_newline.line_col(6),
            LineCol { line: 1, column: 5 }
        );
        assert_eq!(map.line_text(2), "  é = 2;");
    }

    #[test]
    fn render_points_at_the_span() {
        let map = SourceMap::new("t.imp", "x = 1;\ny = ;\n");
        let d = Diagnostic::new(Span::new(11, 12), "expected an expression, found ';'")
            .with_help("write a value after '='");
        let text = map.render(&d);
        assert!(
            text.starts_with("error: expected an expression, found ';'\n --> t.imp:2:5\n"),
            "{text}"
        );
        assert!(text.contains("2 | y = ;\n  |     ^\n"), "{text}");
        assert!(text.contains("help: write a value"), "{text}");
    }

    #[test]
    fn caret_stands_under_the_span_on_lines_with_tabs() {
        // `\ty\t;`: the error is at the `;` (character 4 of the line).
        let map = SourceMap::new("t.imp", "x = 1;\n\ty\t;\n");
        let d = Diagnostic::new(Span::new(10, 11), "expected an expression, found ';'");
        let text = map.render(&d);
        assert!(text.contains(" --> t.imp:2:4\n"), "{text}");
        // The first tab fills columns 0..4, the second 5..8.
        assert!(text.contains("2 |     y   ;\n  |         ^\n"), "{text}");
        assert!(!text.contains('\t'), "{text}");
        // A span over a tab is as wide as the tab is shown.
        let d = Diagnostic::new(Span::new(8, 11), "here");
        let text = map.render(&d);
        assert!(text.contains("\n  |     ^^^^^\n"), "{text}");
    }
}
