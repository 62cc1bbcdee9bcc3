//! Source text to tokens.
//!
//! The whole file is tokenised up front: the parser then works on a slice
//! and can look ahead freely, and identical names share one `Arc<str>`.

use crate::{Diagnostic, FileId, Span};
use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;
use wiser_num::Int;

/// One kind of token. Keywords and symbols carry no data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Tok {
    Ident(Arc<str>),
    Num(Int),
    /// A float literal's text (`1.5`, `1e-3`), without a sign.
    Float(Arc<str>),
    // Keywords.
    Skip,
    Fail,
    If,
    Then,
    Else,
    Fi,
    While,
    Do,
    Od,
    Assert,
    Assume,
    Macro,
    Proc,
    Begin,
    End,
    Return,
    True,
    False,
    Not,
    And,
    Or,
    Class,
    Method,
    New,
    Null,
    This,
    Global,
    Spawn,
    Join,
    Lock,
    Unlock,
    Atomic,
    // Symbols.
    Plus,
    Minus,
    Star,
    Slash,
    Percent,
    Tilde,
    Amp,
    Pipe,
    Caret,
    Shl,
    Shr,
    LParen,
    RParen,
    LBracket,
    RBracket,
    Comma,
    Dot,
    Colon,
    Semi,
    Assign,
    EqEq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    /// End of input; always the last token, with an empty span at the end.
    Eof,
}

impl Tok {
    fn keyword(word: &str) -> Option<Tok> {
        Some(match word {
            "skip" => Tok::Skip,
            "fail" => Tok::Fail,
            "if" => Tok::If,
            "then" => Tok::Then,
            "else" => Tok::Else,
            "fi" => Tok::Fi,
            "while" => Tok::While,
            "do" => Tok::Do,
            "od" => Tok::Od,
            "assert" => Tok::Assert,
            "assume" => Tok::Assume,
            "macro" => Tok::Macro,
            "proc" => Tok::Proc,
            "begin" => Tok::Begin,
            "end" => Tok::End,
            "return" => Tok::Return,
            "true" => Tok::True,
            "false" => Tok::False,
            "not" => Tok::Not,
            "and" => Tok::And,
            "or" => Tok::Or,
            "class" => Tok::Class,
            "method" => Tok::Method,
            "new" => Tok::New,
            "null" => Tok::Null,
            "this" => Tok::This,
            "global" => Tok::Global,
            "spawn" => Tok::Spawn,
            "join" => Tok::Join,
            "lock" => Tok::Lock,
            "unlock" => Tok::Unlock,
            "atomic" => Tok::Atomic,
            _ => return None,
        })
    }

    /// The fixed spelling of a keyword or symbol (`None` for names,
    /// numbers and the end of input).
    pub(crate) fn text(&self) -> Option<&'static str> {
        Some(match self {
            Tok::Ident(_) | Tok::Num(_) | Tok::Float(_) | Tok::Eof => return None,
            Tok::Skip => "skip",
            Tok::Fail => "fail",
            Tok::If => "if",
            Tok::Then => "then",
            Tok::Else => "else",
            Tok::Fi => "fi",
            Tok::While => "while",
            Tok::Do => "do",
            Tok::Od => "od",
            Tok::Assert => "assert",
            Tok::Assume => "assume",
            Tok::Macro => "macro",
            Tok::Proc => "proc",
            Tok::Begin => "begin",
            Tok::End => "end",
            Tok::Return => "return",
            Tok::True => "true",
            Tok::False => "false",
            Tok::Not => "not",
            Tok::And => "and",
            Tok::Or => "or",
            Tok::Class => "class",
            Tok::Method => "method",
            Tok::New => "new",
            Tok::Null => "null",
            Tok::This => "this",
            Tok::Global => "global",
            Tok::Spawn => "spawn",
            Tok::Join => "join",
            Tok::Lock => "lock",
            Tok::Unlock => "unlock",
            Tok::Atomic => "atomic",
            Tok::Plus => "+",
            Tok::Minus => "-",
            Tok::Star => "*",
            Tok::Slash => "/",
            Tok::Percent => "%",
            Tok::Tilde => "~",
            Tok::Amp => "&",
            Tok::Pipe => "|",
            Tok::Caret => "^",
            Tok::Shl => "<<",
            Tok::Shr => ">>",
            Tok::LParen => "(",
            Tok::RParen => ")",
            Tok::LBracket => "[",
            Tok::RBracket => "]",
            Tok::Comma => ",",
            Tok::Dot => ".",
            Tok::Colon => ":",
            Tok::Semi => ";",
            Tok::Assign => "=",
            Tok::EqEq => "==",
            Tok::Ne => "!=",
            Tok::Lt => "<",
            Tok::Le => "<=",
            Tok::Gt => ">",
            Tok::Ge => ">=",
        })
    }
}

