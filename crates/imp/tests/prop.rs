//! Property tests: no input makes the front end panic, and printing a
//! syntax tree gives source that parses back to the same tree.

use proptest::prelude::*;
use std::sync::Arc;
use wiser_imp::ast::{
    BinOp, CmpOp, Cond, Expr, Ident, Init, IntTy, MacroDef, Param, ProcDef, Program, Stmt, UnOp,
};
use wiser_imp::{analyse, lower, parse_cond, parse_program, Span};
use wiser_num::Int;

fn front_end(src: &str) {
    if let Ok(program) = parse_program(src) {
        if let Ok(checked) = analyse(program) {
            let _ = lower(&checked);
        }
    }
    let _ = parse_cond(src);
}

/// Source made of IMP tokens, so that random input gets past the lexer
/// and exercises the parser and the checker.
fn token_soup() -> impl Strategy<Value = String> {
    const TOKENS: &[&str] = &[
        "skip",
        "fail",
        "if",
        "then",
        "else",
        "fi",
        "while",
        "do",
        "od",
        "assert",
        "assume",
        "macro",
        "proc",
        "begin",
        "end",
        "return",
        "true",
        "false",
        "not",
        "and",
        "or",
        "+",
        "-",
        "*",
        "/",
        "%",
        "(",
        ")",
        "[",
        "]",
        ",",
        ";",
        "=",
        "==",
        "!=",
        "<",
        "<=",
        ">",
        ">=",
        "x",
        "y",
        "a",
        "f",
        "m",
        "0",
        "1",
        "-7",
        "99999999999999999999",
        "~",
        "&",
        "|",
        "^",
        "<<",
        ">>",
        ":",
        "var",
        "u8",
        "i32",
        "int",
        "#c\n",
        "\n",
    ];
    proptest::collection::vec(proptest::sample::select(TOKENS), 0..60).prop_map(|ts| ts.join(" "))
}

proptest! {
    #[test]
    fn arbitrary_strings_do_not_panic(src in ".{0,200}") {
        front_end(&src);
    }

    #[test]
    fn arbitrary_bytes_do_not_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        front_end(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn token_soup_does_not_panic(src in token_soup()) {
        front_end(&src);
    }
}

// ----- random syntax trees ----------------------------------------------------

fn ident(names: &'static [&'static str]) -> impl Strategy<Value = Ident> + Clone {
    proptest::sample::select(names).prop_map(|n| Ident {
        name: Arc::from(n),
        span: Span::default(),
    })
}

// `var`, `int` and `u8` are names too: neither is reserved.
const VARS: &[&str] = &["x", "y", "z", "n", "_t0", "var", "int", "u8"];
const ARRAYS: &[&str] = &["a", "b"];
const CALLEES: &[&str] = &["f", "g", "m"];

fn ty() -> impl Strategy<Value = IntTy> + Clone {
    proptest::sample::select(&IntTy::NAMED[..])
}

fn int() -> impl Strategy<Value = Int> + Clone {
    prop_oneof![
        any::<i64>().prop_map(Int::from),
        (0i64..10).prop_map(Int::from),
        ("[0-9]{19,40}", any::<bool>()).prop_map(|(digits, neg)| {
            let v: Int = digits.parse().unwrap();
            if neg {
                v.neg()
            } else {
                v
            }
        }),
    ]
}

fn expr() -> impl Strategy<Value = Expr> + Clone {
    let leaf = prop_oneof![
        int().prop_map(|value| Expr::Num {
            value,
            span: Span::default()
        }),
        ident(VARS).prop_map(Expr::Var),
    ];
    leaf.prop_recursive(6, 48, 2, |inner| {
        let op = proptest::sample::select(
            &[
                BinOp::Add,
                BinOp::Sub,
                BinOp::Mul,
                BinOp::Div,
                BinOp::Rem,
                BinOp::BitAnd,
                BinOp::BitOr,
                BinOp::BitXor,
                BinOp::Shl,
                BinOp::Shr,
            ][..],
        );
        prop_oneof![
            (ident(ARRAYS), inner.clone()).prop_map(|(array, index)| Expr::Index {
                array,
                index: Box::new(index),
                span: Span::default(),
            }),
            inner.clone().prop_map(|operand| match operand {
                // `-5` is the literal -5, so minus directly on a
                // non-negative literal is never produced by the parser.
                Expr::Num { value, span } if !value.is_negative() => Expr::Num {
                    value: value.neg(),
                    span,
                },
                operand => Expr::Unary {
                    op: UnOp::Neg,
                    operand: Box::new(operand),
                    span: Span::default(),
                },
            }),
            inner.clone().prop_map(|operand| Expr::Unary {
                op: UnOp::BitNot,
                operand: Box::new(operand),
                span: Span::default(),
            }),
            (ty(), inner.clone()).prop_map(|(ty, operand)| Expr::Cast {
                ty: ty.into(),
                operand: Box::new(operand),
                span: Span::default(),
            }),
            (op, inner.clone(), inner).prop_map(|(op, lhs, rhs)| Expr::Binary {
                op,
                lhs: Box::new(lhs),
                rhs: Box::new(rhs),
                span: Span::default(),
                op_span: Span::default(),
            }),
        ]
    })
}

