//! Path prefixes: a path named by the sides its decisions took, from the
//! initial state. Every state keeps its decision trail, so a waiting state
//! can be handed to another process as a few bytes and rebuilt there by
//! replaying the one `Machine::step` with those sides forced (as Cloud9's
//! jobs are): the work items of a distributed run, and how a bug found by
//! a worker is confirmed again by the coordinator.
//!
//! Replay is deterministic: the machine makes the same decisions in the
//! same order when every decision takes the same side, because the terms
//! it builds depend only on the program and the sides taken. Only
//! decisions whose condition is not a constant are on a trail; thread
//! schedules are not (a program with threads is not split into prefixes).
//! A replay that does not end where the prefix says (same number of
//! steps, same instruction, every side taken) is an error, never a guess.

use crate::config::Config;
use crate::expand::{Expander, Expansion};
use crate::run::Solvers;
use crate::symbolic::Feasible;
use crate::witness::{Bug, SymState};
use std::fmt;
use wiser_ir::{Ir, Pc};
use wiser_smt::Solver;

/// A path from the initial state, by the sides of its decisions.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Prefix {
    /// The side each decision took (`true`: its condition held; for a
    /// check, that it faulted), oldest first.
    pub sides: Vec<bool>,
    /// The path's length in machine steps.
    pub steps: u64,
    /// The instruction the path ends at.
    pub pc: Pc,
}

impl Prefix {
    /// The empty path: the initial state of `ir`.
    pub fn root(ir: &Ir) -> Prefix {
        Prefix {
            sides: Vec::new(),
            steps: 0,
            pc: ir.main.entry,
        }
    }

    /// The path that led to `state` (which kept its trail).
    pub fn of(state: &SymState) -> Prefix {
        let mut sides: Vec<bool> = state.trail.iter().map(|d| d.taken).collect();
        sides.reverse();
        Prefix {
            sides,
            steps: state.steps,
            pc: state.pc,
        }
    }

    /// The prefix in a compact text form: `STEPS.PC.N.HEX`, the `N` sides
    /// packed four to a hexadecimal digit, oldest in the high bit.
    pub fn to_text(&self) -> String {
        let mut hex = String::with_capacity(self.sides.len().div_ceil(4));
        for chunk in self.sides.chunks(4) {
            let mut digit = 0u32;
            for (i, &side) in chunk.iter().enumerate() {
                digit |= u32::from(side) << (3 - i);
            }
            hex.push(char::from_digit(digit, 16).expect("a nibble is a hex digit"));
        }
        format!("{}.{}.{}.{hex}", self.steps, self.pc, self.sides.len())
    }

    /// Reads [`Prefix::to_text`]'s form back.
    pub fn parse(text: &str) -> Result<Prefix, String> {
        let bad = || format!("`{text}` is not a path prefix (STEPS.PC.N.HEX)");
        let mut parts = text.split('.');
        let (Some(steps), Some(pc), Some(n), Some(hex), None) = (
            parts.next(),
            parts.next(),
            parts.next(),
            parts.next(),
            parts.next(),
        ) else {
            return Err(bad());
        };
        let steps = steps.parse().map_err(|_| bad())?;
        let pc = pc.parse().map_err(|_| bad())?;
        let n: usize = n.parse().map_err(|_| bad())?;
        if hex.len() != n.div_ceil(4) {
            return Err(bad());
        }
        let mut sides = Vec::with_capacity(n);
        for c in hex.chars() {
            let digit = c.to_digit(16).ok_or_else(bad)?;
            for i in 0..4 {
                if sides.len() < n {
                    sides.push(digit & (1 << (3 - i)) != 0);
                }
            }
        }
        Ok(Prefix { sides, steps, pc })
    }
}

impl fmt::Display for Prefix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_text())
    }
}

/// Another place that takes waiting states, as prefixes: the other
/// workers of a distributed run. A worker of a run given one
/// ([`crate::symex_shared`]) asks it every 64 states it expands, and hands
/// over up to half of its waiting states when it wants some.
pub trait Share: Send + Sync {
    /// How many places (hungry workers) want states now (0: none).
    fn wanted(&self) -> usize;
    /// Takes the waiting states at the end of `prefixes`: the first `n`,
    /// where it returns `n` (the others stay here).
    fn give(&self, prefixes: &[Prefix]) -> usize;
}

/// An expander that replays prefixes of `ir` under `config`'s options and
/// property, deciding with `solver` (no known bugs: every error side a
/// prefix names is decided).
pub(crate) fn replayer<'ir, S: Solver>(
    ir: &'ir Ir,
    config: &Config,
    solver: S,
) -> Expander<'ir, S> {
    Expander::new(ir, Feasible::new(solver), config.options)
        .with_property(config.property)
        .without_matching()
}

/// Rebuilds the state `prefix` names, stepping `expander`'s machine from
/// the initial state with the prefix's sides forced.
pub fn replay<S: Solver>(
    expander: &mut Expander<'_, S>,
    prefix: &Prefix,
) -> Result<SymState, String> {
    let mut state = expander.initial();
    expander.policy().force(prefix.sides.clone());
    let mut out = Vec::with_capacity(2);
    let result = loop {
        if state.steps == prefix.steps && state.pc == prefix.pc {
            break Ok(state);
        }
        if state.steps >= prefix.steps || state.error().is_some() {
            break Err(format!(
                "the prefix {prefix} did not replay: the path reached instruction {} in {} steps",
                state.pc, state.steps
            ));
        }
        match expander.expand(state, &mut out) {
            Expansion::Stepped if out.len() == 1 => state = out.pop().expect("one successor"),
            _ => {
                break Err(format!(
                    "the prefix {prefix} did not replay: its path ended or split before step {}",
                    prefix.steps
                ))
            }
        }
    };
    let left = expander.policy().unforce();
    match result {
        Ok(_) if left > 0 => Err(format!(
            "the prefix {prefix} did not replay: {left} of its decisions were not reached"
        )),
        other => other,
    }
}

