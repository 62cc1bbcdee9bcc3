//! The text the parser reads, and the way back from it to the file the
//! user wrote.
//!
//! A `.c` file goes through the system preprocessor (`gcc -E`); the
//! parser's offsets are then offsets into the preprocessed text, which
//! `# LINE "FILE"` markers tie back to the file's lines. [`SpanMap`] turns
//! them into [`Span`]s of the file as written, so diagnostics and bugs
//! point at the user's line; text that came from a header points into the
//! preprocessed text, kept as a source of its own. A `.i` file is parsed
//! as it is and its spans are its own.

use crate::DataModel;
use std::path::Path;
use std::process::Command;
use wiser_ir::{Diagnostic, FileId, SourceMap, Sources, Span};

/// What one line of the parsed text came from.
#[derive(Clone, Copy, Debug)]
struct PpLine {
    /// Its start in the parsed text.
    start: u32,
    /// The line (1-based) of the user's file it comes from, if it does.
    orig: Option<u32>,
    /// How many leading bytes it shares with that line: columns hold up
    /// to the first difference (usually a macro's name, e.g. `assert`).
    /// An expansion can span several preprocessed lines (gcc puts line
    /// markers inside it): the lines after the first get the first one's
    /// count, so they map to where the expansion starts.
    same: Indent,
    /// Is it the first preprocessed line of its original line?
    first: bool,
}

/// How a preprocessed line lines up with the line it came from: gcc
/// rewrites leading whitespace (a tab becomes spaces), so the texts are
/// compared after their indentation.
#[derive(Clone, Copy, Debug, Default)]
struct Indent {
    /// Bytes of indentation of the preprocessed line.
    pp: u32,
    /// Bytes of indentation of the original line.
    orig: u32,
    /// Bytes the two share after their indentation.
    same: u32,
}

impl Indent {
    fn of(orig: &str, pp: &str) -> Indent {
        let ws = |t: &str| (t.len() - t.trim_start_matches([' ', '\t']).len()) as u32;
        let (o, p) = (ws(orig), ws(pp));
        let same = orig[o as usize..]
            .bytes()
            .zip(pp[p as usize..].bytes())
            .take_while(|(a, b)| a == b)
            .count() as u32;
        Indent {
            pp: p,
            orig: o,
            same,
        }
    }
}

/// Maps offsets of the parsed text to spans of the sources.
#[derive(Debug)]
pub struct SpanMap {
    /// The user's file.
    file: FileId,
    /// Its name, as given.
    name: String,
    /// The preprocessed text, when it differs from the user's file.
    pp: Option<FileId>,
    lines: Vec<PpLine>,
    /// Start offset of each line of the user's file.
    orig_starts: Vec<u32>,
    /// Where text appended after the program starts, and the file it is
    /// (the C library, see `libc.rs`): offsets from there are that file's.
    appended: Option<(u32, FileId)>,
    /// Where `#pragma pack` lines change the packing, and what to.
    packs: Vec<(u32, Option<u32>)>,
    /// Where the `struct` and `union` keywords of types with gcc's
    /// `__attribute__((packed))` are ([`crate::packed`]), in order.
    packed: Vec<u32>,
}

/// The parsed text and its map.
pub struct Prepared {
    /// The text for the parser.
    pub text: String,
    /// Offsets of `text` to spans.
    pub map: SpanMap,
}

fn line_starts(text: &str) -> Vec<u32> {
    let mut v = vec![0];
    v.extend(
        text.bytes()
            .enumerate()
            .filter(|(_, b)| *b == b'\n')
            .map(|(i, _)| i as u32 + 1),
    );
    v
}

/// Parses a line marker `# 12 "file" 1 3`: its line and file.
fn line_marker(line: &str) -> Option<(u32, &str)> {
    let rest = line.strip_prefix('#')?.trim_start();
    let rest = rest.strip_prefix("line").unwrap_or(rest).trim_start();
    let end = rest.find(|c: char| !c.is_ascii_digit())?;
    let n: u32 = rest[..end].parse().ok()?;
    let rest = rest[end..].trim_start().strip_prefix('"')?;
    let close = rest.find('"')?;
    Some((n, &rest[..close]))
}

