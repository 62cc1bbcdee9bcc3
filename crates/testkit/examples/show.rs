fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|s| s.parse().unwrap())
        .collect();
    let cfg = wiser_testkit::GenConfig::standard();
    for i in args[1]..args[2] {
        let p = wiser_testkit::generate(args[0], i, &cfg);
        println!("==== {i} typed={}\n{}", p.is_typed(), p.source());
    }
}
