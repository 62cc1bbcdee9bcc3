//! Checking and lowering a parsed C translation unit to the IR.
//!
//! The translation unit is read top to bottom (typedefs, enumerations,
//! globals, function prototypes and definitions). Lowering then starts at
//! `main` and lowers each function the first time it is called, once per
//! binding of its array parameters to array objects: IR arrays are
//! objects of their own, so `void f(int a[])` called with `x` and with `y`
//! becomes two procedures. The IR's main routine zero-initialises the
//! globals (C's static initialisation), runs their initialisers, calls C's
//! `main` and halts.
//!
//! * `decl.rs`: types of declarations, scopes, variables, initialisers;
//! * `expr.rs`: expressions, with C's conversions from [`crate::types`];
//! * `stmt.rs`: statements and control flow;
//! * `call.rs`: calls, and SV-COMP's special functions;
//! * `consts.rs`: constant expressions (array sizes, `case`, `enum`);
//! * `static_type.rs`: the type of an expression without evaluating it.

mod call;
mod consts;
mod decl;
mod expr;
mod static_type;
mod stmt;

use crate::preprocess::SpanMap;
use crate::types::{CInt, CType};
use crate::{Compiled, DataModel, NondetFn};
use lang_c::ast;
use lang_c::span::Node;
use std::collections::HashMap;
use wiser_ir::{
    ArrayId, Builder, Diagnostic, Label, Place, ProcId, RoutineBuilder, ScalarTy, Span,
};

/// The first message of every construct outside the subset.
pub const UNSUPPORTED: &str = "unsupported in C programs";

/// A result whose error is a diagnostic.
pub type Res<T> = Result<T, Diagnostic>;

/// An array object: an IR array and its dimensions, outermost first.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ArrObj {
    /// The IR array.
    pub id: ArrayId,
    /// The element type.
    pub elem: CInt,
    /// Dimensions (constant, or an IR global holding the length).
    pub dims: Vec<Dim>,
}

/// One dimension of an array object.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Dim {
    /// Known length.
    Const(u64),
    /// A variable length, held in an IR global of type `u64`.
    Var(Place),
}

/// What a name stands for.
#[derive(Clone, Debug)]
pub enum Var {
    /// A scalar in a place.
    Scalar(Place, CInt),
    /// An array object.
    Array(ArrObj),
    /// An enumeration constant.
    Const(i64),
}

/// A function as declared, and its definition if there is one.
pub struct FuncInfo<'a> {
    pub ret: CType,
    pub params: Vec<(Option<String>, CType)>,
    pub def: Option<&'a ast::FunctionDefinition>,
    pub span: Span,
}

/// What the whole unit knows while lowering.
pub struct Unit<'a> {
    pub dm: DataModel,
    pub map: &'a SpanMap,
    pub typedefs: HashMap<String, CType>,
    pub globals: HashMap<String, Var>,
    pub funcs: HashMap<String, FuncInfo<'a>>,
    /// Procedures by function and array binding.
    pub instances: HashMap<(String, Vec<ArrObj>), ProcId>,
    /// Procedures whose bodies are still to lower.
    pub pending: Vec<(ProcId, String, Vec<ArrObj>)>,
    /// Functions on a cycle of calls (their local arrays would be shared
    /// between activations).
    pub warnings: Vec<Diagnostic>,
    pub nondet_reads: HashMap<Span, NondetFn>,
    pub nondet_fns: Vec<NondetFn>,
    /// Global initialisers, run by the IR's main routine before `main`.
    pub global_inits: Vec<&'a Node<ast::Declaration>>,
    /// Initialisers of static local arrays, also run before `main`.
    pub static_inits: Vec<(Var, Node<ast::Initializer>)>,
    /// Static locals already allocated, by declaration offset.
    pub statics: HashMap<usize, Var>,
    pub array_count: u32,
    pub warned: std::collections::HashSet<String>,
}

impl<'a> Unit<'a> {
    /// The span of a node.
    pub fn span(&self, s: lang_c::span::Span) -> Span {
        self.map.span(s.start, s.end)
    }