/// How a token is named in "found ..." parts of error messages.
impl fmt::Display for Tok {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tok::Ident(name) => write!(f, "`{name}`"),
            Tok::Num(value) => write!(f, "number `{value}`"),
            Tok::Float(text) => write!(f, "number `{text}`"),
            Tok::Eof => f.write_str("end of input"),
            other => write!(f, "'{}'", other.text().unwrap_or("?")),
        }
    }
}

/// A token and where it was written.
#[derive(Clone, Debug)]
pub(crate) struct Token {
    pub tok: Tok,
    pub span: Span,
}

/// Splits `src` into tokens, ending with [`Tok::Eof`].
pub(crate) fn lex(file: FileId, src: &str) -> Result<Vec<Token>, Diagnostic> {
    lex_file0(src)
        .map_err(|d| in_file(file, d))
        .map(|mut toks| {
            for t in &mut toks {
                t.span.file = file;
            }
            toks
        })
}

fn in_file(file: FileId, mut d: Diagnostic) -> Diagnostic {
    d.span.file = file;
    d
}

fn lex_file0(src: &str) -> Result<Vec<Token>, Diagnostic> {
    // Spans are u32 byte offsets; the end-of-input token sits at `len`.
    if src.len() >= u32::MAX as usize {
        return Err(Diagnostic::new(
            Span::new(0, 0),
            "source text is too large (4 GiB or more)",
        ));
    }
    let bytes = src.as_bytes();
    let mut names: HashMap<&str, Arc<str>> = HashMap::new();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let start = i;
        if b.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if b == b'#' {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        let tok = if b.is_ascii_alphabetic() || b == b'_' {
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            let word = &src[start..i];
            match Tok::keyword(word) {
                Some(kw) => kw,
                None => Tok::Ident(names.entry(word).or_insert_with(|| word.into()).clone()),
            }
        } else if b.is_ascii_digit() {
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            let digits_end = i;
            i = float_suffix(bytes, i);
            if i < bytes.len() && (bytes[i].is_ascii_alphabetic() || bytes[i] == b'_') {
                // `123abc`: report the whole word rather than a confusing
                // "expected ';', found `abc`" later.
                let mut end = i;
                while end < bytes.len()
                    && (bytes[end].is_ascii_alphanumeric() || bytes[end] == b'_')
                {
                    end += 1;
                }
                return Err(Diagnostic::new(
                    span(start, end),
                    format!("invalid name `{}`", &src[start..end]),
                )
                .with_help("names start with a letter or `_`"));
            }
            if i > digits_end {
                Tok::Float(src[start..i].into())
            } else {
                // Cannot fail: the text is a non-empty run of ASCII digits.
                Tok::Num(src[start..i].parse::<Int>().unwrap_or_default())
            }
        } else {
            let next = bytes.get(i + 1).copied();
            let (tok, len) = match (b, next) {
                // Other languages' spellings get an error with advice.
                (b':', Some(b'=')) | (b'&', Some(b'&')) | (b'|', Some(b'|')) => {
                    return Err(unexpected_char(src, start))
                }
                (b'<', Some(b'<')) => (Tok::Shl, 2),
                (b'>', Some(b'>')) => (Tok::Shr, 2),
                (b'=', Some(b'=')) => (Tok::EqEq, 2),
                (b'!', Some(b'=')) => (Tok::Ne, 2),
                (b'<', Some(b'=')) => (Tok::Le, 2),
                (b'>', Some(b'=')) => (Tok::Ge, 2),
                (b'=', _) => (Tok::Assign, 1),
                (b'<', _) => (Tok::Lt, 1),
                (b'>', _) => (Tok::Gt, 1),
                (b'+', _) => (Tok::Plus, 1),
                (b'-', _) => (Tok::Minus, 1),
                (b'*', _) => (Tok::Star, 1),
                (b'/', _) => (Tok::Slash, 1),
                (b'%', _) => (Tok::Percent, 1),
                (b'~', _) => (Tok::Tilde, 1),
                (b'&', _) => (Tok::Amp, 1),
                (b'|', _) => (Tok::Pipe, 1),
                (b'^', _) => (Tok::Caret, 1),
                (b':', _) => (Tok::Colon, 1),
                (b'(', _) => (Tok::LParen, 1),
                (b')', _) => (Tok::RParen, 1),
                (b'[', _) => (Tok::LBracket, 1),
                (b']', _) => (Tok::RBracket, 1),
                (b',', _) => (Tok::Comma, 1),
                (b'.', _) => (Tok::Dot, 1),
                (b';', _) => (Tok::Semi, 1),
                _ => return Err(unexpected_char(src, start)),
            };
            i += len;
            tok
        };
        out.push(Token {
            tok,
            span: span(start, i),
        });
    }
    out.push(Token {
        tok: Tok::Eof,
        span: span(src.len(), src.len()),
    });
    Ok(out)
}

