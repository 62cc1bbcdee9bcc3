//! What the solver's process tests share (each has `mod support;`).

use wiser_smt::Term;

/// x³ + y³ = z³ over integers above 1 (Fermat: no solution, which Z3
/// cannot prove): Z3 works on it until it is stopped.
pub fn hard_query() -> Vec<Term> {
    let (x, y, z) = (Term::int_var("x"), Term::int_var("y"), Term::int_var("z"));
    let cube = |v: &Term| Term::mul(&Term::mul(v, v), v);
    vec![
        Term::eq(&Term::add(&cube(&x), &cube(&y)), &cube(&z)),
        Term::lt(&Term::int(1), &x),
        Term::lt(&Term::int(1), &y),
        Term::lt(&Term::int(1), &z),
    ]
}
