//! What running Z3 in a child process costs: the same query sequence,
//! shaped like a symbolic execution, through `Z3Solver` in-process and
//! through `ProcessSolver`, with total times and the overhead per query.
//!
//! ```text
//! cargo run --release -p wiser-smt --example process_cost [queries]
//! ```
//!
//! The sequence is a depth-first exploration of a made-up program over two
//! integers and two 32-bit machine integers: each step updates the
//! variables (so terms grow and share structure) and branches; each query
//! is the path so far plus one side of the branch, so consecutive queries
//! share long prefixes, as in `wiser check`. The example is its own
//! solver process: run with `__solver-server`, it serves the protocol.

use std::time::{Duration, Instant};
use wiser_smt::{
    Answer, BvOp, BvPred, Command, ProcessSolver, Solver, SolverProcesses, SolverStats, Sort, Term,
    Z3Solver,
};

/// Deepest path explored (constraints per query, at most).
const MAX_DEPTH: usize = 40;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn small(&mut self) -> i64 {
        (self.next() % 41) as i64 - 20
    }
}

/// The program's variables along one path.
#[derive(Clone)]
struct State {
    x: Term,
    y: Term,
    a: Term,
    b: Term,
}

impl State {
    fn initial() -> State {
        State {
            x: Term::int_var("x"),
            y: Term::int_var("y"),
            a: Term::var("a", Sort::Bv(32)),
            b: Term::var("b", Sort::Bv(32)),
        }
    }

    /// One step of the made-up program.
    fn step(&self, rng: &mut Rng) -> State {
        let mut s = self.clone();
        match rng.next() % 4 {
            0 => s.x = Term::add(&s.x, &Term::int(rng.small())),
            1 => s.y = Term::add(&s.y, &s.x),
            2 => {
                let k = Term::bv(32, rng.next() % 100);
                s.a = Term::bv_bin(BvOp::Add, &s.a, &k);
            }
            _ => s.b = Term::bv_bin(BvOp::Xor, &s.b, &s.a),
        }
        s
    }

    /// A branch condition on the current values.
    fn condition(&self, rng: &mut Rng) -> Term {
        match rng.next() % 5 {
            0 => Term::lt(&self.x, &Term::int(rng.small() * 10)),
            1 => Term::le(&Term::add(&self.x, &self.y), &Term::int(rng.small())),
            2 => Term::ne(&self.y, &Term::int(rng.small())),
            3 => Term::bv_cmp(BvPred::Ult, &self.a, &Term::bv(32, rng.next() % (1 << 20))),
            _ => Term::bv_cmp(BvPred::Slt, &self.b, &self.a),
        }
    }
}

/// Records the queries of a depth-first exploration (answers by `z3`).
fn explore(z3: &mut Z3Solver, limit: usize, rng: &mut Rng) -> Vec<Vec<Term>> {
    let mut queries = Vec::new();
    // Explicit stack of (path, state) still to branch from.
    let mut stack = vec![(Vec::<Term>::new(), State::initial())];
    while let Some((path, state)) = stack.pop() {
        if queries.len() >= limit {
            break;
        }
        if path.len() >= MAX_DEPTH {
            continue;
        }
        let next = state.step(rng);
        let c = next.condition(rng);
        for side in [Term::not(&c), c] {
            if side.as_bool().is_some() {
                continue;
            }
            let mut query = path.clone();
            query.push(side);
            if let Answer::Sat(_) = z3.solve(&query) {
                stack.push((query.clone(), next.clone()));
            }
            queries.push(query);
        }
    }
    queries
}

fn run(solver: &mut dyn Solver, queries: &[Vec<Term>]) -> (Duration, Vec<Option<bool>>) {
    let start = Instant::now();
    let answers = queries
        .iter()
        .map(|q| match solver.solve(q) {
            Answer::Sat(_) => Some(true),
            Answer::Unsat => Some(false),
            Answer::Unknown(_) => None,
        })
        .collect();
    (start.elapsed(), answers)
}

/// This executable, as a solver process.
fn by_process_command() -> Command {
    Command {
        program: std::env::current_exe().expect("this executable"),
        args: vec!["__solver-server".into()],
        memory_limit: None,
    }
}

