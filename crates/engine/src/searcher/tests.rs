//! The searchers alone and over a slab of fake states (whose ids are
//! reused, as the frontier's are): orders, the random-path tree's size,
//! determinism under a seed, and, as a property, that the complete
//! strategies take every state in bounded time whatever the sequence of
//! pushes, pops and steals.

use super::Strategy;
use super::*;
use proptest::prelude::*;
use wiser_ir::cfg::successors;

/// A state of the simulation: a name, a place, maybe an error.
#[derive(Debug)]
struct Fake {
    name: usize,
    pc: Pc,
    stuck: bool,
}

/// What the frontier does (`crate::frontier::Arena`, which this module
/// cannot use without a module cycle): states in a slab, serials in push
/// order, the state popped last as the parent of the next pushes.
struct Sim {
    states: slab::Slab<(Fake, Serial)>,
    searcher: Box<dyn Searcher>,
    serial: Serial,
    last: Option<Parent>,
}

impl Sim {
    fn push(&mut self, state: Fake) {
        let info = Info {
            serial: self.serial,
            pc: state.pc,
            stuck: state.stuck,
            parent: self.last,
        };
        self.serial += 1;
        let id = self.states.insert((state, info.serial));
        self.searcher.push(id, info);
    }
    fn pop(&mut self) -> Option<Fake> {
        let (state, serial) = self.states.remove(self.searcher.pop()?);
        self.last = Some(Parent {
            serial,
            pc: state.pc,
        });
        Some(state)
    }
    fn steal(&mut self) -> Option<Fake> {
        Some(self.states.remove(self.searcher.steal()?).0)
    }
}

const PROGRAM: &str = "x = *; y = *; i = 0;
    while i < x do
      if y > i then y = y - 1 else y = y + 2 fi;
      if y == 7 then assert x != 3 else skip fi;
      i = i + 1
    od;
    if x > 100 then fail else skip fi";

fn ir() -> Ir {
    wiser_imp::compile(PROGRAM).unwrap()
}

fn info(serial: Serial) -> Info {
    Info {
        serial,
        pc: 0,
        stuck: false,
        parent: None,
    }
}

#[test]
fn breadth_and_depth_first_orders() {
    let ir = ir();
    let mut b = Search::new(Strategy::Bfs, 0, &ir).searcher(0);
    let mut d = Search::new(Strategy::Dfs, 0, &ir).searcher(0);
    for i in 0..4 {
        b.push(i, info(i as u64));
        d.push(i, info(i as u64));
    }
    assert_eq!((b.pop(), d.pop()), (Some(0), Some(3)));
    assert_eq!((b.len(), d.len()), (3, 3));
    assert_eq!((b.name(), d.name()), ("bfs", "dfs"));
    assert_eq!(d.steal(), Some(0));
    b.remove(2);
    d.remove(2);
    assert_eq!((b.pop(), b.pop(), b.pop()), (Some(1), Some(3), None));
    assert_eq!((d.pop(), d.pop()), (Some(1), None));
}

#[test]
fn names_agree_with_the_strategies() {
    let ir = ir();
    for s in Strategy::ALL {
        assert_eq!(Search::new(s, 1, &ir).searcher(0).name(), s.name());
        assert_eq!(s.is_complete(), s.name().ends_with("bfs"), "{}", s.name());
    }
}

