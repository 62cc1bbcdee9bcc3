//! `wiser-difftest --seed S --count N [--verbose] [--lang imp|c]`:
//! generates N programs from seed S, compares `wiser`'s bug finder with
//! enumeration on each, and prints a summary. `--lang c` (or `--c`) tests
//! the C front end: each program (fixed-width types only) is rendered as
//! C with the same meaning and judged against the enumeration of its IMP
//! rendering (see the crate documentation). Disagreeing programs are shrunk and written to the
//! regressions directory; the exit code is 1 if there was any, or if a
//! generated program could not be compared (a generator bug: its source
//! and the reason are printed).
//!
//! `--features heap` tests programs with objects (input references and
//! heaps up to a bound), `--features threads` programs with threads (every
//! schedule, the engine with and without partial-order reduction); see
//! the crate documentation.
//!
//! `--features float` tests float programs (`f32`/`f64` inputs, with
//! `math.h` calls under `--lang c`), judged on sampled inputs that
//! include every special value; the summary counts apart the programs
//! whose incomplete search left a sampled failure unconfirmed, and those
//! where the engine found a bug no sample reaches.

use clap::Parser;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};
use wiser_difftest::{
    run_program, Class, Features, GenConfig, Lang, Options, ProgramResult, Summary,
};

#[derive(Parser, Debug)]
#[command(
    name = "wiser-difftest",
    about = "Differential tester of wiser's bug finder"
)]
struct Args {
    /// Seed of the run.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Number of programs.
    #[arg(long, default_value_t = 100)]
    count: u64,
    /// Number of the first program (to resume or replay one).
    #[arg(long, default_value_t = 0)]
    start: u64,
    /// One line per program; the source of programs that disagree.
    #[arg(long)]
    verbose: bool,
    /// Worker threads.
    #[arg(long, default_value_t = 1)]
    jobs: usize,
    /// Smaller programs (as in the crate's tests).
    #[arg(long)]
    small: bool,
    /// Do not shrink disagreeing programs.
    #[arg(long)]
    no_shrink: bool,
    /// Where reproducers go (default: the crate's regressions directory).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Wall-time limit of one symbolic search, in seconds.
    #[arg(long, default_value_t = 30)]
    timeout: u64,
    /// Print the source of program `--start` and exit (its C rendering
    /// with `--lang c`).
    #[arg(long)]
    print: bool,
    /// The front end under test: `imp`, or `c` (programs rendered as C).
    #[arg(long, value_parser = ["imp", "c"], default_value = "imp")]
    lang: String,
    /// Short for `--lang c`.
    #[arg(long)]
    c: bool,
    /// Programs with objects (`heap`) or with threads (`threads`), in IMP;
    /// or float programs (`float`), in IMP or (with `--lang c`) in C.
    #[arg(long, value_parser = ["heap", "threads", "float"])]
    features: Option<String>,
}

fn class_name(r: &ProgramResult) -> String {
    match &r.result {
        Err(e) => format!("invalid ({e})"),
        Ok(c) if c.skipped => "skipped (too many schedules to enumerate)".to_string(),
        Ok(c) => {
            let class = match c.class {
                Class::Safe => "safe",
                Class::Rare => "rare-bug",
                Class::Common => "common-bug",
            };
            format!(
                "{class:10} verdict {:?}{} runs {} failing {} states {} enum {:.2}s engine {:.2}s",
                c.verdict,
                if c.incomplete.is_empty() {
                    String::new()
                } else {
                    format!(" (incomplete: {:?})", c.incomplete)
                },
                c.runs,
                c.failing,
                c.states,
                c.enum_time.as_secs_f64(),
                c.engine_time.as_secs_f64()
            )
        }
    }
}

