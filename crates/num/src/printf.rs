//! Program output as C's `printf` writes it: the one place where a
//! format string is read ([`parse`]) and a value is written as text
//! under a conversion ([`format_int`], [`format_bytes`]), shared by the
//! front end that lowers a call of `printf` and the interpreter that
//! prints.
//!
//! Values come already converted to the conversion's type (the front end
//! casts the argument: `%u` of `-1` is `4294967295` as an `unsigned
//! int`), so formatting needs only the mathematical value. What glibc
//! does is the reference (`(nil)` for a null `%p`).
//!
//! ```
//! use wiser_num::printf::{format_int, parse, Piece};
//! let pieces = parse(b"n = %5d%%").unwrap();
//! let Piece::Conv(d) = &pieces[1] else { panic!() };
//! let mut out = b"n = ".to_vec();
//! format_int(&d.spec, &wiser_num::Int::from(-42), &mut out);
//! assert_eq!(out, b"n =   -42");
//! ```

use crate::Int;

/// The most a width or a precision may be: a format asking for more is
/// refused by [`parse`], and a [`Spec`] built otherwise is clamped to
/// it, so that one conversion never writes more than about this many
/// bytes.
pub const MAX_WIDTH: u32 = 1 << 16;

/// A conversion's flags (`-`, `+`, space, `#`, `0`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Flags {
    /// `-`: pad on the right.
    pub left: bool,
    /// `+`: a `+` before a non-negative signed value.
    pub plus: bool,
    /// ` `: a space before a non-negative signed value (without `+`).
    pub space: bool,
    /// `#`: the alternative form (`0x` before a non-zero `%x`, a leading
    /// `0` for `%o`).
    pub alt: bool,
    /// `0`: pad numbers with zeros (without `-` or a precision).
    pub zero: bool,
}

/// What a conversion writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Conv {
    /// `%d`, `%i`: a signed decimal.
    Signed,
    /// `%u`: an unsigned decimal.
    Unsigned,
    /// `%o`: octal.
    Octal,
    /// `%x`: hexadecimal, lower case.
    Hex,
    /// `%X`: hexadecimal, upper case.
    HexUpper,
    /// `%c`: one character (the value's low 8 bits).
    Char,
    /// `%s`: a string.
    Str,
    /// `%p`: a pointer (`(nil)` for null, else as `%#x`).
    Pointer,
    /// `%f`, `%e`, `%g` (upper case: `%F`, `%E`, `%G`): a `double`.
    Float(FloatStyle, bool),
}

/// How a floating conversion writes its number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FloatStyle {
    /// `%f`: `[-]ddd.dddddd`.
    Fixed,
    /// `%e`: `[-]d.dddddde±dd`.
    Exp,
    /// `%g`: `%e` or `%f`, whichever C's rule picks, without trailing
    /// zeros.
    General,
}

/// A conversion with its flags, width and precision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Spec {
    /// Flags.
    pub flags: Flags,
    /// The minimum width, if given.
    pub width: Option<u32>,
    /// The precision, if given (`.` alone is 0).
    pub precision: Option<u32>,
    /// The conversion.
    pub conv: Conv,
}

impl Spec {
    /// The plain conversion: no flags, width or precision.
    pub fn plain(conv: Conv) -> Spec {
        Spec {
            flags: Flags::default(),
            width: None,
            precision: None,
            conv,
        }
    }
}

/// A length modifier: which type the argument of an integer conversion
/// has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Length {
    /// None: `int` (or `unsigned int`).
    Default,
    /// `hh`: `char`.
    Char,
    /// `h`: `short`.
    Short,
    /// `l`: `long`.
    Long,
    /// `ll`: `long long`.
    LongLong,
    /// `z`: `size_t`.
    Size,
    /// `j`: `intmax_t`.
    Max,
    /// `t`: `ptrdiff_t`.
    Ptrdiff,
    /// `L`: `long double` (of a floating conversion).
    LongDouble,
}