/// Reads the file at `path` (already read as `text`) into `sources` and
/// prepares the text to parse: preprocessed for `.c`, as it is otherwise.
pub fn prepare(
    sources: &mut Sources,
    path: &Path,
    text: String,
    dm: DataModel,
) -> Result<Prepared, Diagnostic> {
    let name = path.display().to_string();
    let preprocess = path.extension().is_some_and(|e| e == "c" || e == "h");
    let file = sources.add(SourceMap::new(&name, text.clone()));
    let orig_starts = line_starts(&text);
    if !preprocess {
        let lines = orig_starts
            .iter()
            .enumerate()
            .map(|(i, &start)| PpLine {
                start,
                orig: Some(i as u32 + 1),
                same: Indent {
                    pp: 0,
                    orig: 0,
                    same: u32::MAX,
                },
                first: true,
            })
            .collect();
        let mut map = SpanMap {
            file,
            name: name.clone(),
            pp: None,
            lines,
            orig_starts,
            appended: None,
            packs: packs(&text),
            packed: Vec::new(),
        };
        let mut text = text;
        map.packed = crate::packed::blank(&mut text);
        return Ok(Prepared { text, map });
    }
    let pp_text = run_cpp(path, dm).map_err(|msg| {
        Diagnostic::new(Span::in_file(file, 0, 0), msg).with_help(
            "wiser runs `gcc -E` on `.c` files; install gcc, or give an already preprocessed `.i` file",
        )
    })?;
    let pp_text = implicit_int_main(pp_text);
    let mut lines: Vec<PpLine> = Vec::new();
    let mut cur: Option<u32> = None;
    let mut start = 0u32;
    let mut last: Option<(u32, Indent)> = None; // (orig line, its first line's `same`)
    for line in pp_text.split_inclusive('\n') {
        let marker = line_marker(line.trim_end());
        let orig = if marker.is_some() { None } else { cur };
        let (same, first) = match (orig, last) {
            (Some(o), Some((l, same))) if l == o => (same, false),
            (Some(o), _) => {
                let otext = orig_starts
                    .get((o as usize).wrapping_sub(1))
                    .map_or("", |&st| {
                        text[st as usize..].split('\n').next().unwrap_or("")
                    });
                let ptext = line.trim_end_matches(['\n', '\r']);
                let same = Indent::of(otext, ptext);
                last = Some((o, same));
                (same, true)
            }
            (None, _) => (Indent::default(), false),
        };
        lines.push(PpLine {
            start,
            orig,
            same,
            first,
        });
        match marker {
            Some((n, f)) => cur = (f == name || Path::new(f) == path).then_some(n),
            None => cur = cur.map(|l| l + 1),
        }
        start += line.len() as u32;
    }
    let pp = sources.add(SourceMap::new(
        format!("{name} (preprocessed)"),
        pp_text.clone(),
    ));
    let mut pp_text = pp_text;
    let packed = crate::packed::blank(&mut pp_text);
    let map = SpanMap {
        file,
        name,
        pp: Some(pp),
        lines,
        orig_starts,
        appended: None,
        packs: packs(&pp_text),
        packed,
    };
    Ok(Prepared { text: pp_text, map })
}

/// The packing `#pragma pack` lines set (gcc's: `pack(n)`, `pack()`,
/// `pack(push)`, `pack(push, n)`, `pack(pop)`), as the offsets of the
/// lines that change it and the packing from there (`None`: none). The
/// parser skips the lines.
fn packs(text: &str) -> Vec<(u32, Option<u32>)> {
    let (mut out, mut stack, mut now) = (Vec::new(), Vec::new(), None);
    let mut start = 0u32;
    for line in text.split_inclusive('\n') {
        let at = start;
        start += line.len() as u32;
        let Some(rest) = line.trim().strip_prefix("#pragma") else {
            continue;
        };
        let Some(args) = rest.trim().strip_prefix("pack") else {
            continue;
        };
        let args = args.trim().trim_start_matches('(').trim_end_matches(')');
        let args: Vec<&str> = args.split(',').map(str::trim).collect();
        let number = |a: &str| a.parse::<u32>().ok().filter(|n| n.is_power_of_two());
        match args.as_slice() {
            ["push", rest @ ..] => {
                stack.push(now);
                if let Some(n) = rest.first() {
                    now = number(n);
                }
            }
            ["pop", ..] => now = stack.pop().flatten(),
            ["show"] => continue,
            [""] => now = None,
            [n] => now = number(n),
            _ => continue,
        }
        out.push((at, now));
    }
    out
}

/// Old C's `main ()` without a type (implicit `int`, gone since C99 but
/// in older programs and SV-COMP tasks) as `int main ()`: the parser reads
/// C11. Only a definition at the start of a line is changed; its columns
/// after `main` are then off by the four inserted characters.
fn implicit_int_main(text: String) -> String {
    if !text.lines().any(is_implicit_main) {
        return text;
    }
    text.split_inclusive('\n')
        .map(|line| {
            if is_implicit_main(line) {
                format!("int {line}")
            } else {
                line.to_string()
            }
        })
        .collect()
}

fn is_implicit_main(line: &str) -> bool {
    line.strip_prefix("main")
        .is_some_and(|rest| rest.trim_start().starts_with('('))
}

