//! What deciding a chain of comparisons costs, as a sorting loop's path
//! condition holds one: `a1 <=s a0, …, a(n-1) <=s a(n-2)`, then `a1 <s a0`
//! (satisfiable). Each length is asked of Z3 as bit-vectors and through
//! `OrderAsIntegers` (as integers), on fresh solvers with a 10 s limit per
//! query, and the answers and times are printed.
//!
//! ```text
//! cargo run --release -p wiser-smt --example order_chain [n ...]
//! ```
//!
//! Without arguments the lengths are 100, 1000, 3000 and 10000.

use std::time::{Duration, Instant};
use wiser_smt::{Answer, BvPred, OrderAsIntegers, Solver, Sort, Term, Z3Solver};

fn chain(n: usize) -> Vec<Term> {
    let a = |i: usize| Term::var(format!("a{i}"), Sort::Bv(32));
    let mut query: Vec<Term> = (1..n)
        .map(|i| Term::bv_cmp(BvPred::Sle, &a(i), &a(i - 1)))
        .collect();
    query.push(Term::bv_cmp(BvPred::Slt, &a(1), &a(0)));
    query
}

fn answer(a: &Answer) -> &'static str {
    match a {
        Answer::Sat(_) => "sat",
        Answer::Unsat => "unsat",
        Answer::Unknown(_) => "unknown",
    }
}

fn main() {
    let lengths: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("a chain length"))
        .collect();
    let lengths = if lengths.is_empty() {
        vec![100, 1000, 3000, 10000]
    } else {
        lengths
    };
    let limit = Some(Duration::from_secs(10));
    println!("links    bit-vectors            integers");
    for n in lengths {
        let query = chain(n);
        let start = Instant::now();
        let bv = Z3Solver::new(limit).solve(&query);
        let bv_time = start.elapsed();
        let start = Instant::now();
        let int = OrderAsIntegers::new(Z3Solver::new(limit)).solve(&query);
        let int_time = start.elapsed();
        println!(
            "{n:>6}   {:<7} {:>8.2} s       {:<7} {:>8.2} s",
            answer(&bv),
            bv_time.as_secs_f64(),
            answer(&int),
            int_time.as_secs_f64()
        );
    }
}
