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
//! * `float.rs`: floating literals, conversions, arithmetic, `math.h`;
//! * `stmt.rs`: statements and control flow;
//! * `call.rs`: calls, and SV-COMP's special functions;
//! * `consts.rs`: constant expressions (array sizes, `case`, `enum`);
//! * `static_type.rs`: the type of an expression without evaluating it;
//! * `fnptr.rs`: function pointers and calls through them.

mod alloc;
mod args;
mod bitfields;
mod bytes;
mod call;
mod consts;
mod decl;
mod declarator;
mod expr;
mod float;
mod fnptr;
mod heap;
mod init;
mod layout;
mod leaks;
mod local_arrays;
mod lvalue;
mod memfns;
mod output;
mod ptr;
mod ptr_type;
mod punned;
mod scan;
mod sprintf;
mod static_type;
mod stmt;
mod strings;
mod structs;
mod thread;
mod union_ptrs;
mod unions;

use crate::preprocess::SpanMap;
use crate::types::{CInt, CType};
use crate::{Compiled, DataModel, NondetFn};
use lang_c::ast;
use lang_c::span::Node;
use std::collections::HashMap;
use wiser_ir::{
    ArrayId, Builder, Diagnostic, ErrorKind, Expr, Label, Place, ProcId, RoutineBuilder, ScalarTy,
    Span,
};

pub use args::{argument_name, command_line_reads, reads_argv, ARGC};

/// The first message of every construct outside the subset.
pub const UNSUPPORTED: &str = "unsupported in C programs";

/// Why a path that ends by `exit` or `abort` while objects `malloc` made
/// are live is not decided under `valid-memtrack` ([`wiser_ir::Ir::undecided`]).
pub const EXIT_WITH_OBJECTS: &str = "the program can end by `exit` or `abort` while objects `malloc` made are live, and wiser does not decide whether a frame still reaches them then";

/// A result whose error is a diagnostic.
pub type Res<T> = Result<T, Diagnostic>;

/// A span in the preprocessed text, as `lang_c` gives it ([`Unit::span`]
/// maps it to a source [`Span`]).
pub type CSpan = lang_c::span::Span;

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
    /// A pointer variable: its place holds a reference (0 is `NULL`);
    /// the pointee type.
    Ptr(Place, CType),
    /// A variable whose address is taken (`&x`): a one-field heap cell
    /// of the variable's type (an integer or a pointer), whose reference
    /// the place holds.
    Cell(Place, CType),
    /// A structure variable: an object of the structure's class, whose
    /// reference the place holds.
    Struct(Place, u32),
    /// A `pthread_mutex_t`: the place holds the reference of its mutex
    /// object.
    Mutex(Place),
    /// An array variable whose elements live in an object (of structures,
    /// of pointers, or of integers declared where an array object of its
    /// own would be shared between executions of the declaration): the
    /// place holds the pointer to its first element, which is what the
    /// array's name is as a value; the element type and the length.
    Block(Place, CType, crate::types::Len),
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
    /// May `malloc`, `calloc` and `realloc` fail (`--malloc-may-fail`)?
    pub malloc_may_fail: bool,
    /// How many allocations may fail (each has a global of its own).
    pub allocation_choices: u32,
    /// How many pointer comparisons may see a freed object's address
    /// reused (each has a global of its own, `alloc::equal_addresses`).
    pub address_choices: u32,
    pub map: &'a SpanMap,
    pub typedefs: HashMap<String, CType>,
    pub globals: HashMap<String, Var>,
    pub funcs: HashMap<String, FuncInfo<'a>>,
    /// Procedures by function and binding of its array and pointer
    /// parameters (an array object, or `None` for a pointer value).
    pub instances: HashMap<(String, Vec<Option<ArrObj>>), ProcId>,
    /// Procedures whose bodies are still to lower.
    pub pending: Vec<(ProcId, String, Vec<Option<ArrObj>>)>,
    /// Thread bodies by function (lowered apart from the function's
    /// calls: a thread body returns nothing).
    pub thread_instances: HashMap<String, ProcId>,
    /// The procedures that are thread bodies.
    pub threads: std::collections::HashSet<ProcId>,
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
    /// Structures, unions' stand-ins and classes (see `heap.rs`).
    pub heap: heap::Heap,
    /// Does the program create threads (`pthread_create`)? Then every
    /// read of shared state is an instruction of its own.
    pub threaded: bool,
    /// The `typedef` names of enumerated types (a bit-field of one is
    /// refused, see [`bitfields::declared`]).
    pub enum_typedefs: std::collections::HashSet<String>,
    /// Does the program call a byte function (`scan::Found::byte_functions`)?
    pub byte_functions: bool,
    /// Does the program free memory (`scan::Found::frees`)?
    pub frees: bool,
    /// Can the program make objects with `malloc` (`scan::Found::allocates`)?
    pub allocates: bool,
    /// Names whose address is taken somewhere (`&x`): such variables live
    /// in heap cells.
    pub addressed: std::collections::HashSet<String>,
    /// The types names' addresses are converted to (`(T *)&x`), by name
    /// ([`punned`]).
    pub punned: HashMap<String, Vec<Node<ast::TypeName>>>,
    /// Names used as values other than through a subscript (see
    /// `scan.rs`): an array of such a name lives in an object.
    pub decays: std::collections::HashSet<String>,
    /// Names that `pthread_create(&t, ...)` stores thread ids into.
    pub thread_ids: std::collections::HashSet<String>,
    /// The spans of the `Havoc`s that are no input when no path reads
    /// their value: an uninitialised scalar local's, and the result of a
    /// function defined nowhere (`printf`'s, say: the call is made for
    /// its effect). Dropped after lowering ([`drop_unread_havocs`]); a
    /// `__VERIFIER_nondet_*()` call is an input even when its value is
    /// dropped, as Test-Comp's tester feeds one value to each call.
    pub droppable_havocs: std::collections::HashSet<Span>,
    /// The members whose value a `Havoc` at an allocation gives, by the
    /// allocation's span and the member's offset (for witnesses: ``member
    /// `b` of the object allocated at 9:19``).
    pub member_reads: HashMap<(Span, u64), String>,
    /// The string literals the program uses as values, and the globals
    /// that hold the pointers to their objects (see `strings.rs`).
    pub strings: Vec<(Vec<u8>, Place)>,
    /// The functions a function pointer may hold, by number: the defined
    /// functions whose name is used as a value, in order of definition;
    /// function `k` (from 0) is the value `k + 1` (0 is `NULL`).
    pub fn_targets: Vec<String>,
}