fn per_query(d: Duration, n: usize) -> f64 {
    d.as_secs_f64() * 1e6 / n.max(1) as f64
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("__solver-server") {
        if wiser_smt::serve_stdio().is_err() {
            std::process::exit(1);
        }
        return;
    }
    let limit: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(3000);
    let mut rng = Rng(0x5eed_1234_9876_abcd);
    // Z3's context is per thread and keeps every term it has seen: each
    // in-process solver gets a thread of its own, as the child has a
    // process of its own.
    let queries = std::thread::spawn(move || explore(&mut Z3Solver::new(None), limit, &mut rng))
        .join()
        .expect("exploration");
    let n = queries.len();
    let constraints: usize = queries.iter().map(Vec::len).sum();
    println!(
        "{n} queries, {:.1} constraints each on average",
        constraints as f64 / n as f64
    );

    let timeout = Some(Duration::from_secs(10));
    let (inproc, expected, inproc_z3) = std::thread::scope(|scope| {
        scope
            .spawn(|| {
                let mut z3 = Z3Solver::new(timeout);
                let (time, answers) = run(&mut z3, &queries);
                let mut stats = SolverStats::default();
                z3.stats(&mut stats);
                (time, answers, stats.z3_time)
            })
            .join()
            .expect("in-process run")
    });

    let processes = SolverProcesses::new();
    let mut by_process = ProcessSolver::new(by_process_command(), timeout, &processes);
    // The child's start, measured apart: once per worker per run.
    let start = Instant::now();
    by_process.solve(&[]);
    let startup = start.elapsed();
    let (child, got) = run(&mut by_process, &queries);
    let mut stats = SolverStats::default();
    by_process.stats(&mut stats);
    let rss = processes.resident_bytes();

    // Round trips with next to no solving: one short query, already
    // asserted, again and again, on new solvers.
    let same = &queries[0];
    let rounds = 2000;
    let repeated = vec![same.clone(); rounds];
    let (same_in, _) = std::thread::scope(|scope| {
        scope
            .spawn(|| run(&mut Z3Solver::new(timeout), &repeated))
            .join()
            .expect("in-process run")
    });
    let mut fresh = ProcessSolver::new(by_process_command(), timeout, &processes);
    fresh.solve(same);
    let (same_child, _) = run(&mut fresh, &repeated);

    let agree = expected.iter().zip(&got).filter(|(a, b)| a == b).count();
    let sat = expected.iter().filter(|a| **a == Some(true)).count();
    println!(
        "sat {sat}, unsat or unknown {}; the two agree on {agree} of {n}",
        n - sat
    );
    println!(
        "child process start (spawn, Z3 context, ready): {:.1} ms",
        startup.as_secs_f64() * 1e3
    );
    println!(
        "in-process Z3Solver: {:8.1} ms total, {:7.1} µs per query (in Z3 {:.1} ms)",
        inproc.as_secs_f64() * 1e3,
        per_query(inproc, n),
        inproc_z3.as_secs_f64() * 1e3
    );
    println!(
        "ProcessSolver:       {:8.1} ms total, {:7.1} µs per query (in the child's Z3 {:.1} ms)",
        child.as_secs_f64() * 1e3,
        per_query(child, n),
        stats.z3_time.as_secs_f64() * 1e3
    );
    println!(
        "difference:          {:8.1} ms total, {:7.1} µs per query ({:+.1}%)",
        (child.as_secs_f64() - inproc.as_secs_f64()) * 1e3,
        per_query(child, n) - per_query(inproc, n),
        (child.as_secs_f64() / inproc.as_secs_f64() - 1.0) * 100.0
    );
    println!(
        "outside Z3 per query: in-process {:.1} µs, by process {:.1} µs (encoding, pipes, decoding, model check)",
        per_query(inproc.saturating_sub(inproc_z3), n),
        per_query(child.saturating_sub(stats.z3_time), n)
    );
    println!(
        "a repeated query ({} constraint), {rounds} times: in-process {:.1} µs, by process {:.1} µs each",
        same.len(),
        per_query(same_in, rounds),
        per_query(same_child, rounds)
    );
    println!(
        "child resident memory at the end: {:.1} MB",
        rss as f64 / (1 << 20) as f64
    );
}
