//! The typed core every front end lowers to and every engine runs.
//!
//! * [`source`]: spans with file ids, source texts, diagnostics;
//! * [`types`]: [`ScalarTy`] (booleans and [`IntTy`] integers: unbounded
//!   or fixed-width) and [`ArrayTy`];
//! * [`ir`]: the program: instructions with explicit successors, typed
//!   postfix code, runtime [`Check`]s;
//! * [`cfg`]: control-flow facts (ranks, join points, loop heads) for
//!   engines that merge states or unwind loops;
//! * [`output`]: program output (`printf`), which only the concrete
//!   interpreter writes;
//! * [`Expr`] and [`Builder`]: how a front end emits a program, with
//!   labels and forward jumps; the checks of every operator come from one
//!   table, [`checks_of`].
//!
//! This crate knows nothing of any source language, of semantics or of
//! solvers.
//!
//! ```
//! use wiser_ir::{Builder, Expr, ScalarTy, Span};
//! use wiser_num::{BinOp, CmpOp, IntTy};
//! // s: u8 = x + 1; assert s > x   (fails when x = 255)
//! let mut b = Builder::new();
//! let mut main = b.begin_main(Span::new(0, 20));
//! let x = main.local("x", ScalarTy::Int(IntTy::U8));
//! main.input(x);
//! let s = main.local("s", ScalarTy::Int(IntTy::U8));
//! let sum = Expr::binary(BinOp::Add, main.load(x), Expr::int(IntTy::U8, 1), Span::new(9, 10));
//! main.assign(s, sum, Span::new(0, 10));
//! main.assert(Expr::cmp(CmpOp::Gt, main.load(s), main.load(x)), Span::new(12, 20));
//! main.finish();
//! let ir = b.finish().unwrap();
//! assert_eq!(ir.inputs.len(), 1);
//! ```
#![warn(missing_docs)]

pub mod accelerate;
mod builder;
mod builder_objects;
pub mod cfg;
mod expr;
pub mod ir;
pub mod liveness;
pub mod output;
pub mod pointer;
mod print;
pub mod source;
pub mod stack;
pub mod types;
mod validate;

pub use builder::{Builder, IrError, Label, RoutineBuilder};
pub use cfg::Cfg;
pub use expr::{checks_of, Checked, Expr, MAX_EXPR_OPS};
pub use ir::{
    Accelerated, ArrayDecl, ArrayId, Check, ClassDecl, ClassId, Code, ErrorKind, Field, Global,
    InputVar, Instr, Ir, Located, Op, Pc, Place, ProcId, Routine, Site, Slot,
};
pub use output::{OutPart, Part, Stream};
pub use print::show;
pub use source::{Diagnostic, FileId, LineCol, SourceMap, Sources, Span};
pub use types::{ArrayTy, ScalarTy};
pub use wiser_num::{BinOp, CmpOp, Int, IntTy, UnOp};
