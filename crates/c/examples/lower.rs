//! Prints the IR of a C file: `cargo run -p wiser-c --example lower FILE.c`
//! (`--lp64` for the LP64 data model), with the time parsing and lowering
//! took.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.iter().find(|a| !a.starts_with("--")) else {
        eprintln!("usage: lower FILE.c [--lp64] [--quiet]");
        std::process::exit(2);
    };
    let options = wiser_c::Options {
        data_model: if args.iter().any(|a| a == "--lp64") {
            wiser_c::DataModel::Lp64
        } else {
            wiser_c::DataModel::Ilp32
        },
        ..Default::default()
    };
    let mut sources = wiser_ir::Sources::new();
    let start = std::time::Instant::now();
    let result = wiser_c::compile_file(&mut sources, std::path::Path::new(path), &options);
    let elapsed = start.elapsed();
    match result {
        Ok(c) => {
            for w in &c.warnings {
                eprint!("{}", sources.render_warning(w));
            }
            if !args.iter().any(|a| a == "--quiet") {
                print!("{}", c.ir);
            }
            eprintln!(
                "{} instructions in {:.1} ms",
                c.ir.code.len(),
                elapsed.as_secs_f64() * 1e3
            );
        }
        Err(d) => {
            eprint!("{}", sources.render(&d));
            eprintln!("failed after {:.1} ms", elapsed.as_secs_f64() * 1e3);
            std::process::exit(2);
        }
    }
}
