//! Statements and function bodies.

use super::{decl, expr, ArrObj, Fun, Res, Unit, Var};
use crate::types::CType;
use lang_c::ast::{self, Statement as S};
use lang_c::span::Node;
use std::collections::HashMap;
use wiser_ir::{Builder, Diagnostic, Expr, Label, ProcId};
use wiser_num::CmpOp;

/// Lowers the body of `name` as procedure `id`, its array parameters
/// bound to `arrays`.
pub fn function_body(
    u: &mut Unit,
    b: &mut Builder,
    id: ProcId,
    name: &str,
    arrays: Vec<Option<ArrObj>>,
) -> Res<()> {
    let info = &u.funcs[name];
    let def = info.def.expect("a defined function");
    let params = info.params.clone();
    let ret = info.ret.clone();
    let thread = u.threads.contains(&id);
    let rb = b.begin_proc(id);
    let mut f = Fun {
        u,
        rb,
        scopes: vec![HashMap::new()],
        labels: HashMap::new(),
        breaks: Vec::new(),
        continues: Vec::new(),
        ret,
        cases: Vec::new(),
        name: name.to_string(),
        loops: 0,
        has_goto: name == "main" && has_goto(&def.statement.node),
        bound: Vec::new(),
        depth: 0,
        last: super::CSpan::none(),
        thread,
        atomic: super::thread::is_atomic_fn(name),
        objects: Vec::new(),
        punned: HashMap::new(),
    };
    let (mut slot, mut arr) = (0u32, arrays.into_iter());
    let entry = f.span(def.statement.span);
    if f.atomic {
        f.rb.atomic(true, entry);
    }
    for (pname, ty) in &params {
        let var = match ty {
            CType::Int(t) => {
                let v = Var::Scalar(f.rb.param(slot), *t);
                slot += 1;
                v
            }
            CType::Array(elem, _) | CType::Pointer(elem) => match arr.next() {
                Some(Some(obj)) => Var::Array(obj),
                Some(None) => {
                    let v = Var::Ptr(f.rb.param(slot), (**elem).clone());
                    slot += 1;
                    v
                }
                // Every call (and `main`'s, `args.rs`) binds each array
                // or pointer parameter.
                None => {
                    return Err(Diagnostic::new(
                        f.span(def.declarator.span),
                        format!(
                        "internal: `{name}` was lowered without a binding of each array parameter"
                    ),
                    ))
                }
            },
            // By value: a fresh object holding a copy of the caller's.
            CType::Struct(i) => {
                let from = f.rb.load(f.rb.param(slot));
                slot += 1;
                let own = f.rb.temp(wiser_ir::ScalarTy::INT);
                super::structs::fresh_copy(&mut f, own, from, *i, def.declarator.span)?;
                f.objects.push(own);
                Var::Struct(own, *i)
            }
            other => {
                return Err(f.u.unsupported(
                    def.declarator.span,
                    &format!("parameters of type `{}`", other.describe_in(&f)),
                ))
            }
        };
        if let Some(n) = pname {
            // A parameter whose address is taken moves to a cell.
            let var = super::decl::to_cell(&mut f, n, var, entry)?;
            f.scopes[0].insert(n.clone(), var);
        }
    }
    statement(&mut f, &def.statement)?;
    if f.rb.is_reachable() {
        let end = f.span(def.statement.span);
        end_lifetimes(&mut f, end);
    }
    if f.atomic && f.rb.is_reachable() {
        let end = f.span(def.statement.span);
        f.rb.atomic(false, end);
    }
    for l in f.labels.keys() {
        if !f.bound.contains(l) {
            return Err(Diagnostic::new(
                f.span(def.statement.span),
                format!("`goto {l}` has no label `{l}` in `{name}`"),
            ));
        }
    }
    f.rb.finish();
    Ok(())
}

/// Ends the lifetime of the objects of the returning activation's locals
/// (`Fun::objects`): they count as freed, so an access through a pointer
/// that outlives the call is caught like a use after free (SV-COMP's
/// `valid-deref`), and `free` of one is an invalid free as before (it is
/// no `malloc`'d object). `main`'s locals outlive every use: nothing runs
/// after it but the leak check. An object whose declaration the path did
/// not reach is `NULL` here, and `$freed[NULL]` is never read (every
/// access checks for `NULL` first).
pub fn end_lifetimes(f: &mut Fun, span: wiser_ir::Span) {
    if f.name == "main" || f.objects.is_empty() {
        return;
    }
    let freed = super::heap::mem(f.u, f.rb.program()).freed;
    for place in f.objects.clone() {
        let obj = wiser_ir::pointer::object(f.rb.load(place), span);
        f.rb.store(freed, obj, Expr::bool(true), span);
    }
}

