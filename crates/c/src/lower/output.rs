//! C's output functions (`printf`, `fprintf`, `puts`, `fputs`,
//! `putchar`, `putc`, `fputc`) as the IR's [`wiser_ir::Instr::Output`]:
//! what the call writes, read from a literal format with
//! `wiser_num::printf`. Output has no effect on verification; its
//! arguments are evaluated, with their checks, in order, as any call's.
//! A call this module cannot read (a format that is not a literal, a
//! conversion outside the integer, character, string and pointer ones, a
//! stream other than `stdout` and `stderr`) writes nothing, with a
//! warning, and its arguments are evaluated as before.

use super::expr::{self, Val};
use super::{heap, ptr, CSpan, Fun, Res, Var};
use crate::types::{CInt, CType, Rank};
use lang_c::ast::{self, Expression as E};
use lang_c::span::Node;
use wiser_ir::{Expr, Part, ScalarTy, Stream};
use wiser_num::printf::{self, Conv, Directive, Length, Piece, Spec};
use wiser_num::{CmpOp, IntTy};

/// Lowers a call of an output function of the C library: `true` when it
/// is one and was lowered (its arguments evaluated, its output
/// written), `false` when the caller should evaluate its arguments as
/// for any function defined nowhere (after the warning this gives).
pub fn call(f: &mut Fun, name: &str, c: &ast::CallExpression, at: CSpan) -> Res<bool> {
    let args = &c.arguments;
    let (stream, rest) = match (name, args.as_slice()) {
        ("printf", [fmt, rest @ ..]) => (Some(Stream::Stdout), (fmt, rest)),
        ("fprintf", [s, fmt, rest @ ..]) => (stream(f, s), (fmt, rest)),
        ("puts", [s]) => return string_call(f, Stream::Stdout, s, b"\n", at),
        ("fputs", [s, to]) => match stream(f, to) {
            Some(st) => return string_call(f, st, s, b"", at),
            None => (None, (s, &[][..])),
        },
        ("putchar", [ch]) => return char_call(f, Stream::Stdout, ch, at),
        ("putc" | "fputc", [ch, to]) => match stream(f, to) {
            Some(st) => return char_call(f, st, ch, at),
            None => (None, (ch, &[][..])),
        },
        _ => return Ok(false),
    };
    let Some(stream) = stream else {
        f.u.warn(
            at,
            format!("`{name}` writes to a stream other than `stdout` or `stderr`: wiser does not print it"),
        );
        return Ok(false);
    };
    let (fmt, values) = rest;
    match parts(f, name, fmt, values, at)? {
        Ok(parts) => {
            let span = f.span(at);
            f.rb.output(stream, parts, span);
            Ok(true)
        }
        Err((span, why)) => {
            f.u.warn(span, format!("{why}: wiser does not print it"));
            Ok(false)
        }
    }
}

/// Why a call's output cannot be read: where, and what.
pub type Unreadable = (CSpan, String);

/// What a call of `name` with the format `fmt` and the arguments `values`
/// writes, as output parts (its arguments evaluated, with their checks, in
/// order; those past the conversions evaluated and ignored, as C does);
/// `Err` (nothing evaluated) when the format is not a literal this module
/// reads or an argument does not fit its conversion.
pub fn parts(
    f: &mut Fun,
    name: &str,
    fmt: &Node<E>,
    values: &[Node<E>],
    at: CSpan,
) -> Res<Result<Vec<Part>, Unreadable>> {
    let E::StringLiteral(lit) = &fmt.node else {
        return Ok(Err((
            fmt.span,
            format!("the format of `{name}` is not a string literal"),
        )));
    };
    let Some(bytes) = super::strings::bytes(&lit.node) else {
        return Ok(Err((
            fmt.span,
            format!("a wide or unreadable format string in `{name}`"),
        )));
    };
    let pieces = match printf::parse(&bytes) {
        Ok(p) => p,
        Err(e) => {
            return Ok(Err((
                fmt.span,
                format!("{} in the format of `{name}`", e.message),
            )))
        }
    };
    let wanted = pieces
        .iter()
        .filter(|p| matches!(p, Piece::Conv(_)))
        .count();
    if values.len() < wanted {
        return Ok(Err((
            at,
            format!(
                "the format of `{name}` has {wanted} conversions and the call {} arguments for them",
                values.len()
            ),
        )));
    }
    let directives: Vec<Directive> = pieces
        .iter()
        .filter_map(|p| match p {
            Piece::Conv(d) => Some(*d),
            Piece::Text(_) => None,
        })
        .collect();
    if let Some((_, a)) = directives.iter().zip(values).find(|(d, a)| !fits(f, d, a)) {
        return Ok(Err((
            a.span,
            format!("this argument does not match its conversion in the format of `{name}`"),
        )));
    }
    let mut parts = Vec::new();
    let mut values_left = values.iter();
    let later_effects = values.iter().skip(1).any(|a| f.effects(a));
    for piece in pieces {
        match piece {
            Piece::Text(t) => parts.push(Part::Text(t)),
            Piece::Conv(d) => {
                if let Some(a) = values_left.next() {
                    parts.push(argument(f, &d, a, later_effects)?);
                }
            }
        }
    }
    for a in values_left {
        expr::effect(f, a)?;
    }
    Ok(Ok(parts))
}

