//! Memory leaks when `main` returns (SV-COMP's `valid-memtrack`): an
//! object `malloc` made and nothing freed is a leak unless it is still
//! reachable. `main`'s locals are gone then, so what can reach it is a
//! global (or static local): a pointer global, or an object the program
//! made before calling `main` (the objects of globals, static locals and
//! string literals, [`before_main`]).
//!
//! Where no global can hold a pointer, no object is reachable and the
//! check is a count: `$live`, the objects `malloc` made and `free` did
//! not free, must be 0. Otherwise the IR's main routine marks what the
//! roots reach, as a garbage collector's mark phase does: a worklist of
//! objects, and for each the pointer slots of its type (every object
//! records its type's number when it is made, `$kind`: the types are the
//! ones the program allocates, known once its functions are lowered),
//! their targets marked and pushed. A freed object reaches nothing. Then
//! every object made while `main` ran that `malloc` made and that is not
//! freed and not marked is a `memory_leak`. The code runs once, at the
//! end, on the path's own (concrete, as a rule) pointers.
//!
//! An object of bytes (`malloc(16)`, `malloc(n * size)`) takes the type
//! of the first pointer with pointer members it is converted to
//! ([`typed_by_use`]: `struct node *n = zalloc(sizeof *n)`).
//!
//! Not decided, and so listed as unchecked: a program with threads, and
//! one that copies bytes (`memcpy`, which can put a pointer into an
//! object of bytes where its type does not say) and uses objects of bytes
//! through wider pointers. An `exit` or `abort` while an object `malloc`
//! made is live is not decided either, per path (`call.rs`).

use super::{heap, layout, Fun};
use crate::types::CType;
use wiser_ir::{pointer, ArrayId, ErrorKind, Expr, Place, ScalarTy};
use wiser_num::{BinOp, CmpOp, Int, IntTy};

/// Before `main` is called: how many objects exist (the roots), in a
/// temporary of the IR's main routine; `None` in a program that makes
/// none.
pub fn before_main(f: &mut Fun, span: wiser_ir::Span) -> Option<Place> {
    let mem = f.u.heap.mem?;
    let t = f.rb.temp(ScalarTy::INT);
    f.rb.assign(t, f.rb.load(mem.count), span);
    Some(t)
}

/// The check, after `main` returns (`roots`: [`before_main`]'s count),
/// that every object `malloc` made is freed or still reachable; `None`,
/// or why it is not decided.
pub fn check(f: &mut Fun, roots: Option<Place>, span: wiser_ir::Span) -> Option<&'static str> {
    let mem = f.u.heap.mem?;
    let int = |v: i64| Expr::int(IntTy::INT, v);
    if !f.u.heap.global_pointers {
        let leaked = Expr::cmp(CmpOp::Ne, f.rb.load(mem.live), int(0));
        f.rb.assume(
            Expr::bool(true).fault_if(leaked, ErrorKind::MemoryLeak, span),
            span,
        );
        return None;
    }
    if f.u.threaded {
        return Some("the program has threads, and wiser does not decide whether the objects a global reaches are still reachable when `main` returns");
    }
    if f.u.heap.untyped && f.u.heap.from_void && f.u.heap.byte_copies {
        return Some("the program copies bytes (`memcpy`) and uses objects of bytes (`malloc(16)`) through wider pointers, and wiser does not decide where their pointers are, so whether the objects a global reaches are still reachable when `main` returns");
    }
    let Some(roots) = roots else {
        return Some("no count of the objects made before `main` was kept (an internal error: please report it)");
    };
    let marks = Marks::new(f);
    // The roots: the objects made before `main` and the pointer globals.
    let count = f.rb.load(roots);
    each_object(f, int(1), count, span, &mut |f, o| {
        let freed = Expr::select(mem.freed, heap::FLAG_TY, o.clone());
        // (Neither side fails: nothing to pass on.)
        let _ = f.if_else(
            Expr::logical_not(freed),
            span,
            |f| {
                marks.push(f, o, span);
                Ok(())
            },
            |_| Ok(()),
        );
    });
    for place in f.u.heap.root_pointers.clone() {
        let p = f.rb.load(place);
        marks.reach(f, p, mem.freed, span);
    }
    // Everything they reach.
    marks.drain(f, mem.freed, span);
    // What `main`'s run made, `malloc`'d, not freed and not reached.
    let all = f.rb.load(mem.count);
    let first = Expr::binary(BinOp::Add, f.rb.load(roots), int(1), span);
    each_object(f, first, all, span, &mut |f, o| {
        let malloced = Expr::select(mem.malloced, heap::FLAG_TY, o.clone());
        let freed = Expr::select(mem.freed, heap::FLAG_TY, o.clone());
        let reached = Expr::select(marks.reach, heap::FLAG_TY, o);
        let leaked = Expr::and(
            malloced,
            Expr::and(Expr::logical_not(freed), Expr::logical_not(reached)),
        );
        f.rb.assume(
            Expr::bool(true).fault_if(leaked, ErrorKind::MemoryLeak, span),
            span,
        );
    });
    None
}