/// Is this `if (c) ; else __assert_fail(...);`?
fn is_assert_fail(i: &ast::IfStatement) -> bool {
    let empty_then = matches!(i.then_statement.node, S::Expression(None));
    let fails = match i.else_statement.as_deref().map(|s| &s.node) {
        Some(S::Expression(Some(e))) => match &e.node {
            ast::Expression::Call(c) => matches!(
                &c.node.callee.node,
                ast::Expression::Identifier(id) if id.node.name == "__assert_fail"
            ),
            _ => false,
        },
        _ => false,
    };
    empty_then && fails
}

fn has_goto(s: &S) -> bool {
    match s {
        S::Goto(_) => true,
        S::Labeled(l) => has_goto(&l.node.statement.node),
        S::Compound(items) => items.iter().any(|i| match &i.node {
            ast::BlockItem::Statement(s) => has_goto(&s.node),
            _ => false,
        }),
        S::If(i) => {
            has_goto(&i.node.then_statement.node)
                || i.node
                    .else_statement
                    .as_ref()
                    .is_some_and(|e| has_goto(&e.node))
        }
        S::Switch(x) => has_goto(&x.node.statement.node),
        S::While(x) => has_goto(&x.node.statement.node),
        S::DoWhile(x) => has_goto(&x.node.statement.node),
        S::For(x) => has_goto(&x.node.statement.node),
        _ => false,
    }
}

impl Fun<'_, '_, '_> {
    /// Does a declaration here run at most once per run of the program?
    pub fn once(&self) -> bool {
        self.name == "main" && self.loops == 0 && !self.has_goto
    }
}

/// One item of a block.
pub fn block_item(f: &mut Fun, item: &Node<ast::BlockItem>) -> Res<()> {
    match &item.node {
        ast::BlockItem::Declaration(d) => decl::local_declaration(f, d),
        ast::BlockItem::StaticAssert(_) => Ok(()),
        ast::BlockItem::Statement(s) => statement(f, s),
    }
}

fn in_loop(f: &mut Fun, body: &Node<S>, brk: Label, cont: Label) -> Res<()> {
    f.breaks.push(brk);
    f.continues.push(cont);
    f.loops += 1;
    let r = statement(f, body);
    f.loops -= 1;
    f.breaks.pop();
    f.continues.pop();
    r
}

/// One statement.
pub fn statement(f: &mut Fun, s: &Node<S>) -> Res<()> {
    f.enter(s.span)?;
    let r = statement_at(f, s);
    f.depth -= 1;
    r
}

