//! The input heap's bound (`Options::max_objects`) bounds the symbolic
//! search only: a concrete run is given its heap and runs it whole.

use std::sync::Arc;
use wiser_num::Int;
use wiser_semantics::concrete::{self, Outcome};
use wiser_semantics::{ArrayInput, Input, Options};

/// Seed 001's aliasing example: `x.f` is 1 after `x.f = 1; y.f = 2`
/// unless `x` and `y` are one object.
const ALIAS: &str = "class C begin f: int end\nvar x: C;\nvar y: C;\nassume x != null and y != null;\nx.f = 1;\ny.f = 2;\nassert x.f == 1\n";

fn heap(x: i64, y: i64) -> Input {
    Input {
        vars: vec![
            (Arc::from("x"), Int::from(x)),
            (Arc::from("y"), Int::from(y)),
        ],
        arrays: vec![(Arc::from("C.f"), ArrayInput::default())],
        ..Input::default()
    }
}

#[test]
fn a_concrete_run_is_never_cut_by_the_heap_bound() {
    let ir = wiser_imp::compile(ALIAS).unwrap();
    for max_objects in [None, Some(0), Some(1), Some(2)] {
        let options = Options {
            max_objects,
            ..Options::default()
        };
        // Two objects: the assertion holds. One object, twice: it fails.
        let two = concrete::run_with(&ir, &heap(1, 2), 1000, options);
        assert!(
            matches!(two.outcome, Outcome::Halted),
            "{max_objects:?}: {:?}",
            two.outcome
        );
        let one = concrete::run_with(&ir, &heap(5, 5), 1000, options);
        assert!(
            matches!(one.outcome, Outcome::Error { .. }),
            "{max_objects:?}: {:?}",
            one.outcome
        );
    }
}
