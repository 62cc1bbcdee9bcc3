//! C's conversion rules against gcc: for every pair of integer types and
//! every operator, small C programs compute expressions on operand values
//! at the edges of their types; gcc (`-m32` for ILP32, `-m64` for LP64,
//! with `-fsanitize=undefined`) gives the ground truth: each result's
//! value, `sizeof` and signedness, and the operands' values afterwards
//! (compound assignments, `++`, `--`). A case with undefined behaviour
//! (UBSan reports it) is left out. A second program then checks every
//! value and type with `if (... != EXPECTED) reach_error();`, and `wiser`
//! (the C front end and the engine) must find it `safe`.
//!
//! If gcc cannot build and run a trivial program for a data model, that
//! model's test says why and is skipped; nothing else is.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use wiser_c::{DataModel, Options};
use wiser_engine::{symex, Config, Verdict};
use wiser_testkit::Xorshift as Rng;

/// A C integer type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct CTy {
    name: &'static str,
    /// Size in bytes under ILP32 and LP64.
    size: (u32, u32),
    signed: bool,
}

const TYPES: [CTy; 12] = [
    CTy {
        name: "_Bool",
        size: (1, 1),
        signed: false,
    },
    CTy {
        name: "char",
        size: (1, 1),
        signed: true,
    },
    CTy {
        name: "signed char",
        size: (1, 1),
        signed: true,
    },
    CTy {
        name: "unsigned char",
        size: (1, 1),
        signed: false,
    },
    CTy {
        name: "short",
        size: (2, 2),
        signed: true,
    },
    CTy {
        name: "unsigned short",
        size: (2, 2),
        signed: false,
    },
    CTy {
        name: "int",
        size: (4, 4),
        signed: true,
    },
    CTy {
        name: "unsigned int",
        size: (4, 4),
        signed: false,
    },
    CTy {
        name: "long",
        size: (4, 8),
        signed: true,
    },
    CTy {
        name: "unsigned long",
        size: (4, 8),
        signed: false,
    },
    CTy {
        name: "long long",
        size: (8, 8),
        signed: true,
    },
    CTy {
        name: "unsigned long long",
        size: (8, 8),
        signed: false,
    },
];

impl CTy {
    fn is_bool(self) -> bool {
        self.name == "_Bool"
    }

    fn bytes(self, m: DataModel) -> u32 {
        match m {
            DataModel::Ilp32 => self.size.0,
            DataModel::Lp64 => self.size.1,
        }
    }

    fn bounds(self, m: DataModel) -> (i128, i128) {
        if self.is_bool() {
            return (0, 1);
        }
        let bits = self.bytes(m) * 8;
        if self.signed {
            (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
        } else {
            (0, (1i128 << bits) - 1)
        }
    }

    /// `v` converted to this type (C's conversion, gcc's choice for the
    /// implementation-defined signed case: wrapping).
    fn convert(self, v: i128, m: DataModel) -> i128 {
        if self.is_bool() {
            return i128::from(v != 0);
        }
        let (lo, hi) = self.bounds(m);
        lo + (v - lo).rem_euclid(hi - lo + 1)
    }

    /// Raw initial values (before conversion to the type): 0, ±1, 2, the
    /// ends, next to the ends, and values that wrap.
    fn values(self, m: DataModel) -> Vec<i128> {
        if self.is_bool() {
            return vec![0, 1, 2, -1];
        }
        let (lo, hi) = self.bounds(m);
        let mut v = vec![0, 1, -1, 2, -2, 100, lo, lo + 1, hi, hi - 1, hi + 1, lo - 1];
        v.retain(|x| fits_literal(*x));
        v.sort();
        v.dedup();
        v
    }
}

/// Does `v` have a C literal (`long long` or `unsigned long long`)?
fn fits_literal(v: i128) -> bool {
    v >= i128::from(i64::MIN) && v <= i128::from(u64::MAX)
}

/// `v` as a C constant of type `long long` or `unsigned long long`.
fn lit(v: i128) -> String {
    if v == i128::from(i64::MIN) {
        "(-9223372036854775807LL - 1)".into()
    } else if v > i128::from(i64::MAX) {
        format!("{v}ULL")
    } else {
        format!("{v}LL")
    }
}

/// The C type of a result of this size and signedness.
fn type_of(size: u32, signed: bool) -> &'static str {
    match (size, signed) {
        (1, true) => "signed char",
        (1, false) => "unsigned char",
        (2, true) => "short",
        (2, false) => "unsigned short",
        (4, true) => "int",
        (4, false) => "unsigned int",
        (8, true) => "long long",
        _ => "unsigned long long",
    }
}

