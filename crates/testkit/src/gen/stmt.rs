//! Statements, loops and procedures.

use super::{make_proc, name, Callee, Gen, Scope};
use crate::program::{Bound, Co, Ex, Proc, St};
use crate::Name;
use wiser_num::{BinOp, CmpOp, IntTy};

fn var(n: &Name) -> Ex {
    Ex::Var(n.clone())
}

impl Gen<'_> {
    pub(super) fn block(&mut self, sc: &Scope, lo: usize, hi: usize) -> Vec<St> {
        let n = self.rng.usize(lo..=hi);
        (0..n).map(|_| self.stmt(sc)).collect()
    }

    fn stmt(&mut self, sc: &Scope) -> St {
        loop {
            let r = self.rng.u32(0..30);
            match r {
                0..=8 if !sc.write.is_empty() => {
                    let (v, ty) = self.pick(&sc.write);
                    return St::Assign(v, self.expr(sc, ty, 3));
                }
                9..=10 if !self.arrays.is_empty() => {
                    let (a, ty) = self.pick(&self.arrays.clone());
                    let i = self.index(sc, 2);
                    return St::Store(a, i, self.expr(sc, ty, 2));
                }
                11..=16 if sc.depth < self.cfg.max_depth => {
                    let inner = Scope {
                        depth: sc.depth + 1,
                        ..sc.clone()
                    };
                    let c = self.cond(sc, 1);
                    let a = self.block(&inner, 1, 3);
                    let b = self.block(&inner, 0, 2);
                    return St::If(c, a, b);
                }
                17..=19 if sc.depth < self.cfg.max_depth && sc.loops < self.cfg.max_loops => {
                    return self.loop_(sc)
                }
                20..=21 if !self.quiet => return St::Assert(self.likely(sc)),
                22 => return St::Assume(self.likely(sc)),
                23 if !self.quiet => {
                    let c = self.cond(sc, 1);
                    return St::If(c, vec![St::Fail], vec![]);
                }
                24..=25
                    if !sc.write.is_empty() && sc.runs.is_some_and(|k| k <= self.read_budget) =>
                {
                    self.read_budget -= sc.runs.unwrap_or(0);
                    let (v, _) = self.pick(&sc.write);
                    return St::Havoc(v);
                }
                26..=28 if !sc.calls.is_empty() => {
                    let f = self.pick(&sc.calls);
                    let targets: Vec<Name> = sc
                        .write
                        .iter()
                        .filter(|(_, t)| f.ret.is_lossless_to(*t))
                        .map(|(n, _)| n.clone())
                        .collect();
                    if targets.is_empty() {
                        continue;
                    }
                    let target = self.pick(&targets);
                    return self.call(sc, &f, target);
                }
                _ => {}
            }
        }
    }

    pub(super) fn call(&mut self, sc: &Scope, f: &Callee, target: Name) -> St {
        let first = self.expr(sc, f.params[0], 2);
        let second = if f.fuel {
            // Fuel: a small constant or `v % 3` for a scalar `v` (of any
            // type: the parameter is an `int`).
            if sc.read.is_empty() || self.chance(0.6) {
                Ex::Num(i128::from(self.rng.i64(0..=3)))
            } else {
                let (v, t) = self.pick(&sc.read);
                let e = Ex::Bin(BinOp::Rem, Box::new(var(&v)), Box::new(Ex::Num(3)));
                if t.is_lossless_to(self.counter_ty()) {
                    e
                } else {
                    Ex::Cast(self.counter_ty(), Box::new(e))
                }
            }
        } else {
            self.expr(sc, f.params[1], 2)
        };
        St::Call(Some(target), f.name.clone(), vec![first, second])
    }

    fn loop_(&mut self, sc: &Scope) -> St {
        let counter = name(&format!("{}{}", sc.counter, sc.loops));
        let (bound, iterations) = if !sc.bounds.is_empty() && self.chance(0.3) {
            let (v, hi) = self.pick(&sc.bounds);
            (Bound::Var(v), hi.max(0) as u64)
        } else {
            let k = self.rng.i64(0..=3);
            (Bound::Const(k), k as u64)
        };
        let cond = self.chance(0.3).then(|| self.cond(sc, 1));
        let mut read = sc.read.clone();
        read.push((counter.clone(), self.counter_ty()));
        let mut env = sc.env.clone();
        env.push((counter.clone(), self.counter_ty()));
        let inner = Scope {
            read,
            env,
            depth: sc.depth + 1,
            loops: sc.loops + 1,
            runs: sc.runs.map(|k| k * iterations.max(1)),
            ..sc.clone()
        };
        let body = self.block(&inner, 1, 3);
        St::Loop {
            counter,
            bound,
            cond,
            body,
        }
    }

    /// A result type for a procedure: in quiet mode one whose `+` cannot
    /// overflow, since results are added up.
    fn ret_ty(&mut self) -> IntTy {
        let t = self.pick_ty();
        if self.quiet && self.may_overflow(BinOp::Add, t) {
            super::unsigned(t)
        } else {
            t
        }
    }

    /// `proc rec(n, k)`: recursion bounded by the fuel `k`.
    pub(super) fn rec_proc(&mut self) -> (Proc, Callee) {
        let (n, k, m, r, s) = (name("n"), name("k"), name("m"), name("r"), name("s"));
        let (tn, tm, tr) = (self.pick_ty(), self.pick_ty(), self.ret_ty());
        let locals = vec![(m.clone(), tm), (r.clone(), tr), (s.clone(), tr)];
        let scope = |read: Vec<(Name, IntTy)>, write: Vec<(Name, IntTy)>| {
            let mut sc = Scope::new(read, write);
            sc.env.extend(locals.iter().cloned());
            sc
        };
        let base_scope = scope(vec![(n.clone(), tn)], vec![]);
        let mut body = vec![St::If(
            Co::Cmp(CmpOp::Le, var(&k), Ex::Num(0)),
            vec![St::Return(self.expr(&base_scope, tr, 2))],
            vec![],
        )];
        let fuel_ty = self.counter_ty();
        let sc = scope(vec![(n.clone(), tn), (k.clone(), fuel_ty)], vec![]);
        body.push(St::Assign(m.clone(), self.expr(&sc, tm, 2)));
        let params = vec![(n.clone(), tn), (k.clone(), fuel_ty)];
        let mut read = params.clone();
        read.push((m.clone(), tm));
        let sc = scope(read.clone(), vec![(m.clone(), tm)]);
        body.extend(self.block(&sc, 0, 2));
        let fuel = Ex::Bin(BinOp::Sub, Box::new(var(&k)), Box::new(Ex::Num(1)));
        body.push(St::Call(
            Some(r.clone()),
            name("rec"),
            vec![self.expr(&sc, tn, 2), fuel.clone()],
        ));
        if self.chance(0.3) {
            body.push(St::Call(
                Some(s.clone()),
                name("rec"),
                vec![self.expr(&sc, tn, 2), fuel],
            ));
            // `ret_ty` made this `+` safe in quiet mode.
            body.push(St::Assign(
                r.clone(),
                Ex::Bin(BinOp::Add, Box::new(var(&r)), Box::new(var(&s))),
            ));
        }
        read.push((r.clone(), tr));
        let sc = scope(read, vec![(m, tm), (r, tr)]);
        if !self.quiet && self.chance(0.5) {
            body.push(St::Assert(self.likely(&sc)));
        }
        body.extend(self.block(&sc, 0, 1));
        body.push(St::Return(self.expr(&sc, tr, 2)));
        let proc = make_proc("rec", params, tr, &locals, body);
        let callee = Callee::of(&proc, true);
        (proc, callee)
    }

    /// `proc g(p, q)`: straight code, ifs and loops; may call `rec`.
    pub(super) fn plain_proc(&mut self, calls: Vec<Callee>) -> (Proc, Callee) {
        let (p, q, l) = (name("p"), name("q"), name("l"));
        let (tp, tq, tl, tr) = (
            self.pick_ty(),
            self.pick_ty(),
            self.pick_ty(),
            self.ret_ty(),
        );
        let params = vec![(p.clone(), tp), (q.clone(), tq)];
        let mut sc = Scope::new(params.clone(), vec![]);
        sc.env.push((l.clone(), tl));
        let mut body = vec![St::Assign(l.clone(), self.expr(&sc, tl, 2))];
        let all = vec![(p, tp), (q, tq), (l.clone(), tl)];
        let mut sc = Scope::new(all.clone(), all);
        sc.calls = calls;
        sc.depth = 1;
        body.extend(self.block(&sc, 1, 4));
        if self.chance(0.3) {
            let at = self.rng.usize(0..=body.len().saturating_sub(1)) + 1;
            let c = self.cond(&sc, 1);
            let e = self.expr(&sc, tr, 2);
            body.insert(at.min(body.len()), St::If(c, vec![St::Return(e)], vec![]));
        }
        body.push(St::Return(self.expr(&sc, tr, 2)));
        let proc = make_proc("g", params, tr, &[(l, tl)], body);
        let callee = Callee::of(&proc, false);
        (proc, callee)
    }
}