impl<'a> Unit<'a> {
    /// The span of a node.
    pub fn span(&self, s: CSpan) -> Span {
        self.map.span(s.start, s.end)
    }

    /// An "unsupported" diagnostic.
    pub fn unsupported(&self, s: CSpan, what: &str) -> Diagnostic {
        Diagnostic::new(self.span(s), format!("{UNSUPPORTED}: {what}"))
            .with_help("docs/C.md says which C wiser reads")
    }

    /// A warning, once per message.
    pub fn warn(&mut self, s: CSpan, msg: String) {
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
    pub fn instance(
        &mut self,
        b: &mut Builder,
        name: &str,
        arrays: Vec<Option<ArrObj>>,
    ) -> Res<ProcId> {
        if let Some(p) = self.instances.get(&(name.to_string(), arrays.clone())) {
            return Ok(*p);
        }
        let (params, _) = self.params(name, &arrays);
        // Pointers, and structures (returned as a pointer to a copy), are
        // `int`s.
        let by_pointer = matches!(self.funcs[name].ret, CType::Pointer(_) | CType::Struct(_));
        let ret = self.funcs[name]
            .ret
            .scalar(self.dm)
            .or_else(|| by_pointer.then_some(ScalarTy::INT));
        let info = &self.funcs[name];
        // Every instance carries the function's name: call stacks say
        // where each was called, which tells instances apart.
        let id = b.declare_proc(name, params, ret, info.span);
        self.instances
            .insert((name.to_string(), arrays.clone()), id);
        self.pending.push((id, name.to_string(), arrays));
        Ok(id)
    }

    /// The IR parameters of `name` under a binding of its array and
    /// pointer parameters (integers, and pointers passed as values), and
    /// which of them are references.
    fn params(
        &self,
        name: &str,
        arrays: &[Option<ArrObj>],
    ) -> (Vec<(std::sync::Arc<str>, ScalarTy)>, Vec<u32>) {
        let info = &self.funcs[name];
        let (mut params, mut refs) = (Vec::new(), Vec::new());
        let mut binding = arrays.iter();
        for (i, (pname, ty)) in info.params.iter().enumerate() {
            let n = pname.clone().unwrap_or_else(|| format!("$p{i}"));
            if let Some(t) = ty.scalar(self.dm) {
                params.push((n.into(), t));
            } else if let CType::Struct(_) = ty {
                // A structure passed by value: a pointer to the caller's
                // object, which the callee copies.
                params.push((n.into(), ScalarTy::INT));
            } else if matches!(ty, CType::Array(..) | CType::Pointer(_)) {
                if let Some(None) = binding.next() {
                    refs.push(params.len() as u32);
                    params.push((n.into(), ScalarTy::INT));
                }
            }
        }
        (params, refs)
    }

    /// The thread body of `name`: its pointer parameters are values, and
    /// it returns nothing.
    pub fn thread_instance(&mut self, b: &mut Builder, name: &str) -> Res<ProcId> {
        if let Some(p) = self.thread_instances.get(name) {
            return Ok(*p);
        }
        let n = self.funcs[name]
            .params
            .iter()
            .filter(|(_, t)| matches!(t, CType::Array(..) | CType::Pointer(_)))
            .count();
        let arrays = vec![None; n];
        let (params, _) = self.params(name, &arrays);
        let span = self.funcs[name].span;
        let id = b.declare_proc(name, params, None, span);
        self.thread_instances.insert(name.to_string(), id);
        self.threads.insert(id);
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
    /// The expression or statement entered last: where an implicit
    /// conversion of its value is reported (a float that does not fit an
    /// integer type).
    pub last: CSpan,
    /// Is this a thread body (`pthread_exit` returns from it; `return`
    /// returns no value)?
    pub thread: bool,
    /// The cells of this function's punned variables: their union and
    /// member ([`punned`]).
    pub punned: HashMap<Place, (u32, String)>,
    /// Is this a `__VERIFIER_atomic_*` function (an atomic section from
    /// entry to every return)?
    pub atomic: bool,
    /// The places of the objects of this activation's local structures
    /// and address-taken variables: their lifetime ends when it returns
    /// ([`stmt::end_lifetimes`]), so a pointer to one that outlives the
    /// call dangles.
    pub objects: Vec<Place>,
}

/// The deepest nesting of expressions and statements the lowering
/// accepts: it recurses over the syntax tree, and a bound keeps every
/// input within its stack.
pub const MAX_NESTING: u32 = 2_000;

impl<'u, 'a, 'b> Fun<'u, 'a, 'b> {
    /// The span of a node.
    pub fn span(&self, s: CSpan) -> Span {
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

    /// Lowers a two-way choice on `cond`: `then` lowers one side, `otherwise`
    /// the other, and both go on after the choice.
    pub fn if_else(
        &mut self,
        cond: Expr,
        span: Span,
        then: impl FnOnce(&mut Self) -> Res<()>,
        otherwise: impl FnOnce(&mut Self) -> Res<()>,
    ) -> Res<()> {
        let (t, e, end) = (self.rb.label(), self.rb.label(), self.rb.label());
        self.rb.branch(cond, t, e, span);
        self.rb.bind(t);
        then(self)?;
        self.rb.jump(end);
        self.rb.bind(e);
        otherwise(self)?;
        self.rb.bind(end);
        Ok(())
    }

    /// Goes one level deeper into the syntax tree.
    pub fn enter(&mut self, at: CSpan) -> Res<()> {
        if self.depth >= MAX_NESTING {
            return Err(Diagnostic::new(
                self.span(at),
                format!("the program is nested more than {MAX_NESTING} levels deep here"),
            )
            .with_help("split the expression or the statement"));
        }
        self.depth += 1;
        self.last = at;
        Ok(())
    }

    /// A value read from shared state (a global, an array, a field): in a
    /// threaded program the read is an instruction of its own, so that
    /// the scheduler may switch threads between it and whatever uses the
    /// value (`x = x + 1` on a global is a read, then a write, and can
    /// lose an update). Without threads the value is used in place, as
    /// before.
    pub fn shared(&mut self, v: wiser_ir::Expr, span: Span) -> wiser_ir::Expr {
        if !self.u.threaded {
            return v;
        }
        let t = self.rb.temp(v.ty());
        self.rb.assign(t, v, span);
        self.rb.load(t)
    }

    /// Does evaluating `e` emit instructions (see
    /// [`expr::has_effects`])? In a threaded program a read of shared
    /// state does, so `&&`, `||` and `?:` branch around such operands
    /// instead of hoisting their reads (and checks) out of the guard.
    pub fn effects(&self, e: &Node<ast::Expression>) -> bool {
        expr::has_effects(&e.node) || (self.u.threaded && !thread::local_pure(self, e))
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

/// Lowers a parsed unit. A unit that takes a pointer into a union's
/// member is lowered a second time, knowing which unions are pointed
/// into, so that stores through pointers keep them in step
/// ([`union_ptrs`]); any other is lowered once.
pub fn lower(
    unit: &ast::TranslationUnit,
    map: &SpanMap,
    options: &crate::Options,
) -> Res<Compiled> {
    let (compiled, taken) = lower_pass(unit, map, options, None)?;
    if taken.is_empty() {
        return Ok(compiled);
    }
    Ok(lower_pass(unit, map, options, Some(taken))?.0)
}

/// One lowering of a unit, keeping the unions `sync` in step through
/// pointers (see [`union_ptrs::State::sync`]); also the unions the unit
/// takes pointers into.
fn lower_pass(
    unit: &ast::TranslationUnit,
    map: &SpanMap,
    options: &crate::Options,
    sync: Option<std::collections::BTreeSet<u32>>,
) -> Res<(Compiled, std::collections::BTreeSet<u32>)> {
    let dm = options.data_model;
    let mut u = Unit {
        dm,
        malloc_may_fail: options.malloc_may_fail,
        allocation_choices: 0,
        address_choices: 0,
        map,
        typedefs: HashMap::new(),
        globals: HashMap::new(),
        funcs: HashMap::new(),
        instances: HashMap::new(),
        pending: Vec::new(),
        thread_instances: HashMap::new(),
        threads: Default::default(),
        warnings: Vec::new(),
        nondet_reads: HashMap::new(),
        nondet_fns: Vec::new(),
        global_inits: Vec::new(),
        static_inits: Vec::new(),
        statics: HashMap::new(),
        array_count: 0,
        member_reads: HashMap::new(),
        strings: Vec::new(),
        warned: Default::default(),
        heap: Default::default(),
        threaded: false,
        enum_typedefs: std::collections::HashSet::new(),
        byte_functions: false,
        frees: false,
        allocates: false,
        addressed: Default::default(),
        punned: Default::default(),
        decays: Default::default(),
        thread_ids: Default::default(),
        droppable_havocs: Default::default(),
        fn_targets: Vec::new(),
    };
    u.heap.union_ptrs.sync = sync;
    let found = scan::scan(unit);
    u.threaded = found.threaded;
    u.byte_functions = found.byte_functions;
    u.frees = found.frees;
    u.allocates = found.allocates;
    u.heap.byte_copies = found.byte_copies;
    u.addressed = found.addressed;
    u.punned = found.punned;
    u.decays = found.decays;
    u.thread_ids = found.thread_ids;
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
    u.fn_targets = fnptr::targets(unit, &found.values);
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
    // `main(int argc, char *argv[])`: its parameters are inputs
    // (`args.rs`); a pointer parameter is bound to no array object.
    let main_params: Vec<CType> = u.funcs["main"]
        .params
        .iter()
        .map(|(_, t)| t.clone())
        .collect();
    let pointers = main_params
        .iter()
        .filter(|t| matches!(t, CType::Pointer(_) | CType::Array(..)))
        .map(|_| None)
        .collect();
    let main_proc = u.instance(&mut b, "main", pointers)?;
    // Errors of these kinds may happen in ways the IR does not check.
    let mut unchecked = Vec::new();
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
            last: CSpan::none(),
            thread: false,
            atomic: false,
            objects: Vec::new(),
            punned: HashMap::new(),
        };
        // String literals' objects are made first of all, by code at the
        // end of the routine (only then are they all known: global
        // initialisers use them too).
        let (strings, start, end) = (f.rb.label(), f.rb.label(), f.rb.label());
        f.rb.jump(strings);
        f.rb.bind(start);
        // Objects of globals and static locals (cells, structures,
        // mutexes) exist before any initialiser runs.
        for (place, ty, len) in std::mem::take(&mut f.u.heap.startup) {
            let n = Expr::int(wiser_num::IntTy::INT, wiser_num::Int::from_u64(len));
            heap::allocate(&mut f, place, &ty, n.clone(), true, main_span);
            if len > 1 {
                alloc::zero_all(&mut f, &ty, place, n, main_span);
            }
        }
        let inits = std::mem::take(&mut f.u.global_inits);
        for d in inits {
            decl::run_global_initialiser(&mut f, d)?;
        }
        for (var, init) in std::mem::take(&mut f.u.static_inits) {
            decl::initialise(&mut f, &var, &init, true)?;
        }
        let ret = f.u.funcs["main"].ret.scalar(dm);
        let dst = ret.map(|t| f.rb.temp(t));
        let file = f.u.map.file_name().to_string();
        let read = args::read_parameters(&f.u.funcs["main"], &found.values);
        let args = args::arguments(&mut f, &main_params, &read, &file, main_span)?;
        let roots = leaks::before_main(&mut f, main_span);
        f.rb.call(main_proc, args, dst, main_span);
        if let Some(why) = leaks::check(&mut f, roots, main_span) {
            unchecked.push((ErrorKind::MemoryLeak, why.to_string()));
        }
        f.rb.jump(end);
        f.rb.bind(strings);
        strings::make_all(&mut f, main_span)?;
        f.rb.jump(start);
        f.rb.bind(end);
        f.rb.finish();
    }
    unchecked.extend(u.heap.unchecked());
    let mut ir = b.finish().map_err(|e| match e {
        wiser_ir::IrError::TooLarge { span, message } => Diagnostic::new(span, message),
        other => Diagnostic::new(main_span, other.to_string()),
    })?;
    // A span that is also a `__VERIFIER_nondet_*()` call's (one macro
    // use holding both) keeps its reads.
    let calls: std::collections::HashSet<Span> = u
        .nondet_reads
        .iter()
        .filter(|(_, f)| f.name.starts_with("__VERIFIER_nondet_"))
        .map(|(span, _)| *span)
        .collect();
    u.droppable_havocs.retain(|span| !calls.contains(span));
    drop_unread_havocs(&mut ir, &u.droppable_havocs);
    wiser_ir::accelerate::counting_loops(&mut ir);
    // A function none of whose results is read any more is no input;
    // one that a system header declares, or one of the C library's output
    // functions however declared (`printf`), is then the C library's, and
    // the harness must not define it (its own `<stdio.h>` would
    // conflict). Any other keeps its definition there, or the harness
    // would not link.
    let read_spans: std::collections::HashSet<Span> = ir
        .code
        .iter()
        .filter(|l| matches!(l.instr, wiser_ir::Instr::Havoc { .. }))
        .map(|l| l.span)
        .collect();
    u.nondet_reads.retain(|span, _| read_spans.contains(span));
    let user_file = u.map.file();
    let from_header = |name: &str| {
        call::OUTPUT_ONLY.contains(&name)
            || u.funcs.get(name).is_some_and(|f| f.span.file != user_file)
    };
    let read = |name: &str| u.nondet_reads.values().any(|g| g.name == name);
    u.nondet_fns
        .retain(|f| read(&f.name) || !from_header(&f.name));
    ir.unchecked = unchecked
        .into_iter()
        .map(|(k, why)| (k, why.into()))
        .collect();
    ir.undecided = std::mem::take(&mut u.heap.exit_checks)
        .into_iter()
        .map(|span| (ErrorKind::MemoryLeak, span, EXIT_WITH_OBJECTS.into()))
        .collect();
    let taken = std::mem::take(&mut u.heap.union_ptrs.taken);
    let compiled = Compiled {
        ir,
        warnings: u.warnings,
        nondet_reads: u.nondet_reads,
        member_reads: u.member_reads,
        nondet_fns: u.nondet_fns,
        defines: u
            .funcs
            .iter()
            .filter(|(_, f)| f.def.is_some())
            .map(|(n, _)| n.clone())
            .collect(),
    };
    Ok((compiled, taken))
}

/// Drops the droppable `Havoc`s (by span: an uninitialised local's, an
/// undefined function's result) whose value no path reads: `int i; for
/// (i = 0; ...)` reads nothing from its declaration, nor `printf(...);`
/// from its result, and a witness that listed them as inputs would shift
/// the numbering of the reads that are (the nondeterministic calls'),
/// which `wiser run --reads` and Test-Comp's tester follow.
fn drop_unread_havocs(ir: &mut wiser_ir::Ir, droppable: &std::collections::HashSet<Span>) {
    for pc in wiser_ir::liveness::unread_havocs(ir) {
        let loc = &mut ir.code[pc as usize];
        if let wiser_ir::Instr::Havoc { next, .. } = loc.instr {
            if droppable.contains(&loc.span) {
                loc.instr = wiser_ir::Instr::Skip { next };
            }
        }
    }
}