/// One expression on `a` (of type `ta`) and `b` (of type `tb`).
#[derive(Clone, Debug)]
struct Case {
    ta: CTy,
    a: i128,
    tb: CTy,
    b: i128,
    expr: String,
    /// Does the expression assign `a` or `b`?
    assigns: bool,
}

impl Case {
    fn decls(&self) -> String {
        format!(
            "{} a = ({})({}); {} b = ({})({});",
            self.ta.name,
            self.ta.name,
            lit(self.a),
            self.tb.name,
            self.tb.name,
            lit(self.b)
        )
    }

    fn describe(&self) -> String {
        format!(
            "{} a = {}; {} b = {}; {}",
            self.ta.name, self.a, self.tb.name, self.b, self.expr
        )
    }
}

const BINARY: [&str; 18] = [
    "+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^", "==", "!=", "<", "<=", ">", ">=", "&&",
    "||",
];
const COMPOUND: [&str; 10] = ["+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "|=", "^="];

/// Shift amounts (raw, before conversion to the amount's type).
const AMOUNTS: [i128; 10] = [0, 1, 2, 7, 8, 15, 16, 31, 32, 63];

/// Would `a / b` or `a % b` trap on x86 (division by zero, or `MIN / -1`
/// in the promoted type), before UBSan could report it?
fn traps(c: &Case, m: DataModel) -> bool {
    let (a, b) = (c.ta.convert(c.a, m), c.tb.convert(c.b, m));
    let min_a = c.ta.signed && c.ta.bytes(m) >= 4 && a == c.ta.bounds(m).0;
    b == 0 || (min_a && b == -1)
}

/// The cases of the program for left type `ta`: every right type, every
/// operator, a few value pairs each.
fn cases(ta: CTy, m: DataModel, per_op: usize) -> Vec<Case> {
    let mut out = Vec::new();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ (ta.name.len() as u64 * 7919 + ta.bytes(m) as u64));
    let va = ta.values(m);
    let mut pick = |rng: &mut Rng, tb: CTy, expr: String, assigns: bool, amounts: bool| {
        let vb: Vec<i128> = if amounts {
            AMOUNTS.to_vec()
        } else {
            tb.values(m)
        };
        let mut seen = BTreeSet::new();
        for _ in 0..per_op * 3 {
            if seen.len() == per_op {
                break;
            }
            let pair = (va[rng.index(va.len())], vb[rng.index(vb.len())]);
            if !seen.insert(pair) {
                continue;
            }
            let c = Case {
                ta,
                a: pair.0,
                tb,
                b: pair.1,
                expr: expr.clone(),
                assigns,
            };
            let divides = ["a / b", "a % b", "(a /= b)", "(a %= b)"].contains(&expr.as_str());
            if divides && traps(&c, m) {
                continue;
            }
            out.push(c);
        }
    };
    for tb in TYPES {
        for op in BINARY {
            let shift = op == "<<" || op == ">>";
            pick(&mut rng, tb, format!("a {op} b"), false, shift);
        }
        for op in COMPOUND {
            let shift = op == "<<=" || op == ">>=";
            pick(&mut rng, tb, format!("(a {op} b)"), true, shift);
        }
        pick(&mut rng, tb, format!("({}) a", tb.name), false, false);
        pick(&mut rng, tb, "(b = a)".into(), true, false);
        pick(&mut rng, tb, "(a, b)".into(), false, false);
        pick(&mut rng, tb, "(b = a, b)".into(), true, false);
        pick(&mut rng, tb, "(a ? a : b)".into(), false, false);
        pick(&mut rng, tb, "(b < 0 ? a : b)".into(), false, false);
        pick(&mut rng, tb, "(a == b ? b : a)".into(), false, false);
    }
    // Unary operators, `++` and `--`: on `a` alone (b is an int).
    let tb = TYPES[6];
    for expr in [
        "!a", "~a", "-a", "+a", "a++", "a--", "++a", "--a", "(a += 1)", "!!a",
    ] {
        for &v in &va {
            out.push(Case {
                ta,
                a: v,
                tb,
                b: 0,
                expr: expr.into(),
                assigns: expr.contains("++") || expr.contains("--") || expr.contains('='),
            });
        }
    }
    out
}

