//! `main`'s parameters as inputs, as KLEE's `--sym-args` makes them:
//! `argc` is any number from 1 to `1 + MAX_ARGS`, and each argument after
//! the program's name is a string of up to `ARG_LEN` arbitrary bytes (a 0
//! byte ends it early), in an object of its own; `argv` has `argc + 1`
//! elements, the last `NULL`. The bytes and `argc` are reads of the
//! witness, named `argc` and `argv[k][j]`, before the program's own (all
//! `MAX_ARGS` arguments' bytes, whatever `argc`, so that reads keep their
//! numbers); `argv[0]` is the program's file name. The routine branches on
//! `argc` before it makes `argv`, so that on each path every pointer in it
//! is a constant. A third parameter (`envp`) is an empty environment.
//!
//! A pointer parameter that `main`'s body never names (`int main(int
//! argc, char *argv[])` in a program that ignores its command line, as
//! many SV-COMP tasks are written) is a null pointer instead: nothing
//! can read it, and its objects would otherwise cost every path their
//! allocations and keep the Horn-clause prover away from the program
//! (it encodes only objects that every path to a loop has made alike,
//! and `argv` is made one way per `argc`). `argc` is then the only read
//! of the command line.

use super::{heap, layout, strings, Fun, FuncInfo, Res};
use crate::types::{CInt, CType, Rank};
use std::collections::HashSet;
use wiser_frontend::CommandLineError;
use wiser_ir::{Expr, Place, ScalarTy};
use wiser_num::{CmpOp, Int, IntTy};

/// How many arguments after the program's name `argv` may hold.
pub const MAX_ARGS: u64 = 3;

/// How many bytes each argument may have before its terminating 0.
pub const ARG_LEN: u64 = 4;

/// The name of the global a read of `main`'s arguments goes into: the
/// witness names the read after it, without the `$`.
fn read_name(k: u64, j: u64) -> String {
    format!("$argv[{k}][{j}]")
}

/// The name of the choice of the environment that the global `name`
/// holds, with `at` the place of the read: a part of the command line
/// (`argc`, `argv[1][0]`), whether an allocation fails (`malloc at 12:9
/// fails`), or whether a freed object's address is another's (`a freed
/// object's address is reused at 12:9`; see `alloc.rs`).
pub fn argument_name(name: &str, at: impl std::fmt::Display) -> Option<String> {
    let arg = name.strip_prefix('$')?;
    if arg == "argc" || arg.starts_with("argv[") {
        return Some(arg.to_string());
    }
    if arg.starts_with("address reused #") {
        return Some(format!("a freed object's address is reused at {at}"));
    }
    let (function, _) = arg.split_once(" fails #")?;
    Some(format!("{function} at {at} fails"))
}

/// The global that `argc` is read into when `main` takes `argv`: a
/// program with it reads its command line (see [`command_line_reads`]).
pub const ARGC: &str = "$argc";

/// Does the program read the bytes of its command line (is `argv` made,
/// with the global of its first byte)?
pub fn reads_argv(global: &str) -> bool {
    global == read_name(1, 0)
}

/// The reads that give `main` the command line `args` (the words after
/// the program's name), in the order the main routine makes them: `argc`,
/// then, when `bytes` (the program names `argv`), `ARG_LEN` bytes of each
/// of the `MAX_ARGS` arguments (0 past an argument's end and for
/// arguments past `argc`).
pub fn command_line_reads(args: &[Vec<u8>], bytes: bool) -> Result<Vec<Int>, CommandLineError> {
    let shown = |a: &[u8]| a.escape_ascii().to_string();
    if args.len() as u64 > MAX_ARGS {
        return Err(CommandLineError {
            message: format!(
                "{} arguments after the program's name; a C program's `argv` holds at most {MAX_ARGS}",
                args.len()
            ),
            help: format!("give at most {MAX_ARGS} arguments after `--`"),
        });
    }
    let mut reads = vec![Int::from_u64(1 + args.len() as u64)];
    for k in 0..if bytes { MAX_ARGS as usize } else { 0 } {
        let arg = args.get(k).map_or(&[][..], Vec::as_slice);
        if arg.len() as u64 > ARG_LEN {
            return Err(CommandLineError {
                message: format!(
                    "the argument `{}` has {} bytes; each of `argv[1]` to `argv[{MAX_ARGS}]` holds at most {ARG_LEN}",
                    shown(arg),
                    arg.len()
                ),
                help: format!("shorten it to {ARG_LEN} bytes or fewer"),
            });
        }
        for j in 0..ARG_LEN as usize {
            // The reads are of `char`, signed here: a byte over 127 is its
            // negative value, as the program sees it.
            reads.push(Int::from(arg.get(j).map_or(0, |b| i64::from(*b as i8))));
        }
    }
    Ok(reads)
}

/// Per parameter of `main`: may it be read? Only if its name is among
/// the names the program uses as values (`scan::Found::values`, by name
/// across the unit, which only makes more parameters count as read). A
/// parameter without a name is never read.
pub fn read_parameters(main: &FuncInfo, values: &HashSet<String>) -> Vec<bool> {
    main.params
        .iter()
        .map(|(name, _)| name.as_ref().is_some_and(|n| values.contains(n)))
        .collect()
}

