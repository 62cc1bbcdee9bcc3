//! Parsing `wiser run`'s `--input` and `--reads` into a program input.

use crate::error::CliError;
use std::sync::Arc;
use wiser_ir::{Ir, ScalarTy};
use wiser_num::Int;
use wiser_semantics::{ArrayInput, Input, Switch};

/// The options that give a program's input, as errors name them.
#[derive(Clone, Copy, Debug)]
pub struct Flags {
    /// `NAME=INT` items (`--input`).
    pub input: &'static str,
    /// The list of read values (`--reads`).
    pub reads: &'static str,
}

/// `--input` and `--reads`.
pub const INPUT: Flags = Flags {
    input: "--input",
    reads: "--reads",
};

/// Builds the input described by `NAME=INT` / `NAME[INDEX]=INT` items and a
/// comma-separated list of read values (given with `flags`). Each value
/// must be a value of its variable's (or element's) type.
pub fn parse(
    ir: &Ir,
    items: &[String],
    reads: Option<&str>,
    flags: Flags,
) -> Result<Input, CliError> {
    let Flags {
        input: input_flag,
        reads: reads_flag,
    } = flags;
    let mut input = Input::default();
    for item in items {
        let (lhs, rhs) = item.split_once('=').ok_or_else(|| {
            CliError::input(format!(
                "{input_flag} `{item}` is not NAME=INT or NAME[INDEX]=INT"
            ))
        })?;
        let lhs = lhs.trim();
        // A float variable's value is a decimal with a point or an
        // exponent, `inf` or `nan` (`0.1`, `-0.0`, `1e-45`), as witnesses
        // print it; a plain integer is its bit pattern, as JSON witnesses
        // give it (and as array elements and reads of float type are
        // always given).
        let value = match ir.input_type(lhs) {
            Some(ScalarTy::Float(f)) if rhs.trim().parse::<Int>().is_err() => {
                f.parse(rhs).ok_or_else(|| {
                    CliError::input(format!("`{}` in `{item}` is not a float", rhs.trim())).help(
                        format!(
                            "`{lhs}` is an `{f}`: write a decimal such as 0.1, -2.5e3, inf or \
                             nan, or an integer for its bit pattern"
                        ),
                    )
                })?
            }
            _ => int(rhs.trim(), item)?,
        };
        if let Some((name, rest)) = lhs.split_once('[') {
            let index = rest
                .strip_suffix(']')
                .ok_or_else(|| CliError::input(format!("{input_flag} `{item}`: missing `]`")))?;
            let index = int(index.trim(), item)?;
            let name = name.trim();
            let Some(decl) = ir
                .arrays
                .iter()
                .find(|a| &*a.name == name && a.init.is_none())
            else {
                return Err(unknown(ir, name, "input array"));
            };
            fits(&index, ScalarTy::Int(decl.ty.index), item)?;
            fits(&value, decl.ty.elem, item)?;
            let entry = match input.arrays.iter_mut().find(|(n, _)| &**n == name) {
                Some((_, a)) => a,
                None => {
                    input.arrays.push((Arc::from(name), ArrayInput::default()));
                    &mut input.arrays.last_mut().expect("just pushed").1
                }
            };
            if entry.entries.iter().any(|(i, _)| *i == index) {
                return Err(given_twice(input_flag, &format!("{name}[{index}]")));
            }
            entry.entries.push((index, value));
        } else {
            let Some(ty) = ir.input_type(lhs) else {
                return Err(unknown(ir, lhs, "input variable"));
            };
            fits(&value, ty, item)?;
            if input.vars.iter().any(|(n, _)| &**n == lhs) {
                return Err(given_twice(input_flag, lhs));
            }
            input.vars.push((Arc::from(lhs), value));
        }
    }
    if let Some(list) = reads {
        input.reads = read_list(list, reads_flag)?;
        if !input.reads.is_empty() && !reads_anything(ir) {
            return Err(CliError::input(format!(
                "{reads_flag} gives {} value(s), but this program never reads (it has no `x = *`, `__VERIFIER_nondet_*()` call or uninitialised local)",
                input.reads.len()
            ))
            .help(format!("give its inputs with {input_flag} NAME=INT")));
        }
    }
    Ok(input)
}

