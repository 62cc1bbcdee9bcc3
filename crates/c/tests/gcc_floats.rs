//! IEEE 754 arithmetic against gcc: for `float` and `double`, every
//! operation wiser models — `+ - * /`, negation, the six comparisons, the
//! `math.h` functions (`fabs`, `sqrt`, `floor`, `ceil`, `round`, `trunc`,
//! `rint`, `fmin`, `fmax`, `fma`, `copysign`) and classifications
//! (`isnan`, `isinf`, `isfinite`, `isnormal`, `signbit`, `fpclassify`),
//! conversions between the two float types and to and from every integer
//! type — on operands at the delicate places (signed zeros, infinities,
//! NaN, subnormals, the extreme normals, halfway cases, the edges of the
//! integer types). gcc, with SSE arithmetic (`-m32 -msse2 -mfpmath=sse`,
//! `-m64`), computes each result and prints it exactly (`%a`, and whether
//! it is a NaN and its sign bit); a second program checks each with `if
//! (... != EXPECTED) reach_error();`, and `wiser` must find it `safe`.
//! A conversion to an integer type that cannot hold the value is
//! undefined in C and left out here (wiser reports it as an error: the
//! `float_to_int` example).
//!
//! If gcc cannot build and run a trivial program for a data model, that
//! model's test says why and is skipped; nothing else is.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::time::Duration;
use wiser_c::{DataModel, Options};
use wiser_engine::{symex, Config, Verdict};
use wiser_testkit::gcc::{gcc_run, scratch_dir};

/// A float type: its C name, the suffix of its literals, the other float
/// type, and operand values as C expressions with the numbers they are.
struct FTy {
    name: &'static str,
    suffix: &'static str,
    other: &'static str,
    values: Vec<(String, f64)>,
}

fn float_ty() -> FTy {
    let mut values: Vec<(String, f64)> = [
        0.0f32,
        -0.0,
        1.0,
        -1.5,
        0.1,
        2.5,
        -2.5,
        3.0,
        16777216.0,
        f32::MAX,
        f32::MIN_POSITIVE,
        1e-45,
        5.877472e-39,
        2147483520.0,
        -2147483648.0,
        4294967040.0,
        255.9,
        -0.9,
        1e10,
    ]
    .iter()
    .map(|x| (format!("{x:e}f"), f64::from(*x)))
    .collect();
    values.push(("__builtin_inff()".into(), f64::INFINITY));
    values.push(("-__builtin_inff()".into(), f64::NEG_INFINITY));
    values.push(("__builtin_nanf(\"\")".into(), f64::NAN));
    FTy {
        name: "float",
        suffix: "f",
        other: "double",
        values,
    }
}

fn double_ty() -> FTy {
    let mut values: Vec<(String, f64)> = [
        0.0f64,
        -0.0,
        1.0,
        -1.5,
        0.1,
        2.5,
        -2.5,
        1.0 / 3.0,
        9007199254740993.0,
        f64::MAX,
        f64::MIN_POSITIVE,
        5e-324,
        2147483647.9,
        -2147483648.9,
        4294967295.5,
        9.223372036854775e18,
        1.844674407370955e19,
        -0.9,
        1e300,
        3.4028235677973366e38,
    ]
    .iter()
    .map(|x| (format!("{x:e}"), *x))
    .collect();
    values.push(("__builtin_inf()".into(), f64::INFINITY));
    values.push(("-__builtin_inf()".into(), f64::NEG_INFINITY));
    values.push(("__builtin_nan(\"\")".into(), f64::NAN));
    FTy {
        name: "double",
        suffix: "",
        other: "float",
        values,
    }
}

/// Integer types: name, bits, signed.
const INTS: [(&str, u32, bool); 8] = [
    ("signed char", 8, true),
    ("unsigned char", 8, false),
    ("short", 16, true),
    ("unsigned short", 16, false),
    ("int", 32, true),
    ("unsigned int", 32, false),
    ("long long", 64, true),
    ("unsigned long long", 64, false),
];

/// Integer operands converted to floats: literals of their types.
const INT_VALUES: [(&str, &str); 9] = [
    ("int", "0"),
    ("int", "-7"),
    ("int", "16777217"),
    ("int", "2147483647"),
    ("unsigned int", "4294967295u"),
    ("long long", "9007199254740993ll"),
    ("long long", "-9223372036854775807ll - 1"),
    ("unsigned long long", "18446744073709551615ull"),
    ("unsigned char", "(unsigned char)200"),
];