/// The values `main` is called with, made by the IR's main routine: its
/// integer parameters are inputs (`argc` bounded as above when `argv`
/// follows it), and its pointer parameters `argv` and `envp`, or null
/// pointers where `read` says the body never names them.
pub fn arguments(
    f: &mut Fun,
    params: &[CType],
    read: &[bool],
    file: &str,
    span: wiser_ir::Span,
) -> Res<Vec<Expr>> {
    let has_argv = params
        .get(1)
        .is_some_and(|t| matches!(t, CType::Pointer(_) | CType::Array(..)));
    let mut out = Vec::new();
    let mut argc = None;
    for (k, ty) in params.iter().enumerate() {
        match ty {
            CType::Int(t) => {
                let name = if k == 0 && has_argv { ARGC.to_string() } else { format!("$main argument {k}") };
                let p = f.rb.program().global(name, t.scalar(f.u.dm), Some(Int::from(0)));
                f.rb.havoc(p, span);
                if k == 0 && has_argv {
                    let ok = Expr::and(
                        Expr::cmp(CmpOp::Ge, f.rb.load(p), Expr::int(t.ir(f.u.dm), 1)),
                        Expr::cmp(CmpOp::Le, f.rb.load(p), Expr::int(t.ir(f.u.dm), Int::from_u64(1 + MAX_ARGS))),
                    );
                    f.rb.assume(ok, span);
                    argc = Some((p, t.ir(f.u.dm)));
                }
                out.push(f.rb.load(p));
            }
            CType::Pointer(_) | CType::Array(..) if !read.get(k).copied().unwrap_or(true) => {
                out.push(super::ptr::null())
            }
            CType::Pointer(_) | CType::Array(..) if k == 1 => out.push(argv(f, argc, file, span)?),
            CType::Pointer(_) | CType::Array(..) => out.push(empty(f, span)?),
            other => {
                return Err(wiser_ir::Diagnostic::new(
                    span,
                    format!("`main` has a parameter of type `{}`", other.describe_in(f)),
                )
                .with_help("`main` takes `(void)`, `(int argc, char **argv)` or `(int argc, char **argv, char **envp)`"))
            }
        }
    }
    Ok(out)
}

/// `argv`: `argc + 1` pointers, the program's name, the arguments, then
/// `NULL`.
fn argv(f: &mut Fun, argc: Option<(Place, IntTy)>, file: &str, span: wiser_ir::Span) -> Res<Expr> {
    let char_t = CType::Int(CInt::new(Rank::Char, true));
    let ptr_t = CType::Pointer(Box::new(char_t.clone()));
    let mut args = Vec::new();
    for k in 1..=MAX_ARGS {
        let s = f.rb.temp(ScalarTy::INT);
        let len = Expr::int(IntTy::INT, Int::from_u64(ARG_LEN + 1));
        heap::allocate(f, s, &char_t, len, false, span);
        for j in 0..ARG_LEN {
            let byte = f.rb.program().global(
                read_name(k, j),
                ScalarTy::Int(IntTy::I8),
                Some(Int::from(0)),
            );
            f.rb.havoc(byte, span);
            let q = layout::plus(f.rb.load(s), j, span);
            heap::store(f, &char_t, q, f.rb.load(byte), span)?;
        }
        let end = layout::plus(f.rb.load(s), ARG_LEN, span);
        heap::store(f, &char_t, end, Expr::int(IntTy::I8, 0), span)?;
        args.push(s);
    }
    let name = strings::object(f, file.as_bytes().to_vec());
    let vec = f.rb.temp(ScalarTy::INT);
    let done = f.rb.label();
    for n in 1..=1 + MAX_ARGS {
        let next = f.rb.label();
        if let Some((c, t)) = argc {
            let this = f.rb.label();
            let is_n = Expr::cmp(CmpOp::Eq, f.rb.load(c), Expr::int(t, Int::from_u64(n)));
            f.rb.branch(is_n, this, next, span);
            f.rb.bind(this);
        }
        let len = Expr::int(IntTy::INT, Int::from_u64(n + 1));
        heap::allocate(f, vec, &ptr_t, len, false, span);
        heap::store(f, &ptr_t, f.rb.load(vec), name.clone(), span)?;
        for (k, s) in args.iter().take(n as usize - 1).enumerate() {
            let slot = layout::plus(f.rb.load(vec), k as u64 + 1, span);
            heap::store(f, &ptr_t, slot, f.rb.load(*s), span)?;
        }
        let last = layout::plus(f.rb.load(vec), n, span);
        heap::store(f, &ptr_t, last, super::ptr::null(), span)?;
        f.rb.jump(done);
        f.rb.bind(next);
        if argc.is_none() {
            break;
        }
    }
    f.rb.bind(done);
    Ok(f.rb.load(vec))
}

/// An empty environment: one `NULL`.
fn empty(f: &mut Fun, span: wiser_ir::Span) -> Res<Expr> {
    let ptr_t = CType::Pointer(Box::new(CType::Int(CInt::new(Rank::Char, true))));
    let vec = f.rb.temp(ScalarTy::INT);
    heap::allocate(f, vec, &ptr_t, Expr::int(IntTy::INT, 1), true, span);
    Ok(f.rb.load(vec))
}