    /// An "unsupported" diagnostic.
    pub fn unsupported(&self, s: lang_c::span::Span, what: &str) -> Diagnostic {
        Diagnostic::new(self.span(s), format!("{UNSUPPORTED}: {what}")).with_help(
            "wiser reads integer C: integer types, arrays, functions and control flow (see docs/C.md)",
        )
    }

    /// A warning, once per message.
    pub fn warn(&mut self, s: lang_c::span::Span, msg: String) {
        if self.warned.insert(msg.clone()) {
            let d = Diagnostic::new(self.span(s), msg);
            self.warnings.push(d);
        }
    }

    /// A nondeterministic function, recorded for the harness.
    pub fn nondet_fn(&mut self, name: &str, ty: CInt) -> NondetFn {
        let f = NondetFn {
            name: name.to_string(),
            c_type: ty.c_name().to_string(),
        };
        if !self.nondet_fns.iter().any(|g| g.name == f.name) {
            self.nondet_fns.push(f.clone());
        }
        f
    }

    /// The procedure of `name` under an array binding, declared on first
    /// use and queued for lowering.
    pub fn instance(&mut self, b: &mut Builder, name: &str, arrays: Vec<ArrObj>) -> Res<ProcId> {
        if let Some(p) = self.instances.get(&(name.to_string(), arrays.clone())) {
            return Ok(*p);
        }
        let info = &self.funcs[name];
        let mut params = Vec::new();
        for (i, (pname, ty)) in info.params.iter().enumerate() {
            if let Some(t) = ty.scalar(self.dm) {
                let n = pname.clone().unwrap_or_else(|| format!("$p{i}"));
                params.push((n.into(), t));
            }
        }
        let ret = info.ret.scalar(self.dm);
        // Every instance carries the function's name: call stacks say
        // where each was called, which tells instances apart.
        let id = b.declare_proc(name, params, ret, info.span);
        self.instances
            .insert((name.to_string(), arrays.clone()), id);
        self.pending.push((id, name.to_string(), arrays));
        Ok(id)
    }
}

/// The state of lowering one function body.
pub struct Fun<'u, 'a, 'b> {
    pub u: &'u mut Unit<'a>,
    pub rb: RoutineBuilder<'b>,
    pub scopes: Vec<HashMap<String, Var>>,
    pub labels: HashMap<String, Label>,
    pub breaks: Vec<Label>,
    pub continues: Vec<Label>,
    pub ret: CType,
    /// The cases of the switch statements being lowered, innermost last:
    /// the label of each `case` (by its offset) and of `default`.
    pub cases: Vec<HashMap<usize, Label>>,
    pub name: String,
    /// How many loops enclose the statement being lowered.
    pub loops: u32,
    /// Does the function contain a `goto` (so that a declaration may run
    /// more than once even outside loops)?
    pub has_goto: bool,
    /// Labels of `goto` bound so far.
    pub bound: Vec<String>,
    /// How deeply the expression or statement being lowered is nested.
    pub depth: u32,
}

/// The deepest nesting of expressions and statements the lowering
/// accepts: it recurses over the syntax tree, and a bound keeps every
/// input within its stack.
pub const MAX_NESTING: u32 = 2_000;

impl<'u, 'a, 'b> Fun<'u, 'a, 'b> {
    /// The span of a node.
    pub fn span(&self, s: lang_c::span::Span) -> Span {
        self.u.span(s)
    }

    /// What `name` stands for here.
    pub fn lookup(&self, name: &str) -> Option<Var> {
        for s in self.scopes.iter().rev() {
            if let Some(v) = s.get(name) {
                return Some(v.clone());
            }
        }
        self.u.globals.get(name).cloned()
    }

    /// Goes one level deeper into the syntax tree.
    pub fn enter(&mut self, at: lang_c::span::Span) -> Res<()> {
        if self.depth >= MAX_NESTING {
            return Err(Diagnostic::new(
                self.span(at),
                format!("the program is nested more than {MAX_NESTING} levels deep here"),
            )
            .with_help("split the expression or the statement"));
        }
        self.depth += 1;
        Ok(())
    }