fn cond() -> impl Strategy<Value = Cond> + Clone {
    let cmp = proptest::sample::select(&CmpOp::ALL[..]);
    let leaf = prop_oneof![
        any::<bool>().prop_map(|value| Cond::Bool {
            value,
            span: Span::default()
        }),
        (cmp, expr(), expr()).prop_map(|(op, lhs, rhs)| Cond::Cmp {
            op,
            lhs,
            rhs,
            span: Span::default()
        }),
    ];
    leaf.prop_recursive(4, 16, 2, |inner| {
        prop_oneof![
            inner.clone().prop_map(|c| Cond::Not {
                operand: Box::new(c),
                span: Span::default()
            }),
            (inner.clone(), inner.clone()).prop_map(|(l, r)| Cond::And {
                lhs: Box::new(l),
                rhs: Box::new(r),
                span: Span::default()
            }),
            (inner.clone(), inner).prop_map(|(l, r)| Cond::Or {
                lhs: Box::new(l),
                rhs: Box::new(r),
                span: Span::default()
            }),
        ]
    })
}

/// Joins statements into one, flattening sequences as the parser does.
fn seq(items: Vec<Stmt>) -> Stmt {
    let mut flat: Vec<Stmt> = items
        .into_iter()
        .flat_map(|s| match s {
            Stmt::Seq(v) => v,
            s => vec![s],
        })
        .collect();
    if flat.len() == 1 {
        flat.pop().unwrap()
    } else {
        Stmt::Seq(flat)
    }
}

fn stmt() -> impl Strategy<Value = Stmt> + Clone {
    let sp = Span::default();
    let leaf = prop_oneof![
        Just(Stmt::Skip(sp)),
        Just(Stmt::Fail(sp)),
        (ident(VARS), expr()).prop_map(move |(target, value)| Stmt::Assign {
            target,
            value,
            span: sp
        }),
        ident(VARS).prop_map(move |target| Stmt::Havoc { target, span: sp }),
        (ident(ARRAYS), expr(), expr()).prop_map(move |(array, index, value)| {
            Stmt::ArrayAssign {
                array,
                index,
                value,
                span: sp,
            }
        }),
        cond().prop_map(move |cond| Stmt::Assert { cond, span: sp }),
        cond().prop_map(move |cond| Stmt::Assume { cond, span: sp }),
        (
            proptest::option::of(ident(VARS)),
            ident(CALLEES),
            proptest::collection::vec(expr(), 0..3)
        )
            .prop_map(move |(target, callee, args)| Stmt::Call {
                target,
                callee,
                args,
                span: sp
            }),
        expr().prop_map(move |value| Stmt::Return { value, span: sp }),
        (
            ident(VARS),
            ty(),
            prop_oneof![
                Just(None),
                Just(Some(Init::Havoc)),
                expr().prop_map(|e| Some(Init::Value(e))),
            ]
        )
            .prop_map(move |(target, ty, init)| Stmt::Decl {
                target,
                ty: ty.into(),
                init,
                span: sp
            }),
        (ident(ARRAYS), ty()).prop_map(move |(array, elem)| Stmt::ArrayDecl {
            array,
            elem: elem.into(),
            span: sp
        }),
    ];
    leaf.prop_recursive(4, 24, 3, move |inner| {
        prop_oneof![
            (cond(), inner.clone(), inner.clone()).prop_map(move |(cond, t, e)| Stmt::If {
                cond,
                then_branch: Box::new(t),
                else_branch: Box::new(e),
                span: sp,
            }),
            (cond(), inner.clone()).prop_map(move |(cond, body)| Stmt::While {
                cond,
                body: Box::new(body),
                span: sp
            }),
            proptest::collection::vec(inner, 2..4).prop_map(seq),
        ]
    })
}