/// Confirms again the bug at the end of `prefix` (a path to an error
/// state that a worker reported): replays the path, finds a witness and
/// replays it on the concrete interpreter, as the worker did; the solver
/// gives up at `deadline`. `Ok(None)`: the solver could not decide the
/// path (it answered unknown, or ran out of time), as a run in one
/// process reports `solver_unknown` for an error state it cannot decide.
pub fn confirm_prefix(
    ir: &Ir,
    config: &Config,
    prefix: &Prefix,
    deadline: Option<std::time::Instant>,
) -> Result<Option<Bug>, String> {
    let solvers = Solvers::new(config, deadline);
    let mut expander = replayer(ir, config, solvers.chain());
    let state = replay(&mut expander, prefix)?;
    match expander.expand(state, &mut Vec::new()) {
        Expansion::Bug(bug) => Ok(Some(*bug)),
        Expansion::Undecided => Ok(None),
        Expansion::Internal(msg) => Err(msg),
        _ => Err(format!(
            "the prefix {prefix} does not end at an error whose witness replays"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wiser_smt::Z3Solver;

    fn expander(ir: &Ir) -> Expander<'_, Z3Solver> {
        Expander::new(ir, Feasible::new(Z3Solver::new(None)), Default::default())
    }

    /// Every state a breadth-first search meets, rebuilt from its prefix
    /// by a fresh expander, is the same state: same instruction, steps,
    /// path condition and trail.
    #[test]
    fn every_state_replays_from_its_prefix() {
        let ir = wiser_imp::compile(
            "i = 0; s = 0;\n\
             while i < n do\n\
               if x * i > 3 then s = s + i else s = s - 1 fi;\n\
               assert s != 7;\n\
               i = i + 1\n\
             od;\n\
             assume n <= 4",
        )
        .unwrap();
        let mut explore = expander(&ir);
        let mut queue = std::collections::VecDeque::from([explore.initial()]);
        let (mut replayed, mut out) = (0, Vec::new());
        while let Some(state) = queue.pop_front() {
            if state.steps > 60 {
                continue;
            }
            let prefix = Prefix::of(&state);
            let again = replay(&mut expander(&ir), &prefix).expect("the prefix replays");
            assert_eq!((again.pc, again.steps), (state.pc, state.steps));
            assert_eq!(again.path.terms(), state.path.terms());
            assert_eq!(Prefix::of(&again), prefix);
            replayed += 1;
            if state.error().is_none() {
                explore.expand(state, &mut out);
                queue.extend(out.drain(..));
            }
        }
        assert!(replayed > 100, "only {replayed} states");
    }

    /// One replaying expander rebuilds prefixes one after another, as a
    /// distributed worker does, though they share their beginnings and a
    /// reactive loop comes back to the same state on each (which a
    /// searching expander would not expand twice).
    #[test]
    fn prefixes_through_a_state_met_before_replay_one_after_another() {
        let ir = wiser_imp::compile(
            "g = 0;\n\
             while 0 == 0 do\n\
               x = *;\n\
               if x == 1 then g = 1 - g else skip fi;\n\
               assert g != 5\n\
             od",
        )
        .unwrap();
        let config = Config::default();
        let mut replaying = replayer(&ir, &config, Z3Solver::new(None));
        let mut explore = expander(&ir);
        let mut queue = std::collections::VecDeque::from([explore.initial()]);
        let (mut replayed, mut out) = (0, Vec::new());
        while let Some(state) = queue.pop_front() {
            if state.steps > 40 {
                continue;
            }
            let prefix = Prefix::of(&state);
            let again = replay(&mut replaying, &prefix).expect("the prefix replays");
            assert_eq!((again.pc, again.steps), (state.pc, state.steps));
            replayed += 1;
            explore.expand(state, &mut out);
            queue.extend(out.drain(..));
        }
        assert!(replayed >= 10, "only {replayed} states");
    }

    /// A prefix that names no path of the program is an error, whether it
    /// goes off the tree or ends where no state is.
    #[test]
    fn a_prefix_off_the_tree_is_an_error() {
        let ir = wiser_imp::compile("if x > 0 then y = 1 else y = 2 fi; assert y != 3").unwrap();
        let off = Prefix {
            sides: vec![true, true, false, true],
            steps: 40,
            pc: 0,
        };
        assert!(replay(&mut expander(&ir), &off).is_err());
        let mut root = Prefix::root(&ir);
        root.steps = 1;
        root.pc = 999;
        assert!(replay(&mut expander(&ir), &root).is_err());
    }

    #[test]
    fn text_form_round_trips() {
        for n in [0usize, 1, 3, 4, 5, 17] {
            let p = Prefix {
                sides: (0..n).map(|i| i % 3 == 0).collect(),
                steps: 40 + n as u64,
                pc: 7,
            };
            assert_eq!(Prefix::parse(&p.to_text()), Ok(p));
        }
    }

    #[test]
    fn malformed_text_is_an_error() {
        for bad in [
            "",
            "1.2.3",
            "1.2.5.f",
            "1.2.4.g",
            "x.2.0.",
            "1.2.0..",
            "1.2.4.f.0",
        ] {
            assert!(Prefix::parse(bad).is_err(), "{bad}");
        }
    }
}