fn run_cpp(path: &Path, dm: DataModel) -> Result<String, String> {
    let cpp = std::env::var("WISER_CPP").unwrap_or_else(|_| "gcc".into());
    let mut cmd = Command::new(&cpp);
    cmd.arg("-E").arg(dm.gcc_flag()).arg("-std=gnu11");
    // glibc's `<stddef.h>` declares `max_align_t` with gcc's `__float128`
    // under -m32, a type the parser does not know: any float type parses
    // (and an unused declaration is harmless).
    cmd.arg("-D__float128=long double");
    // `<ctype.h>`'s functions as functions (wiser's C library defines
    // them), not as glibc's macros over its locale tables.
    cmd.arg("-D__NO_CTYPE");
    cmd.arg(path);
    let out = cmd
        .output()
        .map_err(|e| format!("cannot run the preprocessor `{cpp} -E`: {e}"))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        let first = err.lines().find(|l| l.contains("error")).unwrap_or("");
        return Err(format!("the preprocessor failed: {}", first.trim()));
    }
    String::from_utf8(out.stdout).map_err(|_| "the preprocessed text is not UTF-8".into())
}

impl SpanMap {
    /// The user's file.
    pub fn file(&self) -> FileId {
        self.file
    }

    /// The span of the parsed text's `lo..hi` in the sources.
    pub fn span(&self, lo: usize, hi: usize) -> Span {
        let lo_s = self.point(lo as u32);
        let hi_s = self.point(hi as u32);
        match (lo_s, hi_s) {
            ((f, a), (g, b)) if f == g && b >= a => Span::in_file(f, a, b),
            ((f, a), _) => Span::in_file(f, a, a + 1),
        }
    }

    /// The packing of a structure type whose `struct` or `union` keyword
    /// is at offset `at` of the parsed text (the most a member is aligned
    /// to, in bytes), if any: 1 when it has `__attribute__((packed))`,
    /// else what `#pragma pack` sets there.
    pub fn pack_at(&self, at: usize) -> Option<u32> {
        if u32::try_from(at).is_ok_and(|a| self.packed.binary_search(&a).is_ok()) {
            return Some(1);
        }
        let k = self.packs.partition_point(|(o, _)| *o as usize <= at);
        k.checked_sub(1).and_then(|k| self.packs[k].1)
    }

    /// The user's file's name, as given.
    pub fn file_name(&self) -> &str {
        &self.name
    }

    /// Makes the parsed text's offsets from `at` on those of `file` (text
    /// appended after the program, from the start of `file`).
    pub fn append(&mut self, at: usize, file: FileId) {
        self.appended = Some((at as u32, file));
    }

    /// Where one offset of the parsed text is.
    fn point(&self, off: u32) -> (FileId, u32) {
        if let Some((at, file)) = self.appended {
            if off >= at {
                return (file, off - at);
            }
        }
        let Some(pp) = self.pp else {
            return (self.file, off);
        };
        let i = self
            .lines
            .partition_point(|l| l.start <= off)
            .saturating_sub(1);
        let line = self.lines[i];
        let col = off - line.start;
        let Some(orig) = line.orig else {
            return (pp, off);
        };
        let Some(&ostart) = self.orig_starts.get((orig as usize).wrapping_sub(1)) else {
            return (pp, off);
        };
        let Indent {
            pp: pw,
            orig: ow,
            same,
        } = line.same;
        let col = match (line.first, col.checked_sub(pw)) {
            (true, Some(rel)) => ow + rel.min(same),
            (true, None) => ow,
            (false, _) => ow + same,
        };
        (self.file, ostart + col)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn implicit_int_main_gets_its_int() {
        let text = "int f(void);\nmain ()\n{ return 0; }\n  mainly();\n".to_string();
        assert_eq!(
            implicit_int_main(text),
            "int f(void);\nint main ()\n{ return 0; }\n  mainly();\n"
        );
    }

    #[test]
    fn line_markers() {
        assert_eq!(line_marker("# 12 \"a.c\" 1 3"), Some((12, "a.c")));
        assert_eq!(line_marker("#line 3 \"b.c\""), Some((3, "b.c")));
        assert_eq!(line_marker("#pragma once"), None);
    }

    #[test]
    fn pragma_pack_follows_gccs_stack() {
        let text = "#pragma pack(push)\n#pragma pack(1)\nA\n#pragma pack(push, 2)\nB\n\
                    #pragma pack(pop)\nC\n#pragma pack(pop)\nD\n#pragma pack(4)\nE\n#pragma pack()\nF\n";
        let packs = packs(text);
        let at = |w: &str| {
            let k = text.find(&format!("{w}\n")).unwrap() as u32;
            let i = packs.partition_point(|(o, _)| *o <= k);
            packs[i - 1].1
        };
        assert_eq!(
            ["A", "B", "C", "D", "E", "F"].map(at),
            [Some(1), Some(2), Some(1), None, Some(4), None]
        );
    }
}