/// What a case computes.
enum Kind {
    /// A value of the float type named.
    Float(&'static str),
    /// An integer (a comparison, a classification, a conversion).
    Int,
}

struct Case {
    expr: String,
    kind: Kind,
}

/// Does `x` truncated toward zero fit an integer type of `bits` bits?
fn fits(x: f64, bits: u32, signed: bool) -> bool {
    if !x.is_finite() {
        return false;
    }
    let t = x.trunc();
    let (lo, hi) = if signed {
        (-(2f64.powi(bits as i32 - 1)), 2f64.powi(bits as i32 - 1))
    } else {
        (0.0, 2f64.powi(bits as i32))
    };
    t >= lo && t < hi
}

fn cases(t: &FTy) -> Vec<Case> {
    let mut out = Vec::new();
    let n = t.name;
    let float = |e: String| Case {
        expr: e,
        kind: Kind::Float(n),
    };
    let int = |e: String| Case {
        expr: e,
        kind: Kind::Int,
    };
    let vals = &t.values;
    let var = |i: usize| format!("v{i}");
    for i in 0..vals.len() {
        for j in 0..vals.len() {
            let (a, b) = (var(i), var(j));
            for op in ["+", "-", "*", "/"] {
                out.push(float(format!("{a} {op} {b}")));
            }
            for op in ["<", "<=", "==", "!=", ">", ">="] {
                out.push(int(format!("{a} {op} {b}")));
            }
            let f = t.suffix;
            for func in ["fmin", "fmax", "copysign"] {
                out.push(float(format!("{func}{f}({a}, {b})")));
            }
        }
    }
    let f = t.suffix;
    for i in 0..vals.len() {
        let a = var(i);
        out.push(float(format!("-{a}")));
        for func in [
            "fabs",
            "sqrt",
            "floor",
            "ceil",
            "round",
            "trunc",
            "rint",
            "nearbyint",
        ] {
            out.push(float(format!("{func}{f}({a})")));
        }
        for class in ["isnan", "isinf", "isfinite", "isnormal"] {
            out.push(int(format!("{class}({a})")));
        }
        out.push(int(format!("signbit({a}) != 0")));
        out.push(int(format!(
            "fpclassify({a}) == FP_NAN ? 0 : fpclassify({a}) == FP_INFINITE ? 1 : fpclassify({a}) == FP_ZERO ? 2 : fpclassify({a}) == FP_SUBNORMAL ? 3 : 4"
        )));
        out.push(Case {
            expr: format!("({}){a}", t.other),
            kind: Kind::Float(t.other),
        });
        out.push(int(format!("!{a}")));
        for (ity, bits, signed) in INTS {
            if fits(vals[i].1, bits, signed) {
                out.push(int(format!("({ity}){a}")));
            }
        }
        for j in (0..vals.len()).step_by(3) {
            for k in (0..vals.len()).step_by(4) {
                out.push(float(format!("fma{f}({a}, {}, {})", var(j), var(k))));
            }
        }
    }
    for (ity, v) in INT_VALUES {
        out.push(float(format!("({n})({ity})({v})")));
    }
    out
}

/// The declarations of the operands: `volatile` in gcc's program, so that
/// it computes at run time, with SSE, as the harnesses do.
fn operands(t: &FTy) -> String {
    let mut s = String::new();
    for (i, (lit, _)) in t.values.iter().enumerate() {
        let _ = writeln!(s, "  volatile {} v{i} = {lit};", t.name);
    }
    s
}

fn gcc_program(t: &FTy, cases: &[Case]) -> String {
    let mut s = String::from("#include <math.h>\n#include <stdio.h>\nint main(void) {\n");
    s += &operands(t);
    for (k, c) in cases.iter().enumerate() {
        let _ = match c.kind {
            Kind::Float(ty) => writeln!(
                s,
                "  {{ {ty} r = {}; printf(\"{k} %a %d %d\\n\", (double)r, isnan(r) != 0, signbit(r) != 0); }}",
                c.expr
            ),
            Kind::Int => writeln!(s, "  printf(\"{k} %lld\\n\", (long long)({}));", c.expr),
        };
    }
    s + "  return 0;\n}\n"
}

/// The check of each case, from gcc's line for it, with the case number
/// of each line of the program.
fn wiser_program(t: &FTy, cases: &[Case], truth: &str) -> (String, HashMap<u32, usize>) {
    let mut s =
        String::from("#include <math.h>\nextern void reach_error(void);\nint main(void) {\n");
    s += &operands(t);
    let mut about = HashMap::new();
    for line in truth.lines() {
        let mut w = line.split_whitespace();
        let k: usize = w
            .next()
            .and_then(|k| k.parse().ok())
            .expect("a case number");
        let c = &cases[k];
        let check = match c.kind {
            Kind::Float(ty) => {
                let (hex, nan, sign) = (w.next().unwrap(), w.next().unwrap(), w.next().unwrap());
                if nan == "1" {
                    format!("{{ {ty} r = {}; if (!isnan(r)) reach_error(); }}", c.expr)
                } else {
                    let suffix = if ty == "float" { "f" } else { "" };
                    let lit = match hex {
                        "inf" => format!("(({ty})__builtin_inf())"),
                        "-inf" => format!("(-({ty})__builtin_inf())"),
                        _ => format!("{hex}{suffix}"),
                    };
                    format!(
                        "{{ {ty} r = {}; if (!(r == {lit} && (signbit(r) != 0) == {sign})) reach_error(); }}",
                        c.expr
                    )
                }
            }
            Kind::Int => {
                let v = w.next().unwrap();
                format!("if ((long long)({}) != {v}ll) reach_error();", c.expr)
            }
        };
        about.insert(s.lines().count() as u32 + 1, k);
        let _ = writeln!(s, "  {check}");
    }
    (s + "  return 0;\n}\n", about)
}

fn run(t: FTy, m: DataModel) {
    let mut flags = vec![m.gcc_flag()];
    flags.extend(m.gcc_float_flags());
    let dir = scratch_dir("gcc-floats", &format!("{}{}", t.name, m.gcc_flag()));
    if let Err(why) = gcc_run(
        &dir,
        "probe",
        "int main(void) { return 0; }\n",
        &flags,
        false,
    ) {
        eprintln!(
            "SKIPPED: gcc {} cannot build and run a trivial program: {why}",
            flags.join(" ")
        );
        return;
    }
    let cases = cases(&t);
    let (truth, _) = gcc_run(&dir, "truth", &gcc_program(&t, &cases), &flags, false)
        .unwrap_or_else(|e| panic!("ground truth: {e}"));
    assert_eq!(truth.lines().count(), cases.len(), "gcc printed every case");
    let (text, about) = wiser_program(&t, &cases, &truth);
    let path = dir.join("check.c");
    std::fs::write(&path, &text).expect("write the program");
    let mut sources = wiser_ir::Sources::new();
    let options = Options {
        data_model: m,
        ..Default::default()
    };
    let compiled = wiser_c::compile_file(&mut sources, &path, &options)
        .unwrap_or_else(|d| panic!("does not compile: {}", sources.render(&d)));
    let config = Config::default()
        .with_all_bugs(true)
        .with_timeout(Some(Duration::from_secs(300)));
    let report = symex(&compiled.ir, &config);
    let mut problems = String::new();
    for bug in &report.bugs {
        let line = sources.line_col(bug.span).line;
        let case = about.get(&line).map_or("?".to_string(), |k| {
            let gcc = truth
                .lines()
                .find(|l| l.split_whitespace().next() == Some(&k.to_string()));
            format!("`{}` (gcc: {})", cases[*k].expr, gcc.unwrap_or("?"))
        });
        let _ = writeln!(problems, "{} at line {line}: {case}", bug.kind.name());
    }
    assert!(
        problems.is_empty() && report.verdict == Verdict::Safe,
        "wiser disagrees with gcc {} on {} cases of `{}` (program kept in {}; verdict {}):\n{problems}",
        flags.join(" "),
        cases.len(),
        t.name,
        dir.display(),
        report.verdict.name()
    );
    eprintln!("{} {}: {} cases agree", t.name, m.gcc_flag(), cases.len());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn float_operations_agree_with_gcc_ilp32() {
    run(float_ty(), DataModel::Ilp32);
}

#[test]
fn double_operations_agree_with_gcc_ilp32() {
    run(double_ty(), DataModel::Ilp32);
}

#[test]
fn double_operations_agree_with_gcc_lp64() {
    run(double_ty(), DataModel::Lp64);
}

#[test]
fn float_operations_agree_with_gcc_lp64() {
    run(float_ty(), DataModel::Lp64);
}