/// The end of a float literal's fraction and exponent that start at `i`,
/// right after its integer digits: `.` and digits, then `e` or `E`, an
/// optional sign and digits; `i` itself if neither follows. A point needs
/// a digit on each side (`2.` is not a literal: the `.` is a field
/// access's), and so does an exponent's letter.
fn float_suffix(bytes: &[u8], mut i: usize) -> usize {
    let digit = |k: usize| bytes.get(k).is_some_and(u8::is_ascii_digit);
    let digits_from = |mut k: usize| {
        while digit(k) {
            k += 1;
        }
        k
    };
    if bytes.get(i) == Some(&b'.') && digit(i + 1) {
        i = digits_from(i + 1);
    }
    if matches!(bytes.get(i), Some(b'e' | b'E')) {
        let sign = usize::from(matches!(bytes.get(i + 1), Some(b'+' | b'-')));
        if digit(i + 1 + sign) {
            i = digits_from(i + 1 + sign);
        }
    }
    i
}

fn span(lo: usize, hi: usize) -> Span {
    Span::new(lo as u32, hi as u32)
}

/// The error for a character that starts no token, with advice for the
/// spellings of other languages that people reach for.
fn unexpected_char(src: &str, at: usize) -> Diagnostic {
    let rest = &src[at..];
    for (pair, help) in [
        (":=", "assignment is written `=`"),
        ("&&", "use `and`"),
        ("||", "use `or`"),
    ] {
        if rest.starts_with(pair) {
            return Diagnostic::new(span(at, at + 2), format!("unexpected `{pair}`"))
                .with_help(help);
        }
    }
    let c = rest.chars().next().unwrap_or('\u{fffd}');
    let diag = Diagnostic::new(
        span(at, at + c.len_utf8()),
        format!("unexpected character {c:?}"),
    );
    let help = match c {
        '!' => "use `not`",
        '{' | '}' => {
            "blocks are written `if ... then ... else ... fi`, `while ... do ... od` and \
             `begin ... end`"
        }
        _ => return diag,
    };
    diag.with_help(help)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(src: &str) -> Vec<Tok> {
        lex(FileId(0), src)
            .unwrap()
            .into_iter()
            .map(|t| t.tok)
            .collect()
    }

    #[test]
    fn longest_match_for_two_character_symbols() {
        assert_eq!(
            kinds("a<=b==c!=d>=e=f<g>h"),
            vec![
                Tok::Ident("a".into()),
                Tok::Le,
                Tok::Ident("b".into()),
                Tok::EqEq,
                Tok::Ident("c".into()),
                Tok::Ne,
                Tok::Ident("d".into()),
                Tok::Ge,
                Tok::Ident("e".into()),
                Tok::Assign,
                Tok::Ident("f".into()),
                Tok::Lt,
                Tok::Ident("g".into()),
                Tok::Gt,
                Tok::Ident("h".into()),
                Tok::Eof,
            ]
        );
    }

    #[test]
    fn shifts_and_bitwise_operators() {
        assert_eq!(
            kinds("a<<b>>c<=d&e|f^~g:"),
            vec![
                Tok::Ident("a".into()),
                Tok::Shl,
                Tok::Ident("b".into()),
                Tok::Shr,
                Tok::Ident("c".into()),
                Tok::Le,
                Tok::Ident("d".into()),
                Tok::Amp,
                Tok::Ident("e".into()),
                Tok::Pipe,
                Tok::Ident("f".into()),
                Tok::Caret,
                Tok::Tilde,
                Tok::Ident("g".into()),
                Tok::Colon,
                Tok::Eof,
            ]
        );
        let err = lex(FileId(0), "x = a || b").unwrap_err();
        assert_eq!(err.help.as_deref(), Some("use `or`"));
    }

    #[test]
    fn comments_and_keywords() {
        assert_eq!(
            kinds("skip # while do od\n_x1 iff"),
            vec![
                Tok::Skip,
                Tok::Ident("_x1".into()),
                Tok::Ident("iff".into()),
                Tok::Eof
            ]
        );
    }

    #[test]
    fn unexpected_characters_point_at_themselves() {
        let err = lex(FileId(0), "x = 1 @ 2").unwrap_err();
        assert_eq!(err.message, "unexpected character '@'");
        assert_eq!(err.span, Span::new(6, 7));
        let err = lex(FileId(0), "x := 1").unwrap_err();
        assert_eq!(err.span, Span::new(2, 4));
        assert_eq!(err.help.as_deref(), Some("assignment is written `=`"));
        let err = lex(FileId(0), "é").unwrap_err();
        assert_eq!(err.span, Span::new(0, 2));
    }
}
