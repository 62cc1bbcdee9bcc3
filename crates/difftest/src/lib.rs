//! Differential testing of `wiser`'s bug finder against its concrete
//! interpreter.
//!
//! * [`generate`] (from `wiser-testkit`) makes random programs in the
//!   full language, half of them with machine integers, each with a
//!   [`Spec`] that bounds every input (scalars, array cells, reads) and
//!   says whether signed arithmetic wraps;
//! * [`compare`] runs every input of the specification on the concrete
//!   interpreter and `wiser_engine::symex` (every bug) on the program, and lists
//!   the disagreements;
//! * [`shrink`] (from `wiser-testkit`) reduces a disagreeing program by
//!   delta debugging;
//! * [`run_program`] does all three for one program of a seeded run and
//!   writes the reproducer to the regressions directory.
//!
//! **C mode** ([`Lang::C`], `wiser-difftest --lang c`): the generator
//! makes programs with fixed-width types only ([`GenConfig::for_c`]); each
//! is rendered as IMP *and* as C with the same meaning
//! ([`wiser_testkit::render_c`]: explicit conversions make C's promotions
//! compute what IMP computes, overflow checks included), and
//! [`compare_c`] judges the C front end against the enumeration of the
//! IMP program: every enumerated run replays on the C program's IR to the
//! same end (halt, error kind, failed `assume`), the C search's verdict
//! and bugs agree with the enumeration and with the IMP search, and every
//! C witness, turned back into an IMP input, fails the IMP program the
//! same way. Programs alternate between the ILP32 and LP64 data models.
//! Reproducers are written as `<seed>_<index>.c`, the IMP program in a
//! comment.
//!
//! **Objects and threads** ([`Lang::Objects`], `wiser-difftest --features
//! heap` or `--features threads`): programs with a class, input
//! references and field accesses, or with globals, threads, locks and
//! `atomic` ([`wiser_testkit::objects`]), still as IMP text; see
//! [`compare_objects`] for what is compared (every input heap up to the
//! bound, or every schedule, against the engine with and without
//! partial-order reduction). Reproducers are written as
//! `<features>_<seed>_<index>.imp` in `regressions/objects/`.
//!
//! **Floats** ([`Lang::Float`], `wiser-difftest --features float`, with
//! `--lang c` for C): programs with `f32`/`f64` inputs, arithmetic,
//! conversions to and from `i32` (`float_conversion` errors), comparisons
//! (NaN tests among them), branches, `assume`s and `assert`s, and in C
//! `math.h` calls ([`float_gen`]). Float inputs cannot be enumerated:
//! [`compare_float()`] judges each program on sampled inputs that always
//! include the special values (±0, ±inf, NaN, the smallest and largest
//! subnormal and normal numbers, 1, -1, 0.5) with a judgement sound for
//! sampling; in C mode each sample must also end the same way on the IMP
//! rendering (where there is one). Searches that time out or meet a
//! solver `unknown` are counted apart, and so are sampled failures they
//! left unconfirmed ([`Sampling`]). Reproducers go to `regressions/float/`
//! as `imp_<seed>_<index>.imp` or `c_<seed>_<index>.c`.
//!
//! ```no_run
//! use wiser_difftest::{run_program, Options};
//! let r = run_program(1, 0, &Options::default());
//! assert!(r.disagreements().is_empty());
//! ```
#![warn(missing_docs)]

pub mod compare;
pub mod compare_c;
pub mod compare_float;
pub mod compare_objects;
pub mod float_gen;
pub mod float_program;

pub use compare::{compare, compare_text, Class, Comparison, DisKind, Disagreement, Limits};
pub use compare_c::{compare_c, compile_c, compile_c_text};
pub use compare_float::{compare_float, judge_samples, samples, special_values, Sampling};
pub use compare_objects::compare_objects;
pub use float_gen::{generate_float, FloatProgram};
pub use wiser_c::DataModel;
pub use wiser_testkit::objects::{generate_objects, Features, OProgram};
pub use wiser_testkit::shrink::{self, shrink};
pub use wiser_testkit::{generate, GenConfig, Invalid, Program, Spec};

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;
use wiser_engine::{MergeMode, Strategy};

/// The directory of this crate's regression programs.
pub fn regressions_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("regressions")
}

