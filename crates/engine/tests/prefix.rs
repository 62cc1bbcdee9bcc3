//! A bug found by a run carries the prefix of its path, from which
//! another process (a distributed run's coordinator) confirms it again.

use wiser_engine::prefix::confirm_prefix;
use wiser_engine::{symex, Config};

#[test]
fn a_bugs_prefix_confirms_it_again() {
    let ir =
        wiser_imp::compile("if x > 5 then if x < 9 then assert x != 7 else skip fi else skip fi")
            .unwrap();
    let report = symex(&ir, &Config::default().with_jobs(1).with_trails(true));
    let bug = &report.bugs[0];
    let prefix = bug.prefix.clone().expect("a bug carries its prefix");
    let again = confirm_prefix(&ir, &Config::default(), &prefix, None)
        .unwrap()
        .expect("the bug is confirmed");
    assert_eq!((again.kind, again.span), (bug.kind, bug.span));
    assert_eq!(again.input, bug.input);
    assert_eq!(again.path_condition, bug.path_condition);
}