/// The values of a `--reads` list: integers separated by commas; an empty
/// list is no reads, an empty item (`1,,2`, `1,2,`) is a mistake.
fn read_list(list: &str, flag: &str) -> Result<Vec<Int>, CliError> {
    if list.trim().is_empty() {
        return Ok(Vec::new());
    }
    list.split(',')
        .enumerate()
        .map(|(i, s)| {
            if s.trim().is_empty() {
                Err(
                    CliError::input(format!("{flag} `{list}`: item {} is empty", i + 1)).help(
                        format!("give one integer per read, separated by commas: {flag} 1,0,2"),
                    ),
                )
            } else {
                int(s.trim(), list)
            }
        })
        .collect()
}

/// Does the program read anything (`x = *`, a nondeterministic call, an
/// uninitialised C local)? All of them are `Havoc` instructions.
fn reads_anything(ir: &Ir) -> bool {
    ir.code
        .iter()
        .any(|loc| matches!(loc.instr, wiser_ir::Instr::Havoc { .. }))
}

/// The values a run was given with `--reads` but never read; `Some` when
/// there were such values.
pub fn unused_reads(input: &Input, reads_made: usize) -> Option<usize> {
    (input.reads.len() > reads_made).then(|| input.reads.len() - reads_made)
}

fn given_twice(flag: &str, what: &str) -> CliError {
    CliError::input(format!("{flag} gives `{what}` twice")).help("give each input once")
}

/// Input variables of the program that `input` does not give.
pub fn defaulted(ir: &Ir, input: &Input) -> Vec<Arc<str>> {
    input_names(ir)
        .filter(|n| !input.vars.iter().any(|(m, _)| m == *n))
        .cloned()
        .collect()
}

fn input_names(ir: &Ir) -> impl Iterator<Item = &Arc<str>> {
    ir.inputs.iter().map(|i| &i.name).chain(
        ir.globals
            .iter()
            .filter(|g| g.init.is_none())
            .map(|g| &g.name),
    )
}

fn int(s: &str, item: &str) -> Result<Int, CliError> {
    s.parse()
        .map_err(|_| CliError::input(format!("`{s}` in `{item}` is not an integer")))
}

fn fits(v: &Int, ty: ScalarTy, item: &str) -> Result<(), CliError> {
    if ty.contains(v) {
        return Ok(());
    }
    let range = match ty.int().and_then(|t| Some((t.min()?, t.max()?))) {
        Some((lo, hi)) => format!(" ({lo} to {hi})"),
        None => String::new(),
    };
    Err(
        CliError::input(format!("`{v}` in `{item}` is not a value of type `{ty}`"))
            .help(format!("give a value of the variable's type{range}")),
    )
}

fn unknown(ir: &Ir, name: &str, what: &str) -> CliError {
    let scalars: Vec<String> = ir
        .inputs
        .iter()
        .map(|i| format!("{}: {}", i.name, i.ty))
        .collect();
    let arrays: Vec<&str> = ir
        .arrays
        .iter()
        .filter(|a| a.init.is_none())
        .map(|a| &*a.name)
        .collect();
    CliError::input(format!("`{name}` is not an {what} of this program")).help(format!(
        "its input variables are [{}] and its arrays are [{}]",
        scalars.join(", "),
        arrays.join(", ")
    ))
}

/// The schedule of `--schedule POINT:THREAD,...` (see `wiser run --help`).
pub fn schedule(list: &str) -> Result<Vec<Switch>, CliError> {
    let mut out: Vec<Switch> = Vec::new();
    for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let parsed = item
            .split_once(':')
            .and_then(|(p, t)| Some((p.trim().parse().ok()?, t.trim().parse().ok()?)));
        let Some((point, thread)) = parsed else {
            return Err(
                CliError::input(format!("--schedule item `{item}` is not POINT:THREAD")).help(
                    "e.g. --schedule 3:1,7:0 runs thread 1 from scheduling point 3 and thread 0 from point 7",
                ),
            );
        };
        if out.iter().any(|s| s.point == point) {
            return Err(CliError::input(format!(
                "--schedule names scheduling point {point} twice"
            ))
            .help("give each point once"));
        }
        out.push(Switch { point, thread });
    }
    out.sort();
    Ok(out)
}

/// A schedule as `--schedule` takes it.
pub fn schedule_text(schedule: &[Switch]) -> String {
    schedule
        .iter()
        .map(|s| format!("{}:{}", s.point, s.thread))
        .collect::<Vec<_>>()
        .join(",")
}
