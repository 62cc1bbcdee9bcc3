//! Everything `wiser` prints goes through here, for two reasons:
//!
//! * a stream that cannot be written is not a crash: `wiser check ... |
//!   head -c 10` closes the pipe early, which is what the reader wanted,
//!   and `wiser run big.imp > /dev/full` fails to write, which is reported
//!   once as an error (exit 2) instead of a panic of `print!` (exit 101);
//! * the words people look for (`error:`, `warning:`, `bug:`, the verdict)
//!   are coloured on a terminal. `anstream` decides per stream whether to
//!   keep the colours: `--color always|never`, else not when the stream is
//!   not a terminal or `NO_COLOR` is set (so tests and pipes see plain text).

use anstream::ColorChoice;
use anstyle::{AnsiColor, Style};
use std::io::{ErrorKind, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

/// `--color`: when to colour the output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorArg {
    /// On a terminal, unless `NO_COLOR` is set.
    Auto,
    /// Always (even into a pipe).
    Always,
    /// Never.
    Never,
}

/// Sets when to colour, for every stream of the process.
pub fn set_color(choice: ColorArg) {
    ColorChoice::write_global(match choice {
        ColorArg::Auto => ColorChoice::Auto,
        ColorArg::Always => ColorChoice::Always,
        ColorArg::Never => ColorChoice::Never,
    });
}

/// Standard output, as one command writes it: created once by
/// `main_with_args` and lent to the code that prints reports. It
/// remembers what a command's end needs to know: whether a report is out
/// (an error after it, such as a harness that cannot be written, must not
/// print a second document) and the first failure to write.
#[derive(Debug, Default)]
pub struct Stdout {
    /// A report is on standard output.
    reported: AtomicBool,
    /// The first error met writing (other than a closed pipe).
    failed: Mutex<Option<String>>,
}

impl Stdout {
    /// Prints `text`. A closed pipe ends the output silently; any other
    /// failure is remembered for [`Stdout::failure`].
    pub fn write(&self, text: &str) {
        let mut stream = anstream::stdout().lock();
        let result = stream
            .write_all(paint(text).as_bytes())
            .and_then(|()| stream.flush());
        if let Err(e) = result {
            if e.kind() != ErrorKind::BrokenPipe {
                let mut failed = self.failed.lock().unwrap_or_else(|p| p.into_inner());
                failed.get_or_insert_with(|| e.to_string());
            }
        }
    }

    /// Prints bytes as they are (a program's own output): no colour, and
    /// nothing taken out.
    pub fn write_bytes(&self, bytes: &[u8]) {
        let mut stream = std::io::stdout().lock();
        let result = stream.write_all(bytes).and_then(|()| stream.flush());
        if let Err(e) = result {
            if e.kind() != ErrorKind::BrokenPipe {
                let mut failed = self.failed.lock().unwrap_or_else(|p| p.into_inner());
                failed.get_or_insert_with(|| e.to_string());
            }
        }
    }

    /// Prints a report (one document of `--format json` or `sarif`, or
    /// a text report) and notes that it is out.
    pub fn write_report(&self, text: &str) {
        self.write(text);
        self.reported.store(true, Ordering::SeqCst);
    }

    /// Is a report on standard output?
    pub fn reported(&self) -> bool {
        self.reported.load(Ordering::SeqCst)
    }

    /// Why standard output could not be written, if it could not (a
    /// closed pipe excepted).
    pub fn failure(&self) -> Option<String> {
        self.failed
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }
}

/// Prints `text` on standard error. Nothing is left to tell anyone if
/// that fails, so a failure is ignored.
pub fn err(text: &str) {
    let mut stream = anstream::stderr().lock();
    let _ = stream
        .write_all(paint(text).as_bytes())
        .and_then(|()| stream.flush());
}

/// Prints bytes as they are on standard error (a program's own output
/// to `stderr`); a failure is ignored, as [`err`]'s.
pub fn err_bytes(bytes: &[u8]) {
    let mut stream = std::io::stderr().lock();
    let _ = stream.write_all(bytes).and_then(|()| stream.flush());
}

/// `eprintln!` through [`err`].
macro_rules! errln {
    ($($arg:tt)*) => {
        $crate::out::err(&format!("{}\n", format_args!($($arg)*)))
    };
}
pub(crate) use errln;

const RED: Style = AnsiColor::Red.on_default().bold();
const YELLOW: Style = AnsiColor::Yellow.on_default().bold();
const GREEN: Style = AnsiColor::Green.on_default().bold();
const BLUE: Style = AnsiColor::Blue.on_default().bold();
const BOLD: Style = Style::new().bold();

/// `text` with the leading word of each line that says what the line is
/// (`error`, `warning`, `note`, `bug`, a verdict, rustc's ` --> ` and
/// `= help`) coloured. The escapes are removed again by `anstream` where
/// colour is off.
fn paint(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let styled = [
            ("error", RED),
            ("warning", YELLOW),
            ("note", GREEN),
            ("bug", RED),
        ]
        .iter()
        .find(|(word, _)| {
            line.strip_prefix(word)
                .is_some_and(|rest| rest.starts_with(':'))
        });
        if let Some((word, style)) = styled {
            out.push_str(&format!("{style}{word}{style:#}"));
            out.push_str(&line[word.len()..]);
        } else if let Some(rest) = line.strip_prefix("verdict: ") {
            let word_len = rest.find([' ', '\n']).unwrap_or(rest.len());
            let style = match &rest[..word_len] {
                "safe" => GREEN,
                "bug" => RED,
                _ => YELLOW,
            };
            out.push_str(&format!(
                "verdict: {style}{}{style:#}{}",
                &rest[..word_len],
                &rest[word_len..]
            ));
        } else if let Some(at) = line.find("--> ").filter(|&i| line[..i].trim().is_empty()) {
            out.push_str(&format!(
                "{}{BLUE}-->{BLUE:#}{}",
                &line[..at],
                &line[at + 3..]
            ));
        } else if let Some(at) = line
            .find("= help:")
            .filter(|&i| line[..i].trim().is_empty())
        {
            out.push_str(&format!(
                "{}{BOLD}= help:{BOLD:#}{}",
                &line[..at],
                &line[at + 7..]
            ));
        } else {
            out.push_str(line);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::paint;

    #[test]
    fn paint_colours_the_leading_words_and_nothing_else() {
        let text = "error: x\n --> f.imp:1:2\nbug: y at f.imp:3:1\n  input: error: no\nverdict: safe (every path)\n";
        let painted = paint(text);
        let plain = anstream::adapter::strip_str(&painted).to_string();
        assert_eq!(plain, text);
        assert!(painted.starts_with("\x1b[1m\x1b[31merror"), "{painted:?}");
        assert!(painted.contains("  input: error: no\n"), "{painted:?}");
        assert!(
            painted.contains("verdict: \x1b[1m\x1b[32msafe"),
            "{painted:?}"
        );
    }
}
