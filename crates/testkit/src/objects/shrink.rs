//! Shrinking heap and thread programs: greedily delete statements (in
//! main, in threads, inside `if` and `atomic`), replace an `if` by one of
//! its branches, unwrap an `atomic`, drop a whole thread procedure that
//! no statement spawns, while a predicate holds.

use super::{OProgram, OSt};
use std::time::Duration;

/// Applies mutation number `k` to the block; `k` is decremented by the
/// number of mutations the block offers when it has fewer.
fn mutate_block(b: &mut Vec<OSt>, k: &mut usize) -> bool {
    for i in 0..b.len() {
        if *k == 0 {
            b.remove(i);
            return true;
        }
        *k -= 1;
        match &mut b[i] {
            OSt::If(_, then, other) => {
                for branch in 0..2 {
                    if *k == 0 {
                        let OSt::If(_, then, other) = b.remove(i) else {
                            unreachable!("matched an if")
                        };
                        let keep = if branch == 0 { then } else { other };
                        b.splice(i..i, keep);
                        return true;
                    }
                    *k -= 1;
                }
                if mutate_block(then, k) || mutate_block(other, k) {
                    return true;
                }
            }
            OSt::Atomic(body) => {
                if *k == 0 {
                    let OSt::Atomic(body) = b.remove(i) else {
                        unreachable!("matched an atomic")
                    };
                    b.splice(i..i, body);
                    return true;
                }
                *k -= 1;
                if mutate_block(body, k) {
                    return true;
                }
            }
            _ => {}
        }
    }
    false
}

/// The program with mutation number `k`, or `None` past the last one.
pub fn mutate(p: &OProgram, mut k: usize) -> Option<OProgram> {
    let mut q = p.clone();
    for i in 0..q.procs.len() {
        if !p.main.iter().any(|s| spawns(s, &p.procs[i].name)) {
            if k == 0 {
                q.procs.remove(i);
                return Some(q.pruned());
            }
            k -= 1;
        }
    }
    if mutate_block(&mut q.main, &mut k) {
        return Some(q.pruned());
    }
    for proc in &mut q.procs {
        if mutate_block(&mut proc.body, &mut k) {
            return Some(q.pruned());
        }
    }
    None
}

fn spawns(s: &OSt, name: &str) -> bool {
    match s {
        OSt::Spawn(_, p, _) => &**p == name,
        OSt::If(_, a, b) => a.iter().chain(b).any(|s| spawns(s, name)),
        OSt::Atomic(a) => a.iter().any(|s| spawns(s, name)),
        _ => false,
    }
}

/// Shrinks `p` while `keep` holds, for at most `budget`; returns the
/// smallest program found and the number of candidates tried (see
/// [`crate::shrink::greedy`]).
pub fn shrink_objects(
    p: &OProgram,
    budget: Duration,
    keep: impl FnMut(&OProgram) -> bool,
) -> (OProgram, u64) {
    let (small, tried) = crate::shrink::greedy(p, budget, mutate, keep);
    (small, tried as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::objects::{generate_objects, Features};

    #[test]
    fn shrinks_to_what_the_predicate_needs() {
        let p = generate_objects(1, 3, Features::Threads);
        let (small, _) = shrink_objects(&p, Duration::from_secs(10), |q| !q.main.is_empty());
        assert_eq!(small.main.len(), 1, "{small}");
        assert!(small.procs.is_empty(), "{small}");
        small.compile().unwrap();
    }
}
