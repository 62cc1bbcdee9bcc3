fn main() {
    for path in std::env::args().skip(1) {
        let text = std::fs::read_to_string(&path).unwrap();
        let ir = wiser_imp::compile(&text).unwrap();
        let r = wiser_engine::symex(
            &ir,
            &wiser_engine::Config::default()
                .with_all_bugs(true)
                .with_validation(true),
        );
        println!(
            "{:?} bugs {} internal {:?} stats {:?}",
            r.verdict,
            r.bugs.len(),
            r.internal_errors,
            r.stats.branches
        );
    }
}