/// A conversion of a format string: its spec and its argument's length.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Directive {
    /// What it writes.
    pub spec: Spec,
    /// The length modifier.
    pub length: Length,
}

/// A piece of a format string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Piece {
    /// Text written as it is (`%%` is a `%` here).
    Text(Vec<u8>),
    /// A conversion, which takes the next argument.
    Conv(Directive),
}

/// Why a format string cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormatError {
    /// Byte offset of the `%` that starts the bad conversion.
    pub at: usize,
    /// What is wrong.
    pub message: String,
}

/// Reads a format string: text and conversions, in order. Refused (the
/// caller writes nothing): conversions other than the integer, character,
/// string and pointer ones (`%f`, `%n`, ...), `*` widths and precisions,
/// widths or precisions past [`MAX_WIDTH`], a `%` at the end.
pub fn parse(format: &[u8]) -> Result<Vec<Piece>, FormatError> {
    let mut pieces = Vec::new();
    let mut text = Vec::new();
    let mut i = 0;
    while i < format.len() {
        if format[i] != b'%' {
            text.push(format[i]);
            i += 1;
            continue;
        }
        if format.get(i + 1) == Some(&b'%') {
            text.push(b'%');
            i += 2;
            continue;
        }
        let (d, next) = directive(format, i)?;
        if !text.is_empty() {
            pieces.push(Piece::Text(std::mem::take(&mut text)));
        }
        pieces.push(Piece::Conv(d));
        i = next;
    }
    if !text.is_empty() {
        pieces.push(Piece::Text(text));
    }
    Ok(pieces)
}

/// The conversion starting at the `%` at `start`, and where the text
/// after it starts.
fn directive(format: &[u8], start: usize) -> Result<(Directive, usize), FormatError> {
    let err = |message: String| FormatError { at: start, message };
    let mut i = start + 1;
    let mut flags = Flags::default();
    while let Some(&c) = format.get(i) {
        match c {
            b'-' => flags.left = true,
            b'+' => flags.plus = true,
            b' ' => flags.space = true,
            b'#' => flags.alt = true,
            b'0' => flags.zero = true,
            _ => break,
        }
        i += 1;
    }
    if format.get(i) == Some(&b'*') {
        return Err(err("a width given by an argument (`*`)".into()));
    }
    let (width, j) = number(format, i).map_err(err)?;
    i = j;
    let mut precision = None;
    if format.get(i) == Some(&b'.') {
        if format.get(i + 1) == Some(&b'*') {
            return Err(err("a precision given by an argument (`.*`)".into()));
        }
        let (p, j) = number(format, i + 1).map_err(err)?;
        precision = Some(p.unwrap_or(0));
        i = j;
    }
    let (length, j) = match (format.get(i), format.get(i + 1)) {
        (Some(b'h'), Some(b'h')) => (Length::Char, i + 2),
        (Some(b'h'), _) => (Length::Short, i + 1),
        (Some(b'l'), Some(b'l')) => (Length::LongLong, i + 2),
        (Some(b'l'), _) => (Length::Long, i + 1),
        (Some(b'z'), _) => (Length::Size, i + 1),
        (Some(b'j'), _) => (Length::Max, i + 1),
        (Some(b't'), _) => (Length::Ptrdiff, i + 1),
        (Some(b'L'), _) => (Length::LongDouble, i + 1),
        _ => (Length::Default, i),
    };
    i = j;
    let Some(&c) = format.get(i) else {
        return Err(err("a `%` at the end of the format".into()));
    };
    let conv = match c {
        b'd' | b'i' => Conv::Signed,
        b'u' => Conv::Unsigned,
        b'o' => Conv::Octal,
        b'x' => Conv::Hex,
        b'X' => Conv::HexUpper,
        b'c' => Conv::Char,
        b's' => Conv::Str,
        b'p' => Conv::Pointer,
        b'f' | b'F' => Conv::Float(FloatStyle::Fixed, c == b'F'),
        b'e' | b'E' => Conv::Float(FloatStyle::Exp, c == b'E'),
        b'g' | b'G' => Conv::Float(FloatStyle::General, c == b'G'),
        other => {
            let shown = char::from(other);
            return Err(err(if other.is_ascii_graphic() {
                format!("the conversion `%{shown}`")
            } else {
                "a conversion without its letter".into()
            }));
        }
    };
    if matches!(conv, Conv::Char | Conv::Str | Conv::Pointer) && length != Length::Default {
        return Err(err(format!(
            "a length modifier on `%{}` (wide characters)",
            char::from(c)
        )));
    }
    let floating = matches!(conv, Conv::Float(..));
    if floating && !matches!(length, Length::Default | Length::Long | Length::LongDouble) {
        return Err(err(format!(
            "an integer length modifier on `%{}`",
            char::from(c)
        )));
    }
    if !floating && length == Length::LongDouble {
        return Err(err(format!("`L` on `%{}`", char::from(c))));
    }
    let spec = Spec {
        flags,
        width,
        precision,
        conv,
    };
    Ok((Directive { spec, length }, i + 1))
}