/// How to test each program.
#[derive(Clone, Debug)]
pub struct Options {
    /// Program sizes.
    pub gen: GenConfig,
    /// Budgets of one comparison.
    pub limits: Limits,
    /// Shrink disagreeing programs (for at most this long each), or not.
    pub shrink: Option<Duration>,
    /// Where reproducers go (`None`: nowhere).
    pub out_dir: Option<PathBuf>,
    /// Which front end is tested.
    pub lang: Lang,
}

/// Which front end the differential tester judges.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Lang {
    /// IMP programs through `wiser-imp`.
    #[default]
    Imp,
    /// The same programs (fixed-width types only) rendered as C, through
    /// `wiser-c` (see the crate documentation).
    C,
    /// IMP programs with objects or with threads
    /// ([`wiser_testkit::objects`]).
    Objects(Features),
    /// Float programs ([`float_gen`]), judged on sampled inputs
    /// ([`compare_float()`]): their IMP rendering, or with `c` their C
    /// rendering (with `math.h` calls).
    Float {
        /// The C front end rather than IMP's.
        c: bool,
    },
}

/// The data model of C-mode program `index`: ILP32 and LP64 in turn.
pub fn data_model_for(index: u64) -> DataModel {
    if index % 2 == 1 {
        DataModel::Lp64
    } else {
        DataModel::Ilp32
    }
}

impl Default for Options {
    fn default() -> Self {
        Options {
            gen: GenConfig::standard(),
            limits: Limits::default(),
            shrink: Some(Duration::from_secs(120)),
            out_dir: Some(regressions_dir()),
            lang: Lang::Imp,
        }
    }
}

/// The search strategy for program `index`: every third one depth-first
/// (every generated program is finite, so both searches are exhaustive).
pub fn strategy_for(index: u64) -> Strategy {
    if index % 3 == 2 {
        Strategy::Dfs
    } else {
        Strategy::Bfs
    }
}

/// State merging for program `index`: every fourth one merges at joins,
/// every fourth (another) where merging pays (seed 003: merged states must
/// stay precise and exhaustive).
pub fn merge_for(index: u64) -> MergeMode {
    match index % 4 {
        1 => MergeMode::Joins,
        3 => MergeMode::Auto,
        _ => MergeMode::None,
    }
}

/// The strategy's name.
pub fn strategy_name(s: Strategy) -> &'static str {
    s.name()
}

/// What happened to one program.
#[derive(Debug)]
pub struct ProgramResult {
    /// Its number in the run.
    pub index: u64,
    /// The strategy used.
    pub strategy: Strategy,
    /// Its source.
    pub source: String,
    /// Does it use machine integers?
    pub typed: bool,
    /// The comparison, or why there was none.
    pub result: Result<Comparison, Invalid>,
    /// The shrunk reproducer (source) and where it was written.
    pub reproducer: Option<(String, Option<PathBuf>)>,
}

impl ProgramResult {
    /// The disagreements (none if the program could not be compared).
    pub fn disagreements(&self) -> &[Disagreement] {
        match &self.result {
            Ok(c) => &c.disagreements,
            Err(_) => &[],
        }
    }
}

/// The reproducer file for a shrunk program.
pub fn reproducer_text(seed: u64, index: u64, p: &Program, dis: &[Disagreement]) -> String {
    let header = format!(
        "# wiser-difftest reproducer: seed {seed}, program {index}, strategy {}, merge {}",
        strategy_name(strategy_for(index)),
        merge_for(index).name()
    );
    commented_imp(&header, dis, &p.source())
}

/// An IMP reproducer: the `header` line, each disagreement in `#`
/// comments, then the program's `source`.
fn commented_imp(header: &str, dis: &[Disagreement], source: &str) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "{header}");
    for d in dis {
        for (k, line) in d.to_string().lines().enumerate() {
            let lead = if k == 0 { "# disagreement: " } else { "#   " };
            let _ = writeln!(s, "{lead}{line}");
        }
    }
    s.push_str(source);
    s
}