type Def = (Ident, Vec<(Ident, IntTy)>, IntTy, Stmt);

/// A definition; types are dropped for macros, which have none.
fn def() -> impl Strategy<Value = Def> {
    let typed = prop_oneof![Just(IntTy::INT), ty()];
    (
        ident(CALLEES),
        proptest::collection::vec((ident(VARS), typed.clone()), 0..3),
        typed,
        stmt(),
    )
}

fn program() -> impl Strategy<Value = Program> {
    (
        proptest::collection::vec(def(), 0..2),
        proptest::collection::vec(def(), 0..2),
        stmt(),
    )
        .prop_map(|(macros, procs, main)| Program {
            macros: macros
                .into_iter()
                .map(|(name, params, _, body)| MacroDef {
                    name,
                    params: params.into_iter().map(|(name, _)| name).collect(),
                    body,
                    span: Span::default(),
                })
                .collect(),
            procs: procs
                .into_iter()
                .map(|(name, params, ret, body)| ProcDef {
                    name,
                    params: params
                        .into_iter()
                        .map(|(name, ty)| Param {
                            name,
                            ty: ty.into(),
                            class: None,
                        })
                        .collect(),
                    ret: ret.into(),
                    ret_class: None,
                    body,
                    span: Span::default(),
                })
                .collect(),
            classes: Vec::new(),
            globals: Vec::new(),
            main,
        })
}

// ----- erasing spans, to compare trees ---------------------------------------

fn no_id(id: &Ident) -> Ident {
    Ident {
        name: id.name.clone(),
        span: Span::default(),
    }
}

fn no_expr(e: &Expr) -> Expr {
    let span = Span::default();
    match e {
        Expr::Num { value, .. } => Expr::Num {
            value: value.clone(),
            span,
        },
        Expr::Var(id) => Expr::Var(no_id(id)),
        Expr::Index { array, index, .. } => Expr::Index {
            array: no_id(array),
            index: Box::new(no_expr(index)),
            span,
        },
        Expr::Unary { op, operand, .. } => Expr::Unary {
            op: *op,
            operand: Box::new(no_expr(operand)),
            span,
        },
        Expr::Cast { ty, operand, .. } => Expr::Cast {
            ty: *ty,
            operand: Box::new(no_expr(operand)),
            span,
        },
        Expr::Binary { op, lhs, rhs, .. } => Expr::Binary {
            op: *op,
            lhs: Box::new(no_expr(lhs)),
            rhs: Box::new(no_expr(rhs)),
            span,
            op_span: span,
        },
        // The generator makes no references.
        other => other.clone(),
    }
}

fn no_cond(c: &Cond) -> Cond {
    let span = Span::default();
    match c {
        Cond::Bool { value, .. } => Cond::Bool {
            value: *value,
            span,
        },
        Cond::Not { operand, .. } => Cond::Not {
            operand: Box::new(no_cond(operand)),
            span,
        },
        Cond::And { lhs, rhs, .. } => Cond::And {
            lhs: Box::new(no_cond(lhs)),
            rhs: Box::new(no_cond(rhs)),
            span,
        },
        Cond::Or { lhs, rhs, .. } => Cond::Or {
            lhs: Box::new(no_cond(lhs)),
            rhs: Box::new(no_cond(rhs)),
            span,
        },
        Cond::Cmp { op, lhs, rhs, .. } => Cond::Cmp {
            op: *op,
            lhs: no_expr(lhs),
            rhs: no_expr(rhs),
            span,
        },
    }
}