/// A decimal number at `i`, if there is one, and where it ends.
fn number(format: &[u8], mut i: usize) -> Result<(Option<u32>, usize), String> {
    let mut n: Option<u32> = None;
    while let Some(&c) = format.get(i).filter(|c| c.is_ascii_digit()) {
        let v = n
            .unwrap_or(0)
            .saturating_mul(10)
            .saturating_add(u32::from(c - b'0'));
        n = Some(v);
        i += 1;
    }
    match n {
        Some(v) if v > MAX_WIDTH => Err(format!(
            "a width or precision of {v} (at most {MAX_WIDTH} are written)"
        )),
        _ => Ok((n, i)),
    }
}

fn clamp(v: Option<u32>) -> Option<usize> {
    v.map(|v| v.min(MAX_WIDTH) as usize)
}

/// Writes `body` (with its `prefix`: sign, `0x`) padded to `spec`'s
/// width: spaces on the left, spaces on the right (`-`), or zeros
/// between the prefix and the body (`0`, when `zeros`).
fn pad(spec: &Spec, prefix: &[u8], body: &[u8], zeros: bool, out: &mut Vec<u8>) {
    let width = clamp(spec.width).unwrap_or(0);
    let fill = width.saturating_sub(prefix.len() + body.len());
    if spec.flags.left {
        out.extend_from_slice(prefix);
        out.extend_from_slice(body);
        out.resize(out.len() + fill, b' ');
    } else if zeros {
        out.extend_from_slice(prefix);
        out.resize(out.len() + fill, b'0');
        out.extend_from_slice(body);
    } else {
        out.resize(out.len() + fill, b' ');
        out.extend_from_slice(prefix);
        out.extend_from_slice(body);
    }
}