/// `p`, of a pointer to `from`, converted to a `to *`: where `from` is
/// `void` and `to` has pointers, an object of bytes `p` points to takes
/// `to` as its type (its elements `bytes(to)` bytes of its length
/// apart). The pointer, in a temporary when code was written.
pub fn typed_by_use(f: &mut Fun, p: Expr, from: &CType, to: &CType, at: super::CSpan) -> Expr {
    let Some((size, _)) = layout::bytes(f.u, to) else {
        return p;
    };
    if *from != CType::Void || pointer_slots(f.u, to).is_empty() {
        return p;
    }
    let span = f.span(at);
    let pt = f.rb.temp(ScalarTy::INT);
    f.rb.assign(pt, p, span);
    let mem = heap::mem(f.u, f.rb.program());
    let uchar = CType::Int(crate::types::CInt::new(crate::types::Rank::Char, false));
    let bytes = heap::kind(f.u, &uchar, 1);
    let typed = heap::kind(f.u, to, size);
    let field = heap::field_ty(ScalarTy::INT);
    let o = f.rb.temp(ScalarTy::INT);
    f.rb.assign(o, pointer::object(f.rb.load(pt), span), span);
    let int = |v: u64| Expr::int(IntTy::INT, Int::from_u64(v));
    let is_bytes = Expr::and(
        Expr::cmp(CmpOp::Ne, f.rb.load(o), int(0)),
        Expr::cmp(
            CmpOp::Eq,
            Expr::select(mem.kinds, field, f.rb.load(o)),
            int(bytes),
        ),
    );
    // (Neither side fails: nothing to pass on.)
    let _ = f.if_else(
        is_bytes,
        span,
        |f| {
            f.rb.store(mem.kinds, f.rb.load(o), int(typed), span);
            Ok(())
        },
        |_| Ok(()),
    );
    f.rb.load(pt)
}

/// The slots of a `ty` that hold pointers to objects (not functions'
/// numbers), from its start.
fn pointer_slots(u: &super::Unit, ty: &CType) -> Vec<u64> {
    layout::runs(u, ty)
        .into_iter()
        .filter(|r| matches!(&r.ty, CType::Pointer(t) if !matches!(**t, CType::Func(_))))
        .flat_map(|r| (0..r.count).map(move |i| r.offset + i * r.stride))
        .collect()
}

/// `body(object -k)` for `k` in `from..=to` (references count down from
/// -1), on [`layout::times`]'s loop.
fn each_object(
    f: &mut Fun,
    from: Expr,
    to: Expr,
    span: wiser_ir::Span,
    body: &mut dyn FnMut(&mut Fun, Expr),
) {
    let one = Expr::int(IntTy::INT, 1);
    let count = Expr::binary(
        BinOp::Add,
        Expr::binary(BinOp::Sub, to, from.clone(), span),
        one,
        span,
    );
    // (The body never fails: nothing to pass on.)
    let _ = layout::times(f, count, false, span, &mut |f, i| {
        let k = Expr::binary(BinOp::Add, from.clone(), i, span);
        body(
            f,
            Expr::binary(BinOp::Sub, Expr::int(IntTy::INT, 0), k, span),
        );
        Ok(())
    });
}

/// The mark phase's state: `$reach` (an object's mark), and a worklist
/// of marked objects whose pointers are still to follow.
struct Marks {
    reach: ArrayId,
    work: ArrayId,
    top: Place,
}

impl Marks {
    fn new(f: &mut Fun) -> Marks {
        let zero = Some(Int::from(0));
        let b = f.rb.program();
        let reach = b.array("$reach", heap::FLAG_TY, zero.clone());
        let work = b.array("$work", heap::field_ty(ScalarTy::INT), zero);
        let top = f.rb.temp(ScalarTy::INT);
        f.rb.assign(top, Expr::int(IntTy::INT, 0), wiser_ir::Span::default());
        Marks { reach, work, top }
    }

