//! Parsing `wiser run`'s `--input` and `--reads` into a program input.

use std::sync::Arc;
use wiser_num::Int;
use wiser_semantics::{ArrayInput, Input, Ir};

/// Builds the input described by `NAME=INT` / `NAME[INDEX]=INT` items and a
/// comma-separated list of read values.
pub fn parse(ir: &Ir, items: &[String], reads: Option<&str>) -> Result<Input, String> {
    let mut input = Input::default();
    for item in items {
        let (lhs, rhs) = item
            .split_once('=')
            .ok_or_else(|| format!("wiser: --input `{item}` is not NAME=INT or NAME[INDEX]=INT"))?;
        let value = int(rhs.trim(), item)?;
        let lhs = lhs.trim();
        if let Some((name, rest)) = lhs.split_once('[') {
            let index = rest
                .strip_suffix(']')
                .ok_or_else(|| format!("wiser: --input `{item}`: missing `]`"))?;
            let index = int(index.trim(), item)?;
            let name = name.trim();
            if !ir.arrays.iter().any(|a| &**a == name) {
                return Err(unknown(ir, name, "array"));
            }
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
            if !ir.inputs.iter().any(|(_, n)| &**n == lhs) {
                return Err(unknown(ir, lhs, "input variable"));
            }
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
    ir.inputs
        .iter()
        .filter(|(_, n)| !input.vars.iter().any(|(m, _)| m == n))
        .map(|(_, n)| n.clone())
        .collect()
}

fn int(s: &str, item: &str) -> Result<Int, String> {
    s.parse()
        .map_err(|_| format!("wiser: `{s}` in `{item}` is not an integer"))
}

fn unknown(ir: &Ir, name: &str, what: &str) -> String {
    let scalars: Vec<&str> = ir.inputs.iter().map(|(_, n)| &**n).collect();
    let arrays: Vec<&str> = ir.arrays.iter().map(|n| &**n).collect();
    format!(
        "wiser: `{name}` is not an {what} of this program\n  = help: its input variables are [{}] and its arrays are [{}]\n",
        scalars.join(", "),
        arrays.join(", ")
    )
}