fn statement_at(f: &mut Fun, s: &Node<S>) -> Res<()> {
    let span = f.span(s.span);
    match &s.node {
        S::Compound(items) => {
            f.scopes.push(HashMap::new());
            let r = items.iter().try_for_each(|i| block_item(f, i));
            f.scopes.pop();
            r
        }
        S::Expression(None) => Ok(()),
        S::Expression(Some(e)) => expr::effect(f, e),
        S::If(i) if is_assert_fail(&i.node) => {
            // glibc's `assert(c)`: `if (c) ; else __assert_fail(...);`
            let c = expr::cond(f, &i.node.condition)?;
            f.rb.assert(c, span);
            Ok(())
        }
        S::If(i) => {
            let c = expr::cond(f, &i.node.condition)?;
            let otherwise = |f: &mut Fun| match &i.node.else_statement {
                Some(x) => statement(f, x),
                None => Ok(()),
            };
            f.if_else(c, span, |f| statement(f, &i.node.then_statement), otherwise)
        }
        S::While(w) => {
            let (head, body, end) = (f.rb.label(), f.rb.label(), f.rb.label());
            f.rb.bind(head);
            let c = expr::cond(f, &w.node.expression)?;
            f.rb.branch(c, body, end, span);
            f.rb.bind(body);
            in_loop(f, &w.node.statement, end, head)?;
            f.rb.jump(head);
            f.rb.bind(end);
            Ok(())
        }
        S::DoWhile(w) => {
            let (body, cont, end) = (f.rb.label(), f.rb.label(), f.rb.label());
            f.rb.bind(body);
            in_loop(f, &w.node.statement, end, cont)?;
            f.rb.bind(cont);
            let c = expr::cond(f, &w.node.expression)?;
            f.rb.branch(c, body, end, span);
            f.rb.bind(end);
            Ok(())
        }
        S::For(x) => {
            f.scopes.push(HashMap::new());
            let r = for_loop(f, &x.node, span);
            f.scopes.pop();
            r
        }
        S::Break | S::Continue => {
            let (targets, outside) = match &s.node {
                S::Break => (&f.breaks, "`break` outside a loop or `switch`"),
                _ => (&f.continues, "`continue` outside a loop"),
            };
            let l = *targets
                .last()
                .ok_or_else(|| Diagnostic::new(span, outside))?;
            f.rb.jump(l);
            Ok(())
        }
        S::Return(v) if f.thread => {
            // A thread body returns nothing: the result is never read.
            if let Some(e) = v {
                if !super::ptr::is_null(f, e) {
                    expr::effect(f, e)?;
                }
            }
            if f.atomic {
                f.rb.atomic(false, span);
            }
            f.rb.ret(None, span);
            Ok(())
        }
        S::Return(v) => {
            let value = match (v, f.ret.clone()) {
                (Some(e), CType::Int(t)) => {
                    let v = expr::rvalue(f, e)?;
                    Some(expr::convert(f, v, t))
                }
                (Some(e), CType::Void) => {
                    expr::effect(f, e)?;
                    None
                }
                (None, CType::Int(t)) => {
                    // Falling off with no value: its use would be
                    // undefined; 0 keeps the path going.
                    Some(Expr::int(t.ir(f.u.dm), 0))
                }
                (Some(e), CType::Pointer(t)) => Some(super::ptr::pointer_to(f, e, &t)?),
                // A structure: a pointer to a fresh copy, which outlives
                // the call (the caller copies it where the result goes).
                (Some(e), CType::Struct(i)) => {
                    let (src, si) = super::structs::object(f, e)?;
                    if si != i {
                        return Err(f.u.unsupported(e.span, "returning another structure"));
                    }
                    let copy = f.rb.temp(wiser_ir::ScalarTy::INT);
                    super::structs::fresh_copy(f, copy, src, i, e.span)?;
                    Some(f.rb.load(copy))
                }
                (None, CType::Pointer(_)) => Some(super::ptr::null()),
                (None, _) => None,
                (Some(_), _) => {
                    return Err(f.u.unsupported(s.span, "returning arrays or structures"))
                }
            };
            // The value is computed before the locals' objects end: it
            // may read one.
            let value = match value {
                Some(v) if !f.objects.is_empty() => {
                    let t = f.rb.temp(v.ty());
                    f.rb.assign(t, v, span);
                    Some(f.rb.load(t))
                }
                v => v,
            };
            end_lifetimes(f, span);
            if f.atomic {
                f.rb.atomic(false, span);
            }
            f.rb.ret(value, span);
            Ok(())
        }
        S::Goto(id) => {
            let l = f.goto_label(&id.node.name);
            f.rb.jump(l);
            Ok(())
        }
        S::Labeled(l) => {
            match &l.node.label.node {
                ast::Label::Identifier(id) => {
                    let name = id.node.name.clone();
                    if f.bound.contains(&name) {
                        return Err(Diagnostic::new(
                            span,
                            format!("the label `{name}` is defined twice"),
                        ));
                    }
                    let label = f.goto_label(&name);
                    f.bound.push(name);
                    f.rb.bind(label);
                }
                ast::Label::Case(_) | ast::Label::CaseRange(_) | ast::Label::Default => {
                    let label = f
                        .cases
                        .last()
                        .and_then(|m| m.get(&l.node.label.span.start).copied())
                        .ok_or_else(|| {
                            Diagnostic::new(span, "`case` or `default` outside a `switch`")
                        })?;
                    f.rb.bind(label);
                }
            }
            statement(f, &l.node.statement)
        }
        S::Switch(sw) => switch(f, &sw.node, span),
        S::Asm(_) => Err(f.u.unsupported(s.span, "inline assembly")),
    }
}