/// `stdout` or `stderr`, as a stream argument names it.
fn stream(f: &Fun, e: &Node<E>) -> Option<Stream> {
    let E::Identifier(id) = &e.node else {
        return None;
    };
    let _ = f;
    match id.node.name.as_str() {
        "stdout" => Some(Stream::Stdout),
        "stderr" => Some(Stream::Stderr),
        _ => None,
    }
}

/// `puts(s)` (with `end` = a newline) and `fputs(s, stream)`.
fn string_call(f: &mut Fun, stream: Stream, s: &Node<E>, end: &[u8], at: CSpan) -> Res<bool> {
    let d = Directive {
        spec: Spec::plain(Conv::Str),
        length: Length::Default,
    };
    if !fits(f, &d, s) {
        f.u.warn(
            s.span,
            "wiser prints only string literals and `char` arrays and pointers here".into(),
        );
        return Ok(false);
    }
    let part = argument(f, &d, s, false)?;
    let span = f.span(at);
    f.rb.output(stream, vec![part, Part::Text(end.to_vec())], span);
    Ok(true)
}

/// `putchar(c)`, `putc(c, stream)`, `fputc(c, stream)`: the character
/// `(unsigned char) c`.
fn char_call(f: &mut Fun, stream: Stream, ch: &Node<E>, at: CSpan) -> Res<bool> {
    let spec = Spec::plain(Conv::Char);
    let d = Directive {
        spec,
        length: Length::Default,
    };
    if !fits(f, &d, ch) {
        f.u.warn(
            ch.span,
            "a pointer or a string where a character is expected: wiser does not print it".into(),
        );
        return Ok(false);
    }
    let part = argument(f, &d, ch, false)?;
    let span = f.span(at);
    f.rb.output(stream, vec![part], span);
    Ok(true)
}

/// The C type an integer conversion converts its argument to.
fn target(d: &Directive) -> CInt {
    let signed = d.spec.conv == Conv::Signed;
    let rank = match d.length {
        Length::Default => Rank::Int,
        Length::Char => Rank::Char,
        Length::Short => Rank::Short,
        Length::Long | Length::Size | Length::Ptrdiff => Rank::Long,
        Length::LongLong | Length::Max | Length::LongDouble => Rank::LongLong,
    };
    match d.spec.conv {
        Conv::Char => CInt::new(Rank::Char, false),
        _ => CInt::new(rank, signed),
    }
}

/// Does the argument's type fit its conversion: an integer for the
/// integer and character conversions, a pointer (or `NULL`) for `%p`, a
/// string literal, a `char` array of one dimension or a `char *` for
/// `%s`? Decided before anything is lowered.
fn fits(f: &Fun, d: &Directive, a: &Node<E>) -> bool {
    let literal = matches!(a.node, E::StringLiteral(_));
    match d.spec.conv {
        Conv::Str => {
            if let E::StringLiteral(lit) = &a.node {
                return super::strings::bytes(&lit.node).is_some();
            }
            if let E::Identifier(id) = &a.node {
                if let Some(Var::Array(obj)) = f.lookup(&id.node.name) {
                    return obj.dims.len() == 1 && obj.elem.rank == Rank::Char;
                }
            }
            // A `char *`, or a `char` array member (`s.name`).
            matches!(
                ptr::type_of_value(f, a),
                Some(CType::Pointer(t) | CType::Array(t, _))
                    if matches!(*t, CType::Int(CInt { rank: Rank::Char, .. }))
            )
        }
        Conv::Pointer => !literal && (ptr::is_pointer(f, a) || ptr::is_null(f, a)),
        // A floating conversion takes a float (a `double` after the
        // default argument promotions); an integer conversion an integer.
        conv => {
            !literal
                && !ptr::is_pointer(f, a)
                && !is_array(f, a)
                && floating(f, a) == matches!(conv, Conv::Float(..))
        }
    }
}

