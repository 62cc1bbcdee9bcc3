fn main() {
    for path in std::env::args().skip(1) {
        let text = std::fs::read_to_string(&path).unwrap();
        for s in [wiser_engine::Strategy::Bfs, wiser_engine::Strategy::Dfs] {
            match wiser_difftest::compare_text(
                &text,
                s,
                wiser_engine::MergeMode::None,
                &wiser_difftest::Limits::default(),
            ) {
                Err(e) => println!("{path}: invalid {e}"),
                Ok(c) => {
                    println!(
                        "{path} {s:?}: verdict {:?} runs {} failing {} incomplete {:?}",
                        c.verdict, c.runs, c.failing, c.incomplete
                    );
                    for d in &c.disagreements {
                        println!("  {d}");
                    }
                }
            }
        }
    }
}