fn no_stmt(s: &Stmt) -> Stmt {
    let span = Span::default();
    match s {
        Stmt::Skip(_) => Stmt::Skip(span),
        Stmt::Fail(_) => Stmt::Fail(span),
        Stmt::Assign { target, value, .. } => Stmt::Assign {
            target: no_id(target),
            value: no_expr(value),
            span,
        },
        Stmt::Havoc { target, .. } => Stmt::Havoc {
            target: no_id(target),
            span,
        },
        Stmt::ArrayAssign {
            array,
            index,
            value,
            ..
        } => Stmt::ArrayAssign {
            array: no_id(array),
            index: no_expr(index),
            value: no_expr(value),
            span,
        },
        Stmt::Seq(items) => Stmt::Seq(items.iter().map(no_stmt).collect()),
        Stmt::If {
            cond,
            then_branch,
            else_branch,
            ..
        } => Stmt::If {
            cond: no_cond(cond),
            then_branch: Box::new(no_stmt(then_branch)),
            else_branch: Box::new(no_stmt(else_branch)),
            span,
        },
        Stmt::While { cond, body, .. } => Stmt::While {
            cond: no_cond(cond),
            body: Box::new(no_stmt(body)),
            span,
        },
        Stmt::Assert { cond, .. } => Stmt::Assert {
            cond: no_cond(cond),
            span,
        },
        Stmt::Assume { cond, .. } => Stmt::Assume {
            cond: no_cond(cond),
            span,
        },
        Stmt::Call {
            target,
            callee,
            args,
            ..
        } => Stmt::Call {
            target: target.as_ref().map(no_id),
            callee: no_id(callee),
            args: args.iter().map(no_expr).collect(),
            span,
        },
        Stmt::Return { value, .. } => Stmt::Return {
            value: no_expr(value),
            span,
        },
        Stmt::Decl {
            target, ty, init, ..
        } => Stmt::Decl {
            target: no_id(target),
            ty: *ty,
            init: match init {
                Some(Init::Value(e)) => Some(Init::Value(no_expr(e))),
                other => other.clone(),
            },
            span,
        },
        Stmt::ArrayDecl { array, elem, .. } => Stmt::ArrayDecl {
            array: no_id(array),
            elem: *elem,
            span,
        },
        // The generator makes no objects or threads; tests/objects.rs
        // checks that their syntax prints back.
        other => other.clone(),
    }
}

fn no_program(p: &Program) -> Program {
    Program {
        macros: p
            .macros
            .iter()
            .map(|m| MacroDef {
                name: no_id(&m.name),
                params: m.params.iter().map(no_id).collect(),
                body: no_stmt(&m.body),
                span: Span::default(),
            })
            .collect(),
        procs: p
            .procs
            .iter()
            .map(|d| ProcDef {
                name: no_id(&d.name),
                params: d
                    .params
                    .iter()
                    .map(|p| Param {
                        name: no_id(&p.name),
                        ty: p.ty,
                        class: None,
                    })
                    .collect(),
                ret: d.ret,
                ret_class: None,
                body: no_stmt(&d.body),
                span: Span::default(),
            })
            .collect(),
        classes: Vec::new(),
        globals: Vec::new(),
        main: no_stmt(&p.main),
    }
}

proptest! {
    #[test]
    fn printed_programs_parse_back(program in program()) {
        let text = program.to_string();
        let parsed = parse_program(&text)
            .unwrap_or_else(|d| panic!("{}\n{text}", d.message));
        prop_assert_eq!(no_program(&parsed), no_program(&program), "{}", text);
        prop_assert_eq!(parsed.to_string(), text.clone());
        // The fully parenthesised form parses to the same tree too.
        let full = format!("{program:#}");
        let reparsed = parse_program(&full)
            .unwrap_or_else(|d| panic!("{}\n{full}", d.message));
        prop_assert_eq!(no_program(&reparsed), no_program(&program), "{}", full);
        // Random programs are usually wrong; checking and lowering must
        // not panic.
        if let Ok(checked) = analyse(parsed) {
            let _ = lower(&checked);
        }
    }

    #[test]
    fn printed_conditions_parse_back(c in cond()) {
        let text = c.to_string();
        let parsed = parse_cond(&text).unwrap_or_else(|d| panic!("{}\n{text}", d.message));
        prop_assert_eq!(no_cond(&parsed), no_cond(&c), "{}", text);
        let full = format!("{c:#}");
        let parsed = parse_cond(&full).unwrap_or_else(|d| panic!("{}\n{full}", d.message));
        prop_assert_eq!(no_cond(&parsed), no_cond(&c), "{}", full);
    }
}