/// gcc's answer for one case.
#[derive(Clone, Debug)]
struct Truth {
    size: u32,
    /// `(__typeof__(E))-1 < 0`.
    signed: bool,
    /// `0 * (E) - 1 < 0` (signedness after promotion).
    promoted_signed: bool,
    value: (i128, i128),
    a: (i128, i128),
    b: (i128, i128),
}

fn gcc_program(cases: &[Case]) -> String {
    let mut s =
        String::from("#include <stdio.h>\nint main(void) {\n  setvbuf(stdout, 0, _IONBF, 0);\n");
    for (k, c) in cases.iter().enumerate() {
        let e = &c.expr;
        let _ = writeln!(s, "  fprintf(stderr, \"case {k}\\n\");");
        if let Some(p) = ub_probe(e) {
            // gcc narrows `a op= b` (and `a++`) on a narrow `a` to the
            // narrow type, so UBSan misses an overflow of the operation in
            // the promoted type: the operation alone, stored in its own
            // type, shows it.
            let _ = writeln!(
                s,
                "  {{ {d} volatile __typeof__({p}) probe = ({p}); (void)probe; }}",
                d = c.decls()
            );
        }
        let _ = writeln!(
            s,
            "  {{ {d} __typeof__({e}) r = ({e}); printf(\"{k} %d %d %lld %llu %lld %llu %lld %llu\\n\", (int)sizeof({e}), (int)((__typeof__({e}))-1 < 0), (long long)r, (unsigned long long)r, (long long)a, (unsigned long long)a, (long long)b, (unsigned long long)b); }}",
            d = c.decls()
        );
        let _ = writeln!(
            s,
            "  {{ {d} printf(\"s {k} %d\\n\", (int)(0 * ({e}) - 1 < 0)); }}",
            d = c.decls()
        );
    }
    s.push_str("  return 0;\n}\n");
    s
}

/// For an expression that assigns the result of an operation (`a op= b`,
/// `++`, `--`), the operation alone.
fn ub_probe(e: &str) -> Option<String> {
    for op in COMPOUND {
        if e == format!("(a {op} b)") {
            return Some(format!("a {} b", op.trim_end_matches('=')));
        }
    }
    match e {
        "a++" | "++a" | "(a += 1)" => Some("a + 1".into()),
        "a--" | "--a" => Some("a - 1".into()),
        _ => None,
    }
}

fn scratch_dir(tag: &str) -> PathBuf {
    wiser_testkit::gcc::scratch_dir("gcc-conv", tag)
}

/// Builds and runs a C program with gcc for model `m`.
fn gcc_run(
    dir: &Path,
    name: &str,
    text: &str,
    m: DataModel,
    ubsan: bool,
) -> Result<(String, String), String> {
    wiser_testkit::gcc::gcc_run(dir, name, text, &[m.gcc_flag()], ubsan)
}

/// gcc's answers, by case number; cases with undefined behaviour are
/// absent.
fn ground_truth(dir: &Path, name: &str, cases: &[Case], m: DataModel) -> BTreeMap<usize, Truth> {
    let (stdout, stderr) = gcc_run(dir, name, &gcc_program(cases), m, true)
        .unwrap_or_else(|e| panic!("ground truth for {name}: {e}"));
    let mut ub = BTreeSet::new();
    let mut current = None;
    for line in stderr.lines() {
        if let Some(k) = line.strip_prefix("case ") {
            current = k.trim().parse::<usize>().ok();
        } else if line.contains("runtime error") {
            ub.extend(current);
        }
    }
    let mut promoted = HashMap::new();
    let mut out = BTreeMap::new();
    for line in stdout.lines() {
        let w: Vec<&str> = line.split_whitespace().collect();
        if w.first() == Some(&"s") {
            let k: usize = w[1].parse().expect("a case number");
            promoted.insert(k, w[2] == "1");
            continue;
        }
        let n = |i: usize| -> i128 { w[i].parse().expect("a number") };
        let k = n(0) as usize;
        out.insert(
            k,
            Truth {
                size: n(1) as u32,
                signed: n(2) == 1,
                promoted_signed: false,
                value: (n(3), n(4)),
                a: (n(5), n(6)),
                b: (n(7), n(8)),
            },
        );
    }
    out.retain(|k, _| !ub.contains(k));
    for (k, t) in out.iter_mut() {
        t.promoted_signed = *promoted.get(k).expect("the second line of the case");
    }
    assert_eq!(
        out.len() + ub.len(),
        cases.len(),
        "{name}: every case is answered or has undefined behaviour"
    );
    out
}

