//! `WISER_CVC5` names the cvc5 a `Z3Solver` asks (looked up once per
//! process, hence a test binary of its own): a path where nothing runs
//! makes every float query fall back to Z3, which still answers.

use wiser_num::{CmpOp, FBinOp, FloatOp, FloatTy};
use wiser_smt::{Answer, Cvc5, Solver, SolverStats, Sort, Term, Z3Solver};

#[test]
fn a_bogus_wiser_cvc5_falls_back_to_z3() {
    // The only test in this binary: nothing has looked the variable up.
    std::env::set_var("WISER_CVC5", "/nonexistent/cvc5");
    assert_eq!(Cvc5::from_env(), Some(Cvc5::at("/nonexistent/cvc5")));
    let x = Term::var("x", Sort::Bv(32));
    let c = |v: f32| Term::bv(32, u64::from(v.to_bits()));
    let t = FloatTy::F32;
    let sum = Term::fp(FloatOp::Binary(FBinOp::Add, t), &[x, c(1.0)]);
    let query = [Term::fp(FloatOp::Cmp(CmpOp::Eq, t), &[sum, c(3.0)])];
    let mut s = Z3Solver::new(None);
    s.set_bitwuzla(None);
    match s.solve(&query) {
        Answer::Sat(m) => assert!(query.iter().all(|q| m.holds(q))),
        other => panic!("{other:?}"),
    }
    let mut st = SolverStats::default();
    s.stats(&mut st);
    assert_eq!((st.cvc5_queries, st.cvc5_fallbacks, st.z3_sat), (1, 1, 1));
}
