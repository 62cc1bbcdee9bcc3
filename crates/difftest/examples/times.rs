use std::time::Duration;
use wiser_difftest::{run_program, GenConfig, Limits, Options};
fn main() {
    let opts = Options {
        gen: GenConfig::small(),
        limits: Limits {
            timeout: Duration::from_secs(10),
            solver_timeout: Duration::from_secs(2),
            ..Limits::default()
        },
        shrink: None,
        out_dir: None,
        ..Options::default()
    };
    let seed: u64 = std::env::args().nth(1).unwrap().parse().unwrap();
    let n: u64 = std::env::args().nth(2).unwrap().parse().unwrap();
    for i in 0..n {
        let t = std::time::Instant::now();
        let r = run_program(seed, i, &opts);
        let c = r
            .result
            .as_ref()
            .map(|c| (c.class, c.verdict, c.incomplete.clone(), c.states))
            .ok();
        println!(
            "{i} typed {} {:.2}s {:?}",
            r.typed,
            t.elapsed().as_secs_f64(),
            c
        );
    }
}