/// The program `wiser` checks, and what each line's check is about.
fn wiser_program(
    cases: &[Case],
    truth: &BTreeMap<usize, Truth>,
) -> (String, HashMap<u32, (usize, String)>) {
    let mut lines: Vec<String> = vec!["void reach_error(void);".into(), "int main(void) {".into()];
    let mut about = HashMap::new();
    let mut push = |lines: &mut Vec<String>, text: String, what: Option<(usize, String)>| {
        lines.push(text);
        if let Some(w) = what {
            about.insert(lines.len() as u32, w);
        }
    };
    for (k, t) in truth {
        let c = &cases[*k];
        let e = &c.expr;
        let rt = type_of(t.size, t.signed);
        let pick = |signed: bool, v: (i128, i128)| if signed { v.0 } else { v.1 };
        let value = pick(t.signed, t.value);
        let show = c.describe();
        push(
            &mut lines,
            format!("  {{ {} {rt} r = ({e});", c.decls()),
            None,
        );
        push(
            &mut lines,
            format!("    if (r != ({rt})({})) reach_error();", lit(value)),
            Some((*k, format!("{show}: value, gcc says ({rt}) {value}"))),
        );
        if c.assigns {
            let a = pick(c.ta.signed, t.a);
            let b = pick(c.tb.signed, t.b);
            push(
                &mut lines,
                format!("    if (a != ({})({})) reach_error();", c.ta.name, lit(a)),
                Some((*k, format!("{show}: `a` afterwards, gcc says {a}"))),
            );
            push(
                &mut lines,
                format!("    if (b != ({})({})) reach_error();", c.tb.name, lit(b)),
                Some((*k, format!("{show}: `b` afterwards, gcc says {b}"))),
            );
        }
        push(&mut lines, "  }".into(), None);
        push(&mut lines, format!("  {{ {}", c.decls()), None);
        push(
            &mut lines,
            format!("    if (sizeof({e}) != {}) reach_error();", t.size),
            Some((*k, format!("{show}: sizeof, gcc says {}", t.size))),
        );
        push(
            &mut lines,
            format!(
                "    if ((0 * ({e}) - 1 < 0) != {}) reach_error();",
                u8::from(t.promoted_signed)
            ),
            Some((
                *k,
                format!(
                    "{show}: the type is {}signed (after promotion), says gcc",
                    if t.promoted_signed { "" } else { "un" }
                ),
            )),
        );
        push(&mut lines, "  }".into(), None);
    }
    lines.push("  return 0;".into());
    lines.push("}".into());
    (lines.join("\n") + "\n", about)
}

/// Checks one program with `wiser`; returns the problems found, each with
/// the case it is about (if known).
fn wiser_check(
    path: &Path,
    text: &str,
    about: &HashMap<u32, (usize, String)>,
    m: DataModel,
) -> Vec<(Option<usize>, String)> {
    std::fs::write(path, text).expect("write the program");
    let mut sources = wiser_ir::Sources::new();
    let options = Options {
        data_model: m,
        ..Default::default()
    };
    let compiled = match wiser_c::compile_file(&mut sources, path, &options) {
        Ok(c) => c,
        Err(d) => return vec![(None, format!("does not compile: {}", sources.render(&d)))],
    };
    let config = Config::default()
        .with_all_bugs(true)
        .with_timeout(Some(Duration::from_secs(120)));
    let report = symex(&compiled.ir, &config);
    let mut problems = Vec::new();
    for bug in &report.bugs {
        let line = sources.line_col(bug.span).line;
        let (case, what) = match about.get(&line) {
            Some((k, w)) => (Some(*k), w.clone()),
            None => (
                // A runtime error on the line that computes `r`: the case
                // is that of the next line's check.
                about
                    .get(&(line + 1))
                    .map(|(k, _)| *k)
                    .or_else(|| about.get(&(line + 2)).map(|(k, _)| *k)),
                format!("line {line}: {}", sources.line_text(bug.span).trim()),
            ),
        };
        problems.push((
            case,
            format!(
                "{} at {}: {what}",
                bug.kind.name(),
                sources.location(bug.span)
            ),
        ));
    }
    for e in &report.internal_errors {
        problems.push((None, format!("internal error: {e}")));
    }
    if report.verdict != Verdict::Safe && report.bugs.is_empty() {
        problems.push((
            None,
            format!(
                "verdict {} (incomplete: {:?})",
                report.verdict.name(),
                report.incomplete
            ),
        ));
    }
    problems
}