/// Writes the integer `v` under an integer, character or pointer
/// conversion (a `%s` writes `v` as `%d` would). `v` is already a value
/// of the conversion's type: a negative `v` under `%u`, `%o`, `%x` is
/// written as its magnitude with a `-`, which no converted value has.
pub fn format_int(spec: &Spec, v: &Int, out: &mut Vec<u8>) {
    let radix = match spec.conv {
        Conv::Char => {
            let byte = v.low_bits(8) as u8;
            return format_bytes(
                &Spec {
                    precision: None,
                    ..*spec
                },
                &[byte],
                out,
            );
        }
        Conv::Pointer if v.is_zero() => {
            let nil = Spec {
                precision: None,
                ..*spec
            };
            return format_bytes(&nil, b"(nil)", out);
        }
        Conv::Signed | Conv::Unsigned | Conv::Str | Conv::Float(..) => 10,
        Conv::Octal => 8,
        Conv::Hex | Conv::HexUpper | Conv::Pointer => 16,
    };
    let magnitude = v.abs().to_bigint();
    let mut digits = magnitude.to_str_radix(radix).into_bytes();
    if spec.conv == Conv::HexUpper {
        digits.make_ascii_uppercase();
    }
    if spec.precision == Some(0) && v.is_zero() {
        digits.clear();
    }
    if let Some(p) = clamp(spec.precision) {
        if digits.len() < p {
            let mut padded = vec![b'0'; p - digits.len()];
            padded.append(&mut digits);
            digits = padded;
        }
    }
    if spec.conv == Conv::Octal && spec.flags.alt && digits.first() != Some(&b'0') {
        digits.insert(0, b'0');
    }
    let mut prefix: Vec<u8> = Vec::new();
    let signed = matches!(spec.conv, Conv::Signed | Conv::Str | Conv::Pointer);
    // A pointer is written by its magnitude: wiser's pointers are
    // numbers of its own model (`wiser_ir::pointer`), not addresses.
    if v.is_negative() && spec.conv != Conv::Pointer {
        prefix.push(b'-');
    } else if signed && spec.flags.plus {
        prefix.push(b'+');
    } else if signed && spec.flags.space {
        prefix.push(b' ');
    }
    let alt_hex = spec.conv == Conv::Pointer
        || (spec.flags.alt && matches!(spec.conv, Conv::Hex | Conv::HexUpper) && !v.is_zero());
    if alt_hex {
        prefix.extend_from_slice(if spec.conv == Conv::HexUpper {
            b"0X"
        } else {
            b"0x"
        });
    }
    let zeros = spec.flags.zero && !spec.flags.left && spec.precision.is_none();
    pad(spec, &prefix, &digits, zeros, out);
}

/// Writes the `double` `x` under a floating conversion, as glibc does:
/// exactly rounded decimal digits (ties of the exact binary value to
/// even), `inf` and `nan` (`-nan` for a NaN whose sign bit is set), the
/// flags, the width and the precision (6 by default).
pub fn format_float(spec: &Spec, x: f64, out: &mut Vec<u8>) {
    let Conv::Float(style, upper) = spec.conv else {
        return format_int(spec, &Int::from(x as i64), out);
    };
    let precision = clamp(spec.precision).unwrap_or(6);
    let alt = spec.flags.alt;
    let mut body = if x.is_nan() {
        "nan".to_string()
    } else if x.is_infinite() {
        "inf".to_string()
    } else {
        let a = x.abs();
        match style {
            FloatStyle::Fixed => fixed(a, precision, alt),
            FloatStyle::Exp => exponential(a, precision, alt),
            FloatStyle::General => general(a, precision, alt),
        }
    };
    if upper {
        body.make_ascii_uppercase();
    }
    let prefix: &[u8] = if x.is_sign_negative() {
        b"-"
    } else if spec.flags.plus {
        b"+"
    } else if spec.flags.space {
        b" "
    } else {
        b""
    };
    let zeros = spec.flags.zero && !spec.flags.left && x.is_finite();
    pad(spec, prefix, body.as_bytes(), zeros, out);
}

/// `%f` of a non-negative finite `a`.
fn fixed(a: f64, precision: usize, alt: bool) -> String {
    let mut s = format!("{a:.precision$}");
    if precision == 0 && alt {
        s.push('.');
    }
    s
}