/// The C-mode reproducer: the C text, with the disagreements and the IMP
/// program in a comment.
pub fn c_reproducer_text(seed: u64, index: u64, p: &Program, dis: &[Disagreement]) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "/* wiser-difftest --lang c reproducer: seed {seed}, program {index}, strategy {}, merge {}, data model {:?}",
        strategy_name(strategy_for(index)),
        merge_for(index).name(),
        data_model_for(index)
    );
    for d in dis {
        for line in d.to_string().lines() {
            let _ = writeln!(s, " * {}", line.replace("*/", "* /"));
        }
    }
    s.push_str(" *\n * The IMP program:\n");
    for line in p.source().lines() {
        let _ = writeln!(s, " *   {line}");
    }
    s.push_str(" */\n");
    match wiser_testkit::render_c(p) {
        Ok(c) => s.push_str(&c.text),
        Err(e) => {
            let _ = writeln!(s, "/* {e} */");
        }
    }
    s
}

/// Compares program `p` (number `index`) in the tested language.
fn compare_in(p: &Program, index: u64, opts: &Options) -> Result<Comparison, Invalid> {
    let strategy = strategy_for(index);
    match opts.lang {
        Lang::Imp => compare(
            &p.source(),
            &p.spec,
            strategy,
            merge_for(index),
            &opts.limits,
        ),
        Lang::C => compare_c(
            p,
            strategy,
            merge_for(index),
            &opts.limits,
            data_model_for(index),
        ),
        Lang::Objects(_) | Lang::Float { .. } => {
            unreachable!("objects and float programs have their own run")
        }
    }
}

/// The reproducer of a heap or thread program.
pub fn objects_reproducer_text(
    seed: u64,
    index: u64,
    p: &OProgram,
    dis: &[Disagreement],
) -> String {
    let header = format!(
        "# wiser-difftest --features {} reproducer: seed {seed}, program {index}, strategy {}, merge {}",
        p.features.name(),
        strategy_name(strategy_for(index)),
        merge_for(index).name()
    );
    commented_imp(&header, dis, &p.source())
}

/// On a disagreement in `result` (the comparison of `prog`), the program
/// to report and its disagreements: `prog` shrunk by `shrink` for at most
/// `budget` while `compare` still finds the first disagreement's kind, or
/// `prog` itself without a budget.
fn reproducer_of<P: Clone>(
    result: &Result<Comparison, Invalid>,
    prog: &P,
    budget: Option<Duration>,
    shrink: impl FnOnce(&P, Duration, &mut dyn FnMut(&P) -> bool) -> P,
    compare: impl Fn(&P) -> Result<Comparison, Invalid>,
) -> Option<(P, Vec<Disagreement>)> {
    let c = result.as_ref().ok()?;
    let kind = c.disagreements.first()?.kind;
    Some(match budget {
        Some(budget) => {
            let small = shrink(prog, budget, &mut |cand| {
                compare(cand).is_ok_and(|c| c.kinds().contains(&kind))
            });
            let dis = compare(&small)
                .map(|c| c.disagreements)
                .unwrap_or_else(|_| c.disagreements.clone());
            (small, dis)
        }
        None => (prog.clone(), c.disagreements.clone()),
    })
}

/// Writes a reproducer's `text` to the file `name` in `dir` (created if
/// needed), if there is a directory: the path written, if any.
fn write_reproducer(dir: Option<PathBuf>, name: String, text: &str) -> Option<PathBuf> {
    let dir = dir?;
    std::fs::create_dir_all(&dir).ok()?;
    let path = dir.join(name);
    std::fs::write(&path, text).ok()?;
    Some(path)
}

/// [`run_program`] for heap and thread programs.
fn run_objects(seed: u64, index: u64, features: Features, opts: &Options) -> ProgramResult {
    let prog = generate_objects(seed, index, features);
    let strategy = strategy_for(index);
    let merge = merge_for(index);
    let compare = |p: &OProgram| compare_objects(p, strategy, merge, &opts.limits);
    let result = compare(&prog);
    let shrink_prog = |p: &OProgram, budget, keep: &mut dyn FnMut(&OProgram) -> bool| {
        wiser_testkit::objects::shrink_objects(p, budget, keep).0
    };
    let reproducer =
        reproducer_of(&result, &prog, opts.shrink, shrink_prog, compare).map(|(small, dis)| {
            let text = objects_reproducer_text(seed, index, &small, &dis);
            let dir = opts.out_dir.as_ref().map(|dir| dir.join("objects"));
            let path = write_reproducer(
                dir,
                format!("{}_{seed}_{index}.imp", features.name()),
                &text,
            );
            (text, path)
        });
    ProgramResult {
        index,
        strategy,
        source: prog.source(),
        typed: false,
        result,
        reproducer,
    }
}