/// Checks the cases with `wiser`; an error ends the (one) path, so a
/// failing case is dropped and the rest checked again, up to 12 times.
fn wiser_check_all(
    dir: &Path,
    name: &str,
    cases: &[Case],
    mut truth: BTreeMap<usize, Truth>,
    m: DataModel,
) -> Vec<String> {
    let mut problems = Vec::new();
    for round in 0..12 {
        let (text, about) = wiser_program(cases, &truth);
        let path = dir.join(format!("{name}_check{round}.i"));
        let found = wiser_check(&path, &text, &about, m);
        if found.is_empty() {
            let _ = std::fs::remove_file(&path);
            break;
        }
        let mut progress = false;
        for (case, what) in found {
            problems.push(what);
            if let Some(k) = case {
                progress |= truth.remove(&k).is_some();
            }
        }
        if !progress {
            break;
        }
    }
    problems
}

/// Can gcc build and run a trivial program for this model?
fn gcc_works(m: DataModel) -> Result<(), String> {
    let dir = scratch_dir(&format!("probe{}", m.gcc_flag()));
    let r = gcc_run(&dir, "probe", "int main(void) { return 0; }\n", m, true);
    let _ = std::fs::remove_dir_all(&dir);
    r.map(|_| ())
}

fn run_model(m: DataModel, tag: &str) {
    if let Err(why) = gcc_works(m) {
        eprintln!(
            "SKIPPED: gcc {} cannot build and run a trivial program: {why}",
            m.gcc_flag()
        );
        return;
    }
    let t0 = Instant::now();
    let dir = scratch_dir(tag);
    let per_op = 2;
    let results: Vec<(String, usize, usize, Vec<String>)> = std::thread::scope(|s| {
        let handles: Vec<_> = TYPES
            .iter()
            .enumerate()
            .map(|(i, &ta)| {
                let dir = &dir;
                s.spawn(move || {
                    let cases = cases(ta, m, per_op);
                    let name = format!("t{i}");
                    let truth = ground_truth(dir, &name, &cases, m);
                    let checked = truth.len();
                    let problems = wiser_check_all(dir, &name, &cases, truth, m);
                    (ta.name.to_string(), cases.len(), checked, problems)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a worker"))
            .collect()
    });
    let mut report = String::new();
    let (mut total, mut checked) = (0, 0);
    for (name, n, ok, problems) in &results {
        total += n;
        checked += ok;
        if !problems.is_empty() {
            let _ = writeln!(
                report,
                "left operand `{name}` ({} problems):",
                problems.len()
            );
            for p in problems.iter().take(40) {
                let _ = writeln!(report, "  {p}");
            }
        }
    }
    eprintln!(
        "{}: {checked} of {total} cases checked ({} with undefined behaviour left out) in {:.1}s",
        m.gcc_flag(),
        total - checked,
        t0.elapsed().as_secs_f64()
    );
    if report.is_empty() {
        let _ = std::fs::remove_dir_all(&dir);
    }
    assert!(
        report.is_empty(),
        "wiser disagrees with gcc {} (programs kept in {}):\n{report}",
        m.gcc_flag(),
        dir.display()
    );
}

#[test]
fn conversions_agree_with_gcc_ilp32() {
    run_model(DataModel::Ilp32, "ilp32");
}

#[test]
fn conversions_agree_with_gcc_lp64() {
    run_model(DataModel::Lp64, "lp64");
}
