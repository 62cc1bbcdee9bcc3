//! Parsing `wiser run`'s `--input` and `--reads` into a program input.

use std::sync::Arc;
use wiser_ir::{Ir, ScalarTy};
use wiser_num::Int;
use wiser_semantics::{ArrayInput, Input};

/// Builds the input described by `NAME=INT` / `NAME[INDEX]=INT` items and a
/// comma-separated list of read values. Each value must be a value of its
/// variable's (or element's) type.
pub fn parse(ir: &Ir, items: &[String], reads: Option<&str>) -> Result<Input, String> {
    let mut input = Input::default();
    for item in items {
        let (lhs, rhs) = item
            .split_once('=')
            .ok_or_else(|| format!("error: --input `{item}` is not NAME=INT or NAME[INDEX]=INT"))?;
        let value = int(rhs.trim(), item)?;
        let lhs = lhs.trim();
        if let Some((name, rest)) = lhs.split_once('[') {
            let index = rest
                .strip_suffix(']')
                .ok_or_else(|| format!("error: --input `{item}`: missing `]`"))?;
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
            entry.entries.retain(|(i, _)| *i != index);
            entry.entries.push((index, value));
        } else {
            let Some(ty) = ir.input_type(lhs) else {
                return Err(unknown(ir, lhs, "input variable"));
            };
            fits(&value, ty, item)?;
            input.vars.retain(|(n, _)| &**n != lhs);
            input.vars.push((Arc::from(lhs), value));
        }
    }
    if let Some(list) = reads {
        input.reads = list
            .split(',')
            .filter(|s| !s.trim().is_empty())
            .map(|s| int(s.trim(), list))
            .collect::<Result<_, _>>()?;
    }
    Ok(input)
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

fn int(s: &str, item: &str) -> Result<Int, String> {
    s.parse()
        .map_err(|_| format!("error: `{s}` in `{item}` is not an integer"))
}

fn fits(v: &Int, ty: ScalarTy, item: &str) -> Result<(), String> {
    if ty.contains(v) {
        return Ok(());
    }
    Err(format!(
        "error: `{v}` in `{item}` is not a value of type `{ty}`\n  = help: give a value of the variable's type{}\n",
        match ty.int().and_then(|t| Some((t.min()?, t.max()?))) {
            Some((lo, hi)) => format!(" ({lo} to {hi})"),
            None => String::new(),
        }
    ))
}

fn unknown(ir: &Ir, name: &str, what: &str) -> String {
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
    format!(
        "error: `{name}` is not an {what} of this program\n  = help: its input variables are [{}] and its arrays are [{}]\n",
        scalars.join(", "),
        arrays.join(", ")
    )
}