    /// Marks object `o` and puts it on the worklist.
    fn push(&self, f: &mut Fun, o: Expr, span: wiser_ir::Span) {
        f.rb.store(self.reach, o.clone(), Expr::bool(true), span);
        f.rb.store(self.work, f.rb.load(self.top), o, span);
        let up = Expr::binary(
            BinOp::Add,
            f.rb.load(self.top),
            Expr::int(IntTy::INT, 1),
            span,
        );
        f.rb.assign(self.top, up, span);
    }

    /// Marks the object pointer `p` points into, if it is one not marked
    /// and not freed.
    fn reach(&self, f: &mut Fun, p: Expr, freed: ArrayId, span: wiser_ir::Span) {
        let o = f.rb.temp(ScalarTy::INT);
        f.rb.assign(o, pointer::object(p, span), span);
        let some = Expr::cmp(CmpOp::Ne, f.rb.load(o), Expr::int(IntTy::INT, 0));
        let unmarked = Expr::logical_not(Expr::select(self.reach, heap::FLAG_TY, f.rb.load(o)));
        let alive = Expr::logical_not(Expr::select(freed, heap::FLAG_TY, f.rb.load(o)));
        let cond = Expr::and(some, Expr::and(unmarked, alive));
        // (Neither side fails: nothing to pass on.)
        let _ = f.if_else(
            cond,
            span,
            |f| {
                self.push(f, f.rb.load(o), span);
                Ok(())
            },
            |_| Ok(()),
        );
    }

    /// Follows the pointers of every object on the worklist, until it is
    /// empty.
    fn drain(&self, f: &mut Fun, freed: ArrayId, span: wiser_ir::Span) {
        let Some(mem) = f.u.heap.mem else { return };
        let (head, next, end) = (f.rb.label(), f.rb.label(), f.rb.label());
        f.rb.bind(head);
        let more = Expr::cmp(CmpOp::Gt, f.rb.load(self.top), Expr::int(IntTy::INT, 0));
        f.rb.branch(more, next, end, span);
        f.rb.bind(next);
        let down = Expr::binary(
            BinOp::Sub,
            f.rb.load(self.top),
            Expr::int(IntTy::INT, 1),
            span,
        );
        f.rb.assign(self.top, down, span);
        let o = f.rb.temp(ScalarTy::INT);
        let popped = Expr::select(
            self.work,
            heap::field_ty(ScalarTy::INT),
            f.rb.load(self.top),
        );
        f.rb.assign(o, popped, span);
        let kind = Expr::select(mem.kinds, heap::field_ty(ScalarTy::INT), f.rb.load(o));
        let kt = f.rb.temp(ScalarTy::INT);
        f.rb.assign(kt, kind, span);
        let len = Expr::select(mem.len, heap::field_ty(ScalarTy::INT), f.rb.load(o));
        let lt = f.rb.temp(ScalarTy::INT);
        f.rb.assign(lt, len, span);
        let pointers = CType::Pointer(Box::new(CType::Void));
        let Ok((ptrs, held)) = heap::cell_array(f, &pointers, super::CSpan::none()) else {
            return;
        };
        let kinds = f.u.heap.kinds.clone();
        for (k, heap::Kind { ty, per }) in kinds.iter().enumerate() {
            let offsets = pointer_slots(f.u, ty);
            if offsets.is_empty() {
                continue;
            }
            let this = Expr::cmp(CmpOp::Eq, f.rb.load(kt), Expr::int(IntTy::INT, k as i64));
            let size = layout::slots(f.u, ty);
            // (Neither side fails: nothing to pass on.)
            let _ = f.if_else(
                this,
                span,
                |f| {
                    let elems = Expr::binary(
                        BinOp::Div,
                        f.rb.load(lt),
                        Expr::int(IntTy::INT, Int::from_u64(*per)),
                        span,
                    );
                    layout::times(f, elems, false, span, &mut |f, e| {
                        let start = Expr::binary(
                            BinOp::Add,
                            pointer::base(f.rb.load(o), span),
                            Expr::binary(
                                BinOp::Mul,
                                e,
                                Expr::int(IntTy::INT, Int::from_u64(size)),
                                span,
                            ),
                            span,
                        );
                        for off in &offsets {
                            let at = layout::plus(start.clone(), *off, span);
                            let p = Expr::select(ptrs, heap::field_ty(held), at);
                            self.reach(f, p, freed, span);
                        }
                        Ok(())
                    })
                },
                |_| Ok(()),
            );
        }
        f.rb.jump(head);
        f.rb.bind(end);
    }
}