/// `%e` of a non-negative finite `a`: Rust writes `1.5e-7`, C
/// `1.5e-07` (a sign and at least two digits).
fn exponential(a: f64, precision: usize, alt: bool) -> String {
    let s = format!("{a:.precision$e}");
    let (mantissa, exp) = s.split_once('e').unwrap_or((&s, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let dot = if precision == 0 && alt { "." } else { "" };
    let sign = if exp < 0 { '-' } else { '+' };
    format!("{mantissa}{dot}e{sign}{:02}", exp.abs())
}

/// `%g` of a non-negative finite `a` (C11 §7.21.6.1:8): with `P` the
/// precision (1 if 0) and `X` the exponent `%e` would write, `%f` with
/// precision `P - 1 - X` if `P > X >= -4`, else `%e` with `P - 1`; then,
/// without `#`, no trailing zeros and no trailing point.
fn general(a: f64, precision: usize, alt: bool) -> String {
    let p = precision.max(1);
    let e = format!("{a:.prec$e}", prec = p - 1);
    let x: i64 = e
        .split_once('e')
        .and_then(|(_, x)| x.parse().ok())
        .unwrap_or(0);
    let mut s = if (p as i64) > x && x >= -4 {
        fixed(a, (p as i64 - 1 - x) as usize, alt)
    } else {
        exponential(a, p - 1, alt)
    };
    if !alt {
        let (num, exp) = match s.find('e') {
            Some(i) => (s[..i].to_string(), s[i..].to_string()),
            None => (s.clone(), String::new()),
        };
        let num = if num.contains('.') {
            num.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            num
        };
        s = num + &exp;
    }
    s
}

/// Writes the bytes `s` under `%s` (at most the precision's count of
/// them) or `%c`, padded to the width with spaces.
pub fn format_bytes(spec: &Spec, s: &[u8], out: &mut Vec<u8>) {
    let n = clamp(spec.precision).map_or(s.len(), |p| p.min(s.len()));
    pad(spec, b"", &s[..n], false, out);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `format` with one integer argument, as printf would write it.
    fn int(format: &str, v: i64) -> String {
        let pieces = parse(format.as_bytes()).expect("a format");
        let mut out = Vec::new();
        for p in pieces {
            match p {
                Piece::Text(t) => out.extend(t),
                Piece::Conv(d) => format_int(&d.spec, &Int::from(v), &mut out),
            }
        }
        String::from_utf8(out).expect("ASCII")
    }

    fn string(format: &str, s: &str) -> String {
        let Ok(pieces) = parse(format.as_bytes()) else {
            panic!("not a format: {format}")
        };
        let mut out = Vec::new();
        for p in pieces {
            match p {
                Piece::Text(t) => out.extend(t),
                Piece::Conv(d) => format_bytes(&d.spec, s.as_bytes(), &mut out),
            }
        }
        String::from_utf8(out).expect("ASCII")
    }

    #[test]
    fn decimals_as_printf_writes_them() {
        assert_eq!(int("%d", 0), "0");
        assert_eq!(int("%d", -17), "-17");
        assert_eq!(int("%5d|", 42), "   42|");
        assert_eq!(int("%-5d|", 42), "42   |");
        assert_eq!(int("%05d", -42), "-0042");
        assert_eq!(int("%+d", 5), "+5");
        assert_eq!(int("% d", 5), " 5");
        assert_eq!(int("%+ d", 5), "+5");
        assert_eq!(int("%.3d", 7), "007");
        assert_eq!(int("%08.3d", 7), "     007");
        assert_eq!(int("%.0d|", 0), "|");
        assert_eq!(int("%5.0d|", 0), "     |");
        assert_eq!(int("%-03d|", 1), "1  |");
        assert_eq!(int("%u", 4294967295), "4294967295");
        assert_eq!(int("%+u", 3), "3");
        assert_eq!(int("%ld", i64::MIN), "-9223372036854775808");
    }

    #[test]
    fn other_bases() {
        assert_eq!(int("%x", 255), "ff");
        assert_eq!(int("%X", 255), "FF");
        assert_eq!(int("%#x", 255), "0xff");
        assert_eq!(int("%#X", 255), "0XFF");
        assert_eq!(int("%#x", 0), "0");
        assert_eq!(int("%02x", 5), "05");
        assert_eq!(int("%#06x", 5), "0x0005");
        assert_eq!(int("%o", 8), "10");
        assert_eq!(int("%#o", 8), "010");
        assert_eq!(int("%#o", 0), "0");
        assert_eq!(int("%#.3o", 8), "010");
        assert_eq!(int("%x", 4294967295), "ffffffff");
    }

    #[test]
    fn characters_pointers_and_strings() {
        assert_eq!(int("%c", 65), "A");
        assert_eq!(int("[%3c]", 65), "[  A]");
        assert_eq!(int("[%-3c]", 65), "[A  ]");
        assert_eq!(int("%c", 256 + 66), "B");
        assert_eq!(int("%p", 0), "(nil)");
        assert_eq!(int("%8p|", 0), "   (nil)|");
        assert_eq!(int("%p", 4096), "0x1000");
        assert_eq!(string("%s!", "hi"), "hi!");
        assert_eq!(string("[%5s]", "hi"), "[   hi]");
        assert_eq!(string("[%-5s]", "hi"), "[hi   ]");
        assert_eq!(string("[%.1s]", "hi"), "[h]");
        assert_eq!(string("[%05s]", "hi"), "[   hi]");
    }

    #[test]
    fn format_strings() {
        assert_eq!(int("100%% sure: %d%%", 3), "100% sure: 3%");
        let p = parse(b"%lld %hhu %zx %lu").expect("a format");
        let lengths: Vec<Length> = p
            .iter()
            .filter_map(|p| match p {
                Piece::Conv(d) => Some(d.length),
                Piece::Text(_) => None,
            })
            .collect();
        assert_eq!(
            lengths,
            [Length::LongLong, Length::Char, Length::Size, Length::Long]
        );
        for bad in [
            "%a",
            "%hf",
            "%Ld",
            "%n",
            "%",
            "%5",
            "%*d",
            "%.*d",
            "%ls",
            "%99999999d",
            "%\u{1}",
        ] {
            assert!(parse(bad.as_bytes()).is_err(), "{bad} was read");
        }
        assert_eq!(parse(b"").expect("empty"), []);
    }

    /// `format` with one `double`, as glibc's printf writes it (each
    /// expectation printed by glibc 2.36).
    fn float(format: &str, x: f64) -> String {
        let pieces = parse(format.as_bytes()).expect("a format");
        let mut out = Vec::new();
        for p in pieces {
            match p {
                Piece::Text(t) => out.extend(t),
                Piece::Conv(d) => format_float(&d.spec, x, &mut out),
            }
        }
        String::from_utf8(out).expect("ASCII")
    }

    #[test]
    fn floats_as_glibc_writes_them() {
        assert_eq!(float("%f", 4.1), "4.100000");
        assert_eq!(float("%.3f", 3.5), "3.500");
        assert_eq!(float("%.0f", 0.5), "0");
        assert_eq!(float("%.0f", 2.5), "2");
        assert_eq!(float("%#.0f", 3.0), "3.");
        assert_eq!(float("%e", 2.0), "2.000000e+00");
        assert_eq!(float("%.2e", 12345.678), "1.23e+04");
        assert_eq!(float("%E", 1e-300), "1.000000E-300");
        assert_eq!(float("%g", 3.0), "3");
        assert_eq!(float("%g", 0.0001), "0.0001");
        assert_eq!(float("%g", 0.00001), "1e-05");
        assert_eq!(float("%g", 123456789.0), "1.23457e+08");
        assert_eq!(float("%g", 100000.0), "100000");
        assert_eq!(float("%g", 1e6), "1e+06");
        assert_eq!(float("%#g", 3.0), "3.00000");
        assert_eq!(float("%G", 1e-10), "1E-10");
        assert_eq!(float("%8.2f|", -1.5), "   -1.50|");
        assert_eq!(float("%-8.2f|", 1.5), "1.50    |");
        assert_eq!(float("%08.2f", -1.5), "-0001.50");
        assert_eq!(float("%+f", 1.0), "+1.000000");
        assert_eq!(float("% f", 1.0), " 1.000000");
        assert_eq!(float("%f", -0.0), "-0.000000");
        assert_eq!(float("%f", f64::INFINITY), "inf");
        assert_eq!(float("%05f", f64::NEG_INFINITY), " -inf");
        assert_eq!(float("%F", f64::NAN), "NAN");
        assert_eq!(float("%g", f64::NAN), "nan");
        assert_eq!(float("%.1f", 0.25), "0.2");
        assert_eq!(float("%.1f", 0.35), "0.3");
        assert_eq!(float("%f", 1e20), "100000000000000000000.000000");
        assert_eq!(float("%lf", 1.0), "1.000000");
    }
}