/// The reproducer of a float program: its IMP text (or with `c` its C
/// text) with a header and the disagreements in comments.
pub fn float_reproducer_text(
    seed: u64,
    index: u64,
    c: bool,
    p: &FloatProgram,
    dis: &[Disagreement],
) -> String {
    let header = format!(
        "wiser-difftest --features float{} reproducer: seed {seed}, program {index}, strategy {}, merge {}{}",
        if c { " --lang c" } else { "" },
        strategy_name(strategy_for(index)),
        merge_for(index).name(),
        if c {
            format!(", data model {:?}", data_model_for(index))
        } else {
            String::new()
        }
    );
    match (c, p.imp()) {
        (false, Some(imp)) => commented_imp(&format!("# {header}"), dis, &imp),
        _ => {
            let mut s = format!("/* {header}\n");
            for d in dis {
                for line in d.to_string().lines() {
                    let _ = writeln!(s, " * {}", line.replace("*/", "* /"));
                }
            }
            s.push_str(" */\n");
            s.push_str(&p.c());
            s
        }
    }
}

/// Removes statements of `p` one at a time, for at most `budget`, while
/// `keep` holds of the smaller program.
fn shrink_float(
    p: &FloatProgram,
    budget: Duration,
    keep: &mut dyn FnMut(&FloatProgram) -> bool,
) -> FloatProgram {
    let start = std::time::Instant::now();
    let mut best = p.clone();
    let mut k = 0;
    while k < best.statements() && start.elapsed() < budget {
        match best.without(k) {
            Some(smaller) if keep(&smaller) => best = smaller,
            _ => k += 1,
        }
    }
    best
}

/// [`run_program`] for float programs.
fn run_float(seed: u64, index: u64, c: bool, opts: &Options) -> ProgramResult {
    let prog = generate_float(seed, index, c);
    let strategy = strategy_for(index);
    let merge = merge_for(index);
    let sample_seed = seed ^ index.wrapping_mul(0x9e37_79b9);
    let compare = |p: &FloatProgram| {
        compare_float(
            p,
            c,
            data_model_for(index),
            sample_seed,
            strategy,
            merge,
            &opts.limits,
        )
    };
    let result = compare(&prog);
    let reproducer =
        reproducer_of(&result, &prog, opts.shrink, shrink_float, compare).map(|(small, dis)| {
            let text = float_reproducer_text(seed, index, c, &small, &dis);
            let dir = opts.out_dir.as_ref().map(|dir| dir.join("float"));
            let (lang, ext) = if c { ("c", "c") } else { ("imp", "imp") };
            let path = write_reproducer(dir, format!("{lang}_{seed}_{index}.{ext}"), &text);
            (text, path)
        });
    ProgramResult {
        index,
        strategy,
        source: if c {
            prog.c()
        } else {
            prog.imp().unwrap_or_default()
        },
        typed: false,
        result,
        reproducer,
    }
}

/// Generates program `index` of the run with `seed`, compares, and on a
/// disagreement shrinks it and writes `<seed>_<index>.imp` (`.c` in C
/// mode).
pub fn run_program(seed: u64, index: u64, opts: &Options) -> ProgramResult {
    if let Lang::Objects(features) = opts.lang {
        return run_objects(seed, index, features, opts);
    }
    if let Lang::Float { c } = opts.lang {
        return run_float(seed, index, c, opts);
    }
    let mut gen = opts.gen.clone();
    if opts.lang == Lang::C {
        gen = gen.for_c();
    }
    let prog = generate(seed, index, &gen);
    let compare = |p: &Program| compare_in(p, index, opts);
    let result = compare(&prog);
    let shrink_prog =
        |p: &Program, budget, keep: &mut dyn FnMut(&Program) -> bool| shrink(p, budget, keep).0;
    let reproducer =
        reproducer_of(&result, &prog, opts.shrink, shrink_prog, compare).map(|(small, dis)| {
            let (text, ext) = match opts.lang {
                Lang::C => (c_reproducer_text(seed, index, &small, &dis), "c"),
                _ => (reproducer_text(seed, index, &small, &dis), "imp"),
            };
            let path =
                write_reproducer(opts.out_dir.clone(), format!("{seed}_{index}.{ext}"), &text);
            (text, path)
        });
    ProgramResult {
        index,
        strategy: strategy_for(index),
        source: prog.source(),
        typed: prog.is_typed(),
        result,
        reproducer,
    }
}