/// Runs `ops` on an arena of `strategy`: each op pops a state and pushes
/// `op % 4` successors (at the pcs its instruction leads to), or, for
/// `op >= 12`, steals one. Returns the order states left in.
/// With `press_at`, the searcher is pressed ([`Searcher::press`]) before
/// that op.
fn simulate(strategy: Strategy, seed: u64, ops: &[u8], press_at: Option<usize>) -> Vec<usize> {
    let ir = ir();
    let search = Search::new(strategy, seed, &ir);
    let mut arena = Sim {
        states: slab::Slab::new(),
        searcher: search.searcher(0),
        serial: 0,
        last: None,
    };
    let mut next = 0;
    let mut out = Vec::new();
    arena.push(Fake {
        name: next,
        pc: ir.main.entry,
        stuck: false,
    });
    next += 1;
    for (i, &op) in ops.iter().enumerate() {
        if press_at == Some(i) {
            arena.searcher.press();
        }
        if op >= 12 {
            out.extend(arena.steal().map(|s| s.name));
            continue;
        }
        let Some(s) = arena.pop() else { break };
        out.push(s.name);
        let targets: Vec<Pc> = successors(&ir.at(s.pc).instr).collect();
        for k in 0..usize::from(op % 4) {
            let pc = targets
                .get(k % targets.len().max(1))
                .copied()
                .unwrap_or(s.pc);
            arena.push(Fake {
                name: next,
                pc,
                stuck: k == 2,
            });
            next += 1;
        }
    }
    while let Some(s) = arena.pop() {
        out.push(s.name);
    }
    assert_eq!(out.len(), next, "every state leaves once");
    out
}

#[test]
fn random_path_is_deterministic_under_a_seed() {
    let ops: Vec<u8> = (0..400u32).map(|i| (i * 5 % 11 + 1) as u8).collect();
    for s in [Strategy::RandomPath, Strategy::RandomPathBfs] {
        let a = simulate(s, 42, &ops, None);
        assert_eq!(a, simulate(s, 42, &ops, None));
        assert_ne!(
            a,
            simulate(s, 43, &ops, None),
            "another seed, another order"
        );
    }
}

/// A successor of the state with serial `parent` (in these tests ids and
/// serials coincide).
fn child(id: StateId, parent: StateId) -> Info {
    Info {
        serial: id as Serial,
        pc: 0,
        stuck: false,
        parent: Some(Parent {
            serial: parent as Serial,
            pc: 0,
        }),
    }
}

#[test]
fn random_path_favours_the_shallow_state() {
    // One leaf beside a subtree of eight: a uniform choice among states
    // would take the leaf once in nine pops, random-path once in two.
    let mut shallow = 0;
    for seed in 0..400 {
        let mut r = RandomPath::new(seed);
        r.push(0, info(0));
        r.push(1, info(1));
        let mut next = 2;
        let mut leaves = 1;
        while leaves < 8 {
            let got = r.pop().unwrap();
            if got == 0 {
                // Back in its place: a successor of itself.
                r.push(0, child(0, 0));
                continue;
            }
            for _ in 0..2 {
                r.push(next, child(next, got));
                next += 1;
            }
            leaves += 1;
        }
        shallow += usize::from(r.pop() == Some(0));
    }
    assert!((150..250).contains(&shallow), "{shallow} of 400");
}

#[test]
fn the_random_path_tree_shrinks() {
    let mut r = RandomPath::new(7);
    r.push(0, info(0));
    // A million plain steps add no node.
    for id in 1..1_000_000 {
        assert_eq!(r.pop(), Some(id - 1));
        r.push(id, child(id, id - 1));
    }
    assert_eq!(r.nodes(), 2, "the root and one leaf");
    // A binary tree of 4,096 leaves, then every leaf taken.
    let mut next = 1_000_000;
    while r.len() < 4096 {
        let id = r.pop().unwrap();
        for _ in 0..2 {
            r.push(next, child(next, id));
            next += 1;
        }
    }
    assert!(r.nodes() < 2 * 4096 + 2, "{} nodes", r.nodes());
    while r.pop().is_some() {}
    assert_eq!(r.len(), 0);
    assert_eq!(r.nodes(), 1, "only the root");
}

