//! A concrete run tells where each read was made: the `pc` of its
//! `Havoc`, whose span names the source construct (for C, which call of
//! a `__VERIFIER_nondet_*` function).

use wiser_ir::{Instr, ScalarTy};
use wiser_semantics::{concrete, Input};

#[test]
fn each_read_comes_with_the_pc_of_its_havoc() {
    let src = "x: u8 = 0; y = 0;\nx = *;\nif x > 3 then y = * else skip fi;\nx = *";
    let ir = wiser_imp::compile(src).unwrap();
    let line_of = |pc| src[..ir.at(pc).span.lo as usize].matches('\n').count() + 1;
    for (reads, expect_lines) in [(vec![5, 7, 9], vec![2, 3, 4]), (vec![1, 2], vec![2, 4])] {
        let input = Input {
            reads: reads.into_iter().map(Into::into).collect(),
            ..Input::default()
        };
        let run = concrete::run(&ir, &input, 1000);
        assert_eq!(run.read_pcs.len(), run.read_types.len());
        for &pc in &run.read_pcs {
            assert!(matches!(ir.at(pc).instr, Instr::Havoc { .. }));
        }
        let lines: Vec<usize> = run.read_pcs.iter().map(|&pc| line_of(pc)).collect();
        assert_eq!(lines, expect_lines);
        assert_eq!(run.read_types[0], ScalarTy::Int(wiser_num::IntTy::U8));
    }
}