/// Is `a` of a floating type? (When its type cannot be told without
/// lowering it, no: the argument is then lowered as an integer, whose
/// errors say what is wrong.)
fn floating(f: &Fun, a: &Node<E>) -> bool {
    matches!(
        super::expr::static_type(f.u, &|n: &str| f.lookup(n), a),
        Ok(CType::Int(t)) if t.float().is_some()
    )
}

/// Is `e` the name of an array?
fn is_array(f: &Fun, e: &Node<E>) -> bool {
    let E::Identifier(id) = &e.node else {
        return false;
    };
    matches!(f.lookup(&id.node.name), Some(Var::Array(_)))
}

/// The output part of one argument under its conversion (whose type
/// [`fits`]).
fn argument(f: &mut Fun, d: &Directive, a: &Node<E>, hold: bool) -> Res<Part> {
    let span = f.span(a.span);
    match d.spec.conv {
        Conv::Str => string(f, &d.spec, a, hold),
        Conv::Pointer => {
            let p = if ptr::is_pointer(f, a) {
                ptr::pointer(f, a)?.0
            } else {
                ptr::null()
            };
            let p = held(f, p, ScalarTy::INT, hold, span);
            Ok(Part::Int(p, d.spec))
        }
        Conv::Float(..) => {
            // The default argument promotions: a `float` is passed as a
            // `double` (and wiser's `long double` is one).
            let v: Val = expr::rvalue(f, a)?;
            let e = expr::convert(f, v, CInt::DOUBLE);
            let e = held(f, e, CInt::DOUBLE.scalar(f.u.dm), hold, span);
            Ok(Part::Float(e, d.spec))
        }
        _ => {
            let v: Val = expr::rvalue(f, a)?;
            // The default argument promotions, then the conversion's own
            // type (`%hhd` of 300 prints 44, `%u` of -1 4294967295).
            let v = expr::promote(f, v);
            let to = target(d);
            let e = expr::convert(f, v, to);
            let e = held(f, e, to.scalar(f.u.dm), hold, span);
            Ok(Part::Int(e, d.spec))
        }
    }
}

/// `e` in a temporary when later arguments have effects that could
/// change what it reads.
pub(super) fn held(f: &mut Fun, e: Expr, ty: ScalarTy, hold: bool, span: wiser_ir::Span) -> Expr {
    if !hold {
        return e;
    }
    let t = f.rb.temp(ty);
    f.rb.assign(t, e, span);
    f.rb.load(t)
}

/// A `%s` argument (whose type [`fits`]): a string literal's text, a
/// `char` array of one dimension, or a `char *` (the cells it points to,
/// up to a 0).
fn string(f: &mut Fun, spec: &Spec, a: &Node<E>, hold: bool) -> Res<Part> {
    if let E::StringLiteral(lit) = &a.node {
        let bytes = super::strings::bytes(&lit.node).unwrap_or_default();
        let mut text = Vec::new();
        printf::format_bytes(spec, &bytes, &mut text);
        return Ok(Part::Text(text));
    }
    if let E::Identifier(id) = &a.node {
        if let Some(Var::Array(obj)) = f.lookup(&id.node.name) {
            return Ok(Part::Str(obj.id, Expr::int(IntTy::U64, 0), *spec));
        }
    }
    let span = f.span(a.span);
    // Only read: a `char` array member of a union may be printed.
    let (p, pointee) = match super::unions::read_only_pointer(f, a)? {
        Some(read) => read,
        None => ptr::pointer(f, a)?,
    };
    let (array, _) = heap::cell_array(f, &pointee, a.span)?;
    // glibc's `(null)` for a `NULL` (nothing under a shorter precision),
    // from a string object of its own.
    let null_text: &[u8] = match spec.precision {
        Some(p) if p < 6 => b"",
        _ => b"(null)",
    };
    let text = super::strings::object(f, null_text.to_vec());
    let p = held(f, p, ScalarTy::INT, true, span);
    let p = Expr::ite(Expr::cmp(CmpOp::Eq, p.clone(), ptr::null()), text, p);
    let p = held(f, p, ScalarTy::INT, hold, span);
    Ok(Part::Str(array, p, *spec))
}