/// Counts of programs by class.
#[derive(Clone, Debug, Default)]
pub struct ClassCounts {
    /// Programs.
    pub programs: u64,
    /// Programs no input fails.
    pub safe: u64,
    /// Programs where fewer than 1% of the runs fail.
    pub rare: u64,
    /// Programs where at least 1% of the runs fail.
    pub common: u64,
    /// Programs whose search was not exhaustive.
    pub unknowns: u64,
    /// Programs with a disagreement.
    pub disagreements: u64,
}

impl ClassCounts {
    fn add(&mut self, c: &Comparison) {
        self.programs += 1;
        match c.class {
            Class::Safe => self.safe += 1,
            Class::Rare => self.rare += 1,
            Class::Common => self.common += 1,
        }
        self.unknowns += u64::from(c.unknown());
        self.disagreements += u64::from(!c.disagreements.is_empty());
    }
}

/// Counts over a run.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// Programs generated.
    pub programs: u64,
    /// Programs no input fails.
    pub safe: u64,
    /// Programs where fewer than 1% of the runs fail.
    pub rare: u64,
    /// Programs where at least 1% of the runs fail.
    pub common: u64,
    /// Programs with a disagreement.
    pub disagreements: u64,
    /// Programs whose search was not exhaustive.
    pub unknowns: u64,
    /// Why searches were not exhaustive (a program may count under
    /// several reasons).
    pub incomplete: std::collections::BTreeMap<&'static str, u64>,
    /// Programs that could not be compared (generator problems).
    pub invalid: u64,
    /// Thread programs with too many schedules to enumerate (not
    /// compared; counted among the unknowns too).
    pub skipped: u64,
    /// Of the programs, those that use machine integers: counted by
    /// class like all programs (`programs` is their number).
    pub typed: ClassCounts,
    /// Programs where some input reaches an error of each kind.
    pub reached: std::collections::BTreeMap<&'static str, u64>,
    /// Float mode: programs where an incomplete search did not report
    /// some place a sample fails at (undecided, not agreement).
    pub unconfirmed: u64,
    /// Float mode: programs where the engine reports a bug (its witness
    /// replays) that no sample reaches.
    pub beyond_samples: u64,
    /// Concrete runs.
    pub runs: u64,
    /// Symbolic states.
    pub states: u64,
    /// Time enumerating.
    pub enum_time: Duration,
    /// Time in `check`.
    pub engine_time: Duration,
}

impl Summary {
    /// Adds one program.
    pub fn add(&mut self, r: &ProgramResult) {
        self.programs += 1;
        match &r.result {
            Err(_) => self.invalid += 1,
            Ok(c) if c.skipped => {
                self.skipped += 1;
                self.unknowns += 1;
                self.enum_time += c.enum_time;
            }
            Ok(c) => {
                match c.class {
                    Class::Safe => self.safe += 1,
                    Class::Rare => self.rare += 1,
                    Class::Common => self.common += 1,
                }
                if !c.disagreements.is_empty() {
                    self.disagreements += 1;
                }
                if c.unknown() {
                    self.unknowns += 1;
                }
                for why in &c.incomplete {
                    *self.incomplete.entry(why.name()).or_default() += 1;
                }
                if r.typed {
                    self.typed.add(c);
                }
                for kind in &c.reached {
                    *self.reached.entry(kind.name()).or_default() += 1;
                }
                if let Some(s) = &c.sampling {
                    self.unconfirmed += u64::from(s.unconfirmed > 0);
                    self.beyond_samples += u64::from(s.beyond > 0);
                }
                self.runs += c.runs;
                self.states += c.states;
                self.enum_time += c.enum_time;
                self.engine_time += c.engine_time;
            }
        }
    }
}
