//! Property tests on well-typed programs: random programs over variables
//! of every type, built so that they obey the typing rules, must compile
//! (the typing rules, the lowering and the IR builder's own type checks
//! agree), and their printed form must compile to the same IR.

use proptest::prelude::*;
use wiser_imp::ast::{BinOp, CmpOp, IntTy};
use wiser_imp::{compile, parse_program};

/// One variable of each type, named after it.
const TYPES: [IntTy; 8] = [
    IntTy::U8,
    IntTy::I8,
    IntTy::U16,
    IntTy::U32,
    IntTy::I32,
    IntTy::U64,
    IntTy::I64,
    IntTy::INT,
];

fn var(k: usize) -> (String, IntTy) {
    let ty = TYPES[k % TYPES.len()];
    (format!("v_{ty}"), ty)
}

/// The shape of an expression; [`make`] gives it a type.
#[derive(Clone, Debug)]
enum Tree {
    Var(usize),
    Lit(i64),
    Neg(Box<Tree>),
    BitNot(Box<Tree>),
    Bin(BinOp, Box<Tree>, Box<Tree>, usize),
    Cast(usize, Box<Tree>),
    Index(Box<Tree>, usize),
}

/// `t` as source of type `ty`, with casts where the rules need them.
fn make(t: &Tree, ty: IntTy) -> String {
    let fixed = !ty.is_unbounded();
    match t {
        Tree::Var(k) => {
            let (name, vty) = var(*k);
            if vty == ty {
                name
            } else {
                format!("{ty}({name})")
            }
        }
        // A literal directly in a cast is an `int`, so any value goes.
        Tree::Lit(v) if fixed => format!("{ty}({v})"),
        Tree::Lit(v) => format!("({v})"),
        Tree::Neg(a) => format!("(-{})", make(a, ty)),
        Tree::BitNot(a) if fixed => format!("(~{})", make(a, ty)),
        Tree::BitNot(a) => format!("(-{})", make(a, ty)),
        Tree::Bin(op, a, b, s) => {
            let op = if op.is_bitwise() && !fixed {
                BinOp::Add
            } else {
                *op
            };
            let rhs = match op {
                BinOp::Shl | BinOp::Shr => make(b, TYPES[s % TYPES.len()]),
                _ => make(b, ty),
            };
            format!("({} {} {rhs})", make(a, ty), op.symbol())
        }
        Tree::Cast(s, a) => format!("{ty}({})", make(a, TYPES[s % TYPES.len()])),
        Tree::Index(i, s) => {
            let elem = format!("arr[{}]", make(i, TYPES[s % TYPES.len()]));
            if ty == IntTy::U16 {
                elem
            } else {
                format!("{ty}({elem})")
            }
        }
    }
}

#[derive(Clone, Debug)]
enum CTree {
    Bool(bool),
    Cmp(CmpOp, Tree, Tree, usize),
    Not(Box<CTree>),
    And(Box<CTree>, Box<CTree>),
    Or(Box<CTree>, Box<CTree>),
}

fn make_cond(c: &CTree) -> String {
    match c {
        CTree::Bool(b) => b.to_string(),
        CTree::Cmp(op, a, b, s) => {
            let ty = TYPES[s % TYPES.len()];
            format!("{} {} {}", make(a, ty), op.symbol(), make(b, ty))
        }
        CTree::Not(a) => format!("not ({})", make_cond(a)),
        CTree::And(a, b) => format!("({}) and ({})", make_cond(a), make_cond(b)),
        CTree::Or(a, b) => format!("({}) or ({})", make_cond(a), make_cond(b)),
    }
}

#[derive(Clone, Debug)]
enum STree {
    Assign(usize, Tree),
    Literal(usize, i64),
    Havoc(usize),
    Redeclare(usize, Tree),
    Store(Tree, Tree, usize),
    If(CTree, Vec<STree>, Vec<STree>),
    While(CTree, Vec<STree>),
    Assert(CTree),
    Assume(CTree),
    Call(Option<usize>, Tree, Tree),
}

fn make_block(ss: &[STree]) -> String {
    if ss.is_empty() {
        return "skip".into();
    }
    ss.iter().map(make_stmt).collect::<Vec<_>>().join(";\n")
}

