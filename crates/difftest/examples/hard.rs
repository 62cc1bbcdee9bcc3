fn main() {
    let path = std::env::args().nth(1).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let limits = wiser_difftest::Limits {
        timeout: std::time::Duration::from_secs(8),
        solver_timeout: std::time::Duration::from_secs(2),
        ..Default::default()
    };
    match wiser_difftest::compare_text(
        &text,
        wiser_engine::Strategy::Bfs,
        wiser_engine::MergeMode::None,
        &limits,
    ) {
        Err(e) => println!("invalid {e}"),
        Ok(c) => println!(
            "verdict {:?} incomplete {:?} dis {}",
            c.verdict,
            c.incomplete,
            c.disagreements.len()
        ),
    }
}