fn main() {
    let args = Args::parse();
    let mut opts = Options::default();
    if args.small {
        opts.gen = GenConfig::small();
    }
    if args.no_shrink {
        opts.shrink = None;
    }
    if let Some(dir) = &args.out {
        opts.out_dir = Some(dir.clone());
    }
    opts.limits.timeout = Duration::from_secs(args.timeout);
    if args.c || args.lang == "c" {
        opts.lang = Lang::C;
    }
    match args.features.as_deref() {
        Some("heap") => opts.lang = Lang::Objects(Features::Heap),
        Some("threads") => opts.lang = Lang::Objects(Features::Threads),
        Some("float") => {
            opts.lang = Lang::Float {
                c: opts.lang == Lang::C,
            }
        }
        _ => {}
    }
    if args.print {
        match opts.lang {
            Lang::Imp => print!(
                "{}",
                wiser_difftest::generate(args.seed, args.start, &opts.gen).source()
            ),
            Lang::Float { c } => {
                let p = wiser_difftest::generate_float(args.seed, args.start, c);
                match (c, p.imp()) {
                    (false, Some(imp)) => print!("{imp}"),
                    _ => print!("{}", p.c()),
                }
            }
            Lang::Objects(f) => print!(
                "{}",
                wiser_difftest::generate_objects(args.seed, args.start, f)
            ),
            Lang::C => {
                let p = wiser_difftest::generate(args.seed, args.start, &opts.gen.clone().for_c());
                print!("{}", p.source());
                match wiser_testkit::render_c(&p) {
                    Ok(c) => print!("\n{}", c.text),
                    Err(e) => println!("\n{e}"),
                }
            }
        }
        return;
    }

    let start = Instant::now();
    let next = AtomicU64::new(args.start);
    let end = args.start + args.count;
    let summary = Mutex::new(Summary::default());
    let bad = Mutex::new(Vec::new());
    let report = |r: ProgramResult| {
        let dis = r.disagreements();
        let invalid = r.result.is_err();
        if args.verbose || !dis.is_empty() || invalid {
            println!(
                "program {} [{}] {}",
                r.index,
                wiser_difftest::strategy_name(r.strategy),
                class_name(&r)
            );
        }
        if !dis.is_empty() {
            for d in dis {
                println!("  DISAGREEMENT {d}");
            }
            if let Some((text, path)) = &r.reproducer {
                match path {
                    Some(p) => println!("  reproducer written to {}", p.display()),
                    None => println!("  reproducer:\n{text}"),
                }
                if args.verbose {
                    println!("{text}");
                }
            }
            bad.lock().expect("lock").push(r.index);
        }
        if invalid {
            println!(
                "  generator bug: this program cannot be compared:\n{}",
                r.source
            );
        }
        summary.lock().expect("lock").add(&r);
    };
    std::thread::scope(|s| {
        for _ in 0..args.jobs.max(1) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= end {
                    break;
                }
                report(run_program(args.seed, i, &opts));
            });
        }
    });
    let s = summary.into_inner().expect("lock");
    let elapsed = start.elapsed();
    println!(
        "seed {}: programs {}, safe {}, rare-bug {}, common-bug {}, disagreements {}, unknowns {}, invalid {}, time {:.1}s",
        args.seed,
        s.programs,
        s.safe,
        s.rare,
        s.common,
        s.disagreements,
        s.unknowns,
        s.invalid,
        elapsed.as_secs_f64()
    );
    println!(
        "  concrete runs {}, symbolic states {}, enumeration {:.1}s, engine {:.1}s",
        s.runs,
        s.states,
        s.enum_time.as_secs_f64(),
        s.engine_time.as_secs_f64()
    );
    let t = &s.typed;
    if !matches!(opts.lang, Lang::Float { .. }) {
        println!(
            "  machine-integer programs {}: safe {}, rare-bug {}, common-bug {}, disagreements {}, unknowns {}",
            t.programs, t.safe, t.rare, t.common, t.disagreements, t.unknowns
        );
    }
    if !s.reached.is_empty() {
        let kinds: Vec<String> = s.reached.iter().map(|(k, n)| format!("{k} {n}")).collect();
        println!("  programs reaching each error kind: {}", kinds.join(", "));
    }
    if let Lang::Float { .. } = opts.lang {
        println!(
            "  sampled failures an incomplete search left unconfirmed: {} programs; bugs found beyond the samples: {} programs",
            s.unconfirmed, s.beyond_samples
        );
    }
    if s.skipped > 0 {
        println!(
            "  too many schedules to enumerate (not compared, counted as unknowns): {}",
            s.skipped
        );
    }
    if !s.incomplete.is_empty() {
        let reasons: Vec<String> = s
            .incomplete
            .iter()
            .map(|(k, n)| format!("{k} {n}"))
            .collect();
        println!("  not exhaustive: {}", reasons.join(", "));
    }
    let mut bad = bad.into_inner().expect("lock");
    if !bad.is_empty() {
        bad.sort();
        println!("  disagreeing programs: {bad:?}");
    }
    if !bad.is_empty() || s.invalid > 0 {
        std::process::exit(1);
    }
}