fn for_loop(f: &mut Fun, x: &ast::ForStatement, span: wiser_ir::Span) -> Res<()> {
    match &x.initializer.node {
        ast::ForInitializer::Empty | ast::ForInitializer::StaticAssert(_) => {}
        ast::ForInitializer::Expression(e) => expr::effect(f, e)?,
        ast::ForInitializer::Declaration(d) => decl::local_declaration(f, d)?,
    }
    let (head, body, cont, end) = (f.rb.label(), f.rb.label(), f.rb.label(), f.rb.label());
    f.rb.bind(head);
    match &x.condition {
        Some(c) => {
            let c = expr::cond(f, c)?;
            f.rb.branch(c, body, end, span);
        }
        None => f.rb.jump(body),
    }
    f.rb.bind(body);
    in_loop(f, &x.statement, end, cont)?;
    f.rb.bind(cont);
    if let Some(step) = &x.step {
        expr::effect(f, step)?;
    }
    f.rb.jump(head);
    f.rb.bind(end);
    Ok(())
}

/// The `case` and `default` labels of a switch body (not of switches
/// nested in it), in order.
fn collect_cases<'s>(s: &'s Node<S>, out: &mut Vec<&'s Node<ast::Label>>) {
    match &s.node {
        S::Labeled(l) => {
            if !matches!(l.node.label.node, ast::Label::Identifier(_)) {
                out.push(&l.node.label);
            }
            collect_cases(&l.node.statement, out);
        }
        S::Compound(items) => {
            for i in items {
                if let ast::BlockItem::Statement(s) = &i.node {
                    collect_cases(s, out);
                }
            }
        }
        S::If(i) => {
            collect_cases(&i.node.then_statement, out);
            if let Some(e) = &i.node.else_statement {
                collect_cases(e, out);
            }
        }
        S::While(w) => collect_cases(&w.node.statement, out),
        S::DoWhile(w) => collect_cases(&w.node.statement, out),
        S::For(w) => collect_cases(&w.node.statement, out),
        _ => {}
    }
}

fn switch(f: &mut Fun, sw: &ast::SwitchStatement, span: wiser_ir::Span) -> Res<()> {
    let v = expr::rvalue(f, &sw.expression)?;
    let pt = v.1.promote();
    let v = expr::convert(f, v, pt);
    let ty = pt.ir(f.u.dm);
    let tmp = f.rb.temp(wiser_ir::ScalarTy::Int(ty));
    f.rb.assign(tmp, v, span);
    let mut labels = Vec::new();
    collect_cases(&sw.statement, &mut labels);
    let mut map = HashMap::new();
    let end = f.rb.label();
    let mut default = None;
    for l in labels {
        let target = f.rb.label();
        map.insert(l.span.start, target);
        let here = f.span(l.span);
        match &l.node {
            ast::Label::Default => default = Some(target),
            ast::Label::Case(e) => {
                let (c, ct) = super::consts::eval(f.u, &|n: &str| f.lookup(n), e)?;
                let c = super::consts::convert(&c, ct, pt, f.u.dm);
                let next = f.rb.label();
                let k = Expr::cmp(CmpOp::Eq, f.rb.load(tmp), Expr::int(ty, c));
                f.rb.branch(k, target, next, here);
                f.rb.bind(next);
            }
            ast::Label::CaseRange(r) => {
                let (lo, lt) = super::consts::eval(f.u, &|n: &str| f.lookup(n), &r.node.low)?;
                let (hi, ht) = super::consts::eval(f.u, &|n: &str| f.lookup(n), &r.node.high)?;
                let lo = super::consts::convert(&lo, lt, pt, f.u.dm);
                let hi = super::consts::convert(&hi, ht, pt, f.u.dm);
                let next = f.rb.label();
                let k = Expr::and(
                    Expr::cmp(CmpOp::Ge, f.rb.load(tmp), Expr::int(ty, lo)),
                    Expr::cmp(CmpOp::Le, f.rb.load(tmp), Expr::int(ty, hi)),
                );
                f.rb.branch(k, target, next, here);
                f.rb.bind(next);
            }
            ast::Label::Identifier(_) => {}
        }
    }
    f.rb.jump(default.unwrap_or(end));
    f.cases.push(map);
    f.breaks.push(end);
    let r = statement(f, &sw.statement);
    f.breaks.pop();
    f.cases.pop();
    r?;
    f.rb.bind(end);
    Ok(())
}