#[test]
fn coverage_prefers_states_near_an_uncovered_side() {
    let ir = wiser_imp::compile("x = *; if x > 0 then y = 1 else y = 2 fi; z = 1; z = 2; z = 3")
        .unwrap();
    let branch = (0..ir.code.len() as Pc)
        .find(|&pc| matches!(ir.at(pc).instr, wiser_ir::Instr::Branch { .. }))
        .unwrap();
    let search = Search::new(Strategy::Coverage, 0, &ir);
    let mut c = search.searcher(0);
    let at = |serial, pc, parent: Option<Pc>| Info {
        serial,
        pc,
        stuck: false,
        parent: parent.map(|pc| Parent { serial: 99, pc }),
    };
    let wiser_ir::Instr::Branch {
        then_to, else_to, ..
    } = ir.at(branch).instr
    else {
        unreachable!()
    };
    // Far from the branch (past it), then on it: the branch goes first.
    c.push(0, at(0, then_to, None));
    c.push(1, at(1, branch, None));
    assert_eq!(c.pop(), Some(1));
    // Taking the then side covers it; the else side is still uncovered.
    c.push(1, at(2, then_to, Some(branch)));
    let cov = search.coverage().unwrap();
    assert!(cov.is_covered(branch, true) && !cov.is_covered(branch, false));
    assert_eq!((cov.covered(), cov.sides()), (2 - 1, 2));
    c.push(2, at(3, branch, None));
    assert_eq!(c.pop(), Some(2));
    c.push(2, at(4, else_to, Some(branch)));
    assert_eq!(cov.covered(), 2);
    // Everything covered: oldest first, and a stuck state before them.
    c.push(
        3,
        Info {
            stuck: true,
            ..at(5, else_to, None)
        },
    );
    assert_eq!(
        (c.pop(), c.pop(), c.pop(), c.pop()),
        (Some(3), Some(0), Some(1), Some(2))
    );
    assert_eq!(c.pop(), None);
}

#[test]
fn interleaving_takes_the_oldest_state_every_other_pop() {
    let ir = ir();
    for strategy in [Strategy::RandomPathBfs, Strategy::CoverageBfs] {
        let search = Search::new(strategy, 3, &ir);
        let mut s = search.searcher(0);
        for i in (0..64).rev() {
            // Serials increase as ids decrease: the oldest is the largest id.
            s.push(i, info(63 - i as u64));
        }
        let mut taken = std::collections::BTreeSet::new();
        for k in 1..=64 {
            let oldest = (0..64).rev().find(|i| !taken.contains(i)).unwrap();
            let id = s.pop().unwrap();
            assert!(taken.insert(id));
            if k % BFS_EVERY as usize == 0 {
                assert_eq!(id, oldest, "{} pop {k}", strategy.name());
            }
        }
        assert!(s.is_empty() && s.pop().is_none());
    }
}

/// Expands a complete binary tree of `depth` levels in `searcher`'s order
/// until it first takes a leaf: how many pops that took, and the largest
/// frontier on the way. With `press_after`, the searcher is pressed after
/// that many pops.
fn first_leaf(
    searcher: Box<dyn Searcher>,
    depth: usize,
    press_after: Option<usize>,
) -> (usize, usize) {
    let mut sim = Sim {
        states: slab::Slab::new(),
        searcher,
        serial: 0,
        last: None,
    };
    // A state's name is its depth.
    let leaf = |name| Fake {
        name,
        pc: 0,
        stuck: false,
    };
    sim.push(leaf(0));
    let mut largest = 0;
    for pops in 1.. {
        if press_after == Some(pops - 1) {
            sim.searcher.press();
        }
        let s = sim.pop().expect("a tree never runs dry before its leaves");
        if s.name == depth {
            return (pops, largest);
        }
        sim.push(leaf(s.name + 1));
        sim.push(leaf(s.name + 1));
        largest = largest.max(sim.searcher.len());
    }
    unreachable!()
}