    /// The label of a `goto` target.
    pub fn goto_label(&mut self, name: &str) -> Label {
        if let Some(l) = self.labels.get(name) {
            return *l;
        }
        let l = self.rb.label();
        self.labels.insert(name.to_string(), l);
        l
    }
}

/// Lowers a parsed unit.
pub fn lower(unit: &ast::TranslationUnit, map: &SpanMap, dm: DataModel) -> Res<Compiled> {
    let mut u = Unit {
        dm,
        map,
        typedefs: HashMap::new(),
        globals: HashMap::new(),
        funcs: HashMap::new(),
        instances: HashMap::new(),
        pending: Vec::new(),
        warnings: Vec::new(),
        nondet_reads: HashMap::new(),
        nondet_fns: Vec::new(),
        global_inits: Vec::new(),
        static_inits: Vec::new(),
        statics: HashMap::new(),
        array_count: 0,
        warned: Default::default(),
    };
    let mut b = Builder::new();
    for ext in &unit.0 {
        match &ext.node {
            ast::ExternalDeclaration::Declaration(d) => {
                decl::global_declaration(&mut u, &mut b, d)?
            }
            ast::ExternalDeclaration::StaticAssert(_) => {}
            ast::ExternalDeclaration::FunctionDefinition(f) => {
                decl::function_definition(&mut u, f)?
            }
        }
    }
    let main_span = match u.funcs.get("main") {
        Some(f) if f.def.is_some() => f.span,
        _ => {
            let file = map.file();
            return Err(Diagnostic::new(
                Span::in_file(file, 0, 0),
                "the program has no `main` function",
            )
            .with_help("wiser starts a C program at `int main(void)`"));
        }
    };
    // `main(int argc, char *argv[])`: integer parameters are inputs;
    // `argv` is not bound (using it is an error).
    let main_ints: Vec<CInt> = u.funcs["main"]
        .params
        .iter()
        .filter_map(|(_, t)| t.int())
        .collect();
    let main_proc = u.instance(&mut b, "main", Vec::new())?;
    // Function bodies first: lowering them finds the static locals whose
    // initialisers the IR's main routine runs.
    while let Some((id, name, arrays)) = u.pending.pop() {
        stmt::function_body(&mut u, &mut b, id, &name, arrays)?;
    }
    {
        let rb = b.begin_main(main_span);
        let mut f = Fun {
            u: &mut u,
            rb,
            scopes: vec![HashMap::new()],
            labels: HashMap::new(),
            breaks: Vec::new(),
            continues: Vec::new(),
            ret: CType::Void,
            cases: Vec::new(),
            name: "main".into(),
            loops: 0,
            has_goto: false,
            bound: Vec::new(),
            depth: 0,
        };
        let inits = std::mem::take(&mut f.u.global_inits);
        for d in inits {
            decl::run_global_initialiser(&mut f, d)?;
        }
        for (var, init) in std::mem::take(&mut f.u.static_inits) {
            decl::initialise(&mut f, &var, &init, true)?;
        }
        let ret = f.u.funcs["main"].ret.scalar(dm);
        let dst = ret.map(|t| f.rb.temp(t));
        let mut args = Vec::new();
        for t in main_ints {
            let p = f.rb.temp(ScalarTy::Int(t.ir(dm)));
            f.rb.havoc(p, main_span);
            args.push(f.rb.load(p));
        }
        f.rb.call(main_proc, args, dst, main_span);
        f.rb.finish();
    }
    let ir = b.finish().map_err(|e| match e {
        wiser_ir::IrError::TooLarge { span, message } => Diagnostic::new(span, message),
        other => Diagnostic::new(main_span, other.to_string()),
    })?;
    Ok(Compiled {
        ir,
        warnings: u.warnings,
        nondet_reads: u.nondet_reads,
        nondet_fns: u.nondet_fns,
        defines: u
            .funcs
            .iter()
            .filter(|(_, f)| f.def.is_some())
            .map(|(n, _)| n.clone())
            .collect(),
    })
}