fn make_stmt(s: &STree) -> String {
    match s {
        STree::Assign(k, e) => {
            let (name, ty) = var(*k);
            format!("{name} = {}", make(e, ty))
        }
        STree::Literal(k, v) => {
            let (name, ty) = var(*k);
            format!("{name} = {}", ty.wrap(&(*v).into()))
        }
        STree::Havoc(k) => format!("{} = *", var(*k).0),
        STree::Redeclare(k, e) => {
            let (name, ty) = var(*k);
            format!("{name}: {ty} = {}", make(e, ty))
        }
        STree::Store(i, e, s) => format!(
            "arr[{}] = {}",
            make(i, TYPES[s % TYPES.len()]),
            make(e, IntTy::U16)
        ),
        STree::If(c, a, b) => format!(
            "if {} then {} else {} fi",
            make_cond(c),
            make_block(a),
            make_block(b)
        ),
        STree::While(c, body) => format!("while {} do {} od", make_cond(c), make_block(body)),
        STree::Assert(c) => format!("assert {}", make_cond(c)),
        STree::Assume(c) => format!("assume {}", make_cond(c)),
        STree::Call(target, a, b) => {
            let call = format!("f({}, {})", make(a, IntTy::U8), make(b, IntTy::I32));
            // The result, a `u16`, converts losslessly to these.
            const WIDER: [usize; 6] = [2, 3, 4, 5, 6, 7];
            match target {
                Some(k) => format!("{} = {call}", var(WIDER[k % WIDER.len()]).0),
                None => call,
            }
        }
    }
}

fn tree() -> impl Strategy<Value = Tree> {
    let ops = proptest::sample::select(
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
    let leaf = prop_oneof![
        (0..TYPES.len()).prop_map(Tree::Var),
        any::<i64>().prop_map(Tree::Lit),
        (-3i64..300).prop_map(Tree::Lit),
    ];
    leaf.prop_recursive(4, 24, 2, move |inner| {
        prop_oneof![
            inner.clone().prop_map(|a| Tree::Neg(Box::new(a))),
            inner.clone().prop_map(|a| Tree::BitNot(Box::new(a))),
            (ops.clone(), inner.clone(), inner.clone(), 0..TYPES.len())
                .prop_map(|(op, a, b, s)| Tree::Bin(op, Box::new(a), Box::new(b), s)),
            (0..TYPES.len(), inner.clone()).prop_map(|(s, a)| Tree::Cast(s, Box::new(a))),
            (inner, 0..TYPES.len()).prop_map(|(i, s)| Tree::Index(Box::new(i), s)),
        ]
    })
}

fn cond() -> impl Strategy<Value = CTree> {
    let cmp = proptest::sample::select(&CmpOp::ALL[..]);
    let leaf = prop_oneof![
        any::<bool>().prop_map(CTree::Bool),
        (cmp, tree(), tree(), 0..TYPES.len()).prop_map(|(op, a, b, s)| CTree::Cmp(op, a, b, s)),
    ];
    leaf.prop_recursive(2, 6, 2, |inner| {
        prop_oneof![
            inner.clone().prop_map(|a| CTree::Not(Box::new(a))),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| CTree::And(Box::new(a), Box::new(b))),
            (inner.clone(), inner).prop_map(|(a, b)| CTree::Or(Box::new(a), Box::new(b))),
        ]
    })
}

fn stmt() -> impl Strategy<Value = STree> {
    let leaf = prop_oneof![
        (0..TYPES.len(), tree()).prop_map(|(k, e)| STree::Assign(k, e)),
        (0..TYPES.len(), any::<i64>()).prop_map(|(k, v)| STree::Literal(k, v)),
        (0..TYPES.len()).prop_map(STree::Havoc),
        (0..TYPES.len(), tree()).prop_map(|(k, e)| STree::Redeclare(k, e)),
        (tree(), tree(), 0..TYPES.len()).prop_map(|(i, e, s)| STree::Store(i, e, s)),
        cond().prop_map(STree::Assert),
        cond().prop_map(STree::Assume),
        (proptest::option::of(0..TYPES.len()), tree(), tree())
            .prop_map(|(t, a, b)| STree::Call(t, a, b)),
    ];
    leaf.prop_recursive(3, 12, 3, |inner| {
        let block = proptest::collection::vec(inner, 0..3);
        prop_oneof![
            (cond(), block.clone(), block.clone()).prop_map(|(c, a, b)| STree::If(c, a, b)),
            (cond(), block).prop_map(|(c, b)| STree::While(c, b)),
        ]
    })
}

fn program() -> impl Strategy<Value = String> {
    proptest::collection::vec(stmt(), 1..6).prop_map(|body| {
        let mut src = String::from(
            "proc f(p: u8, q: i32) : u16 begin\n\
             r: u16 = u16(p) + u16(q); if q > 0 then return r else skip fi\n\
             end\n",
        );
        for k in 0..TYPES.len() {
            let (name, ty) = var(k);
            src.push_str(&format!("var {name}: {ty} = *;\n"));
        }
        src.push_str("var arr: u16[];\n");
        src.push_str(&make_block(&body));
        src
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn well_typed_programs_compile(src in program()) {
        let ir = compile(&src).unwrap_or_else(|d| {
            panic!("{}\n{src}", wiser_imp::SourceMap::new("gen.imp", src.as_str()).render(&d))
        });
        // The print of the program compiles to the same IR.
        let printed = parse_program(&src).unwrap().to_string();
        let again = compile(&printed).unwrap_or_else(|d| panic!("{}\n{printed}", d.message));
        prop_assert_eq!(ir.to_string(), again.to_string(), "{}", printed);
    }
}