#[test]
fn pressed_breadth_first_dives_to_a_deep_leaf_holding_few_states() {
    let ir = ir();
    let bfs = || Search::new(Strategy::Bfs, 0, &ir).searcher(0);
    // Breadth-first takes every inner node first: 2^16 - 1 pops, and a
    // whole level of 2^15 states waits.
    assert_eq!(first_leaf(bfs(), 16, None), ((1 << 16), 1 << 16));
    // Pressed from the start, it dives: one pop in FAIR_EVERY goes to an
    // old state instead, so the leaf comes after 16 dives and a fair pop.
    let (pops, largest) = first_leaf(bfs(), 16, Some(0));
    assert_eq!(pops, 16 + 1 + 1, "{pops}");
    assert!(largest <= 16 + 2, "{largest}");
    // Pressed after 1,000 pops, it dives from the newest state of its
    // queue (a level-9 node) and then holds at most what it held, plus
    // the dive's siblings and what the fair pops add.
    let (pops, largest) = first_leaf(bfs(), 16, Some(1000));
    assert!(pops < 1000 + 16, "{pops}");
    assert!(largest <= 1001 + 16 + 2, "{largest}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Whatever the pushes, pops and steals, a complete strategy takes a
    /// state with `m` older states waiting within `BFS_EVERY * (m + 1)`
    /// pops (breadth-first: `m + 1`; pressed breadth-first, which dives,
    /// `2 * FAIR_EVERY * (m + 1)`); every strategy lets every state out
    /// exactly once, pressed or not, whenever it is pressed.
    #[test]
    fn complete_strategies_take_every_state_in_bounded_time(
        ops in proptest::collection::vec(0u8..14, 0..300),
        seed in any::<u64>(),
        press_at in 0usize..300,
    ) {
        for strategy in Strategy::ALL {
            simulate(strategy, seed, &ops, None);
            simulate(strategy, seed, &ops, Some(press_at));
            if strategy.is_complete() {
                check_fairness(strategy, seed, &ops, false)?;
            }
        }
        check_fairness(Strategy::Bfs, seed, &ops, true)?;
    }
}

/// With `pressed`, the searcher is pressed from the start.
fn check_fairness(
    strategy: Strategy,
    seed: u64,
    ops: &[u8],
    pressed: bool,
) -> Result<(), TestCaseError> {
    let ir = ir();
    let search = Search::new(strategy, seed, &ir);
    let mut s = search.searcher(0);
    if pressed {
        s.press();
    }
    let every = match strategy {
        Strategy::Bfs if pressed => 2 * u64::from(FAIR_EVERY),
        Strategy::Bfs => 1,
        _ => u64::from(BFS_EVERY),
    };
    // For each pending id: its serial and the pops it may still wait.
    let mut waiting: std::collections::BTreeMap<StateId, (Serial, u64)> = Default::default();
    let mut serial = 0;
    let mut push = |s: &mut Box<dyn Searcher>,
                    waiting: &mut std::collections::BTreeMap<_, _>,
                    parent: Option<Serial>| {
        let id = (0..).find(|i| !waiting.contains_key(i)).unwrap();
        let older = waiting.len() as u64;
        let parent = parent.map(|serial| Parent { serial, pc: 0 });
        s.push(
            id,
            Info {
                parent,
                ..info(serial)
            },
        );
        waiting.insert(id, (serial, every * (older + 1)));
        serial += 1;
    };
    push(&mut s, &mut waiting, None);
    for &op in ops.iter().chain(std::iter::repeat_n(&0, 1000)) {
        if op >= 12 {
            if let Some(id) = s.steal() {
                prop_assert!(waiting.remove(&id).is_some());
            }
            continue;
        }
        let Some(id) = s.pop() else { break };
        let (popped, _) = waiting.remove(&id).expect("a pending state");
        for (other, (_, budget)) in waiting.iter_mut() {
            prop_assert!(
                *budget > 1,
                "{} (pressed: {pressed}): state {other} still waits",
                strategy.name()
            );
            *budget -= 1;
        }
        for _ in 0..op % 4 {
            push(&mut s, &mut waiting, Some(popped));
        }
    }
    prop_assert!(waiting.is_empty() && s.is_empty());
    Ok(())
}
