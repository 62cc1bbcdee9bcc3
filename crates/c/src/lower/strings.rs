//! String literals: their bytes (C's escapes decoded once, here, for
//! strings and character constants alike), and their objects. A literal
//! used as a value is the pointer to a `char` object holding its bytes and
//! the terminating `0`, made by the IR's main routine before anything else
//! runs; equal literals share one object, as gcc's do. Writing into one is
//! undefined in C, and not checked here.

use super::{heap, CSpan, Fun, Res};
use crate::types::{CInt, CType, Rank};
use wiser_ir::{Diagnostic, Expr, ScalarTy};
use wiser_num::{Int, IntTy};

/// The type of a string literal's elements: `char` (signed, as on gcc for
/// x86).
pub const CHAR: CInt = CInt::new(Rank::Char, true);

/// The bytes a C escape sequence or character stands for at the start of
/// `s` (after a backslash when `escaped`), and how many bytes of `s` it
/// took; `None` for a malformed escape.
fn one(s: &str) -> Option<(Vec<u8>, usize)> {
    let b = s.as_bytes();
    if b.first() != Some(&b'\\') {
        let c = s.chars().next()?;
        let mut buf = [0u8; 4];
        return Some((c.encode_utf8(&mut buf).as_bytes().to_vec(), c.len_utf8()));
    }
    let simple = |v: u8| Some((vec![v], 2));
    match *b.get(1)? {
        b'n' => simple(10),
        b't' => simple(9),
        b'r' => simple(13),
        b'a' => simple(7),
        b'b' => simple(8),
        b'f' => simple(12),
        b'v' => simple(11),
        b'e' => simple(27),
        b'\\' => simple(92),
        b'\'' => simple(39),
        b'"' => simple(34),
        b'?' => simple(63),
        b'x' => {
            let digits = b[2..].iter().take_while(|c| c.is_ascii_hexdigit()).count();
            if digits == 0 {
                return None;
            }
            let v = u64::from_str_radix(&s[2..2 + digits.min(16)], 16).ok()?;
            Some((vec![v as u8], 2 + digits))
        }
        b'0'..=b'7' => {
            let digits = b[1..]
                .iter()
                .take(3)
                .take_while(|c| (b'0'..=b'7').contains(c))
                .count();
            let v = u32::from_str_radix(&s[1..1 + digits], 8).ok()?;
            Some((vec![v as u8], 1 + digits))
        }
        _ => None,
    }
}

/// The bytes of the text between a literal's quotes.
fn unescape(mut s: &str) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    while !s.is_empty() {
        let (bytes, n) = one(s)?;
        out.extend(bytes);
        s = &s[n..];
    }
    Some(out)
}

/// The value of a character constant (`'a'`, `'\n'`, `'\x41'`), an `int`
/// holding a `char` (signed: `'\xff'` is -1); `None` for a wide or
/// multi-character constant.
pub fn char_literal(s: &str) -> Option<i64> {
    let inner = s.strip_prefix('\'')?.strip_suffix('\'')?;
    match unescape(inner)?.as_slice() {
        [b] => Some(i64::from(*b as i8)),
        _ => None,
    }
}

/// The bytes of a string literal as the parser gives it (adjacent
/// literals as pieces, each with its quotes), without the terminating 0;
/// `None` for a wide literal (`L"..."`, `u"..."`) or a malformed escape.
pub fn bytes(pieces: &[String]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    for p in pieces {
        let p = p.strip_prefix("u8").unwrap_or(p);
        let inner = p.strip_prefix('"')?.strip_suffix('"')?;
        out.extend(unescape(inner)?);
    }
    Some(out)
}

/// A string literal as a value: the pointer to its object, and the
/// pointee type (`char`).
pub fn literal(f: &mut Fun, pieces: &[String], at: CSpan) -> Res<(Expr, CType)> {
    let Some(text) = bytes(pieces) else {
        return Err(f
            .u
            .unsupported(at, "wide string literals and malformed escapes"));
    };
    Ok((object(f, text), CType::Int(CHAR)))
}

/// The pointer to the object holding the string `text` (and its 0).
pub fn object(f: &mut Fun, text: Vec<u8>) -> Expr {
    let existing =
        f.u.strings
            .iter()
            .find(|(t, _)| *t == text)
            .map(|(_, p)| *p);
    let place = match existing {
        Some(p) => p,
        None => {
            let name = format!("$string{}", f.u.strings.len());
            let p =
                f.rb.program()
                    .global(name, ScalarTy::INT, Some(Int::from(0)));
            f.u.strings.push((text, p));
            p
        }
    };
    // Written once, before any other code runs: no read of shared state.
    f.rb.load(place)
}

/// Makes the objects of every string literal the program uses (in the
/// IR's main routine, before anything else runs).
pub fn make_all(f: &mut Fun, span: wiser_ir::Span) -> Res<()> {
    let ty = CType::Int(CHAR);
    for (text, place) in std::mem::take(&mut f.u.strings) {
        let n = Expr::int(IntTy::INT, Int::from_u64(text.len() as u64 + 1));
        heap::allocate(f, place, &ty, n, false, span);
        for (k, b) in text.iter().chain(std::iter::once(&0u8)).enumerate() {
            let q = super::layout::plus(f.rb.load(place), k as u64, span);
            let v = Expr::int(CHAR.ir(f.u.dm), Int::from(i64::from(*b as i8)));
            heap::store(f, &ty, q, v, span)?;
        }
    }
    Ok(())
}

/// Stores a string literal into the `len` chars at `p` (`char s[] =
/// "abc";`, `char s[8] = "abc";`): its bytes, then zeros to the end; a
/// literal longer than the array is an error (C allows dropping the 0).
pub fn fill_array(f: &mut Fun, p: Expr, len: u64, pieces: &[String], at: CSpan) -> Res<()> {
    let Some(text) = bytes(pieces) else {
        return Err(f
            .u
            .unsupported(at, "wide string literals and malformed escapes"));
    };
    if text.len() as u64 > len {
        return Err(Diagnostic::new(
            f.span(at),
            format!(
                "the string has {} characters, and the array {len}",
                text.len()
            ),
        ));
    }
    let span = f.span(at);
    let ty = CType::Int(CHAR);
    for (k, b) in text.iter().enumerate() {
        let q = super::layout::plus(p.clone(), k as u64, span);
        let v = Expr::int(CHAR.ir(f.u.dm), Int::from(i64::from(*b as i8)));
        heap::store(f, &ty, q, v, span)?;
    }
    let rest = len - text.len() as u64;
    if rest > 0 {
        let tail = super::layout::plus(p, text.len() as u64, span);
        let zeros = CType::Array(Box::new(ty), crate::types::Len::Const(rest));
        super::layout::zero(f, &zeros, tail, true, span);
    }
    Ok(())
}
