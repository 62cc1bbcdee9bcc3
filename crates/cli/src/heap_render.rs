//! Witnesses of programs with objects and threads, as people read them:
//! the input heap (which references alias, each object's fields) and the
//! schedule. In the program input a heap is plain data — a reference is an
//! integer (`0` null, `1..=N` the input objects) and a field is an array
//! indexed by references (`Node.next[1]`) — so `wiser run --input` takes
//! it as it takes any input; these functions only show it as a heap.

use serde_json::{json, Value};
use std::collections::BTreeMap;
use wiser_ir::Ir;
use wiser_num::Int;
use wiser_semantics::Input;

/// A reference as text: `null` or `#k`.
pub fn ref_text(v: &Int) -> String {
    if v.is_zero() {
        "null".into()
    } else {
        format!("#{v}")
    }
}

/// Is `name` an input variable that is a reference?
pub fn is_ref_var(ir: &Ir, name: &str) -> bool {
    ir.inputs
        .iter()
        .any(|i| &*i.name == name && i.refers.is_some())
        || ir
            .globals
            .iter()
            .any(|g| &*g.name == name && g.init.is_none() && g.refers.is_some())
}

/// Is `name` a field's array?
pub fn is_field_array(ir: &Ir, name: &str) -> bool {
    ir.arrays
        .iter()
        .enumerate()
        .any(|(i, a)| &*a.name == name && ir.field_of(wiser_ir::ArrayId(i as u32)).is_some())
}

/// The input objects reachable from the input references through
/// reference fields (the others are set by the heap's bounds only, and
/// say nothing about the bug).
fn reachable(ir: &Ir, input: &Input) -> Vec<Int> {
    let mut seen: Vec<Int> = Vec::new();
    let mut todo: Vec<Int> = input
        .vars
        .iter()
        .filter(|(n, v)| is_ref_var(ir, n) && *v > Int::ZERO)
        .map(|(_, v)| v.clone())
        .collect();
    let ref_arrays: Vec<&wiser_semantics::ArrayInput> = input
        .arrays
        .iter()
        .filter(|(name, _)| {
            ir.arrays.iter().enumerate().any(|(i, d)| {
                d.name == *name
                    && ir
                        .field_of(wiser_ir::ArrayId(i as u32))
                        .is_some_and(|(_, f)| f.refers.is_some())
            })
        })
        .map(|(_, a)| a)
        .collect();
    while let Some(o) = todo.pop() {
        if seen.contains(&o) {
            continue;
        }
        for a in &ref_arrays {
            if let Some((_, v)) = a.entries.iter().find(|(i, _)| *i == o) {
                if *v > Int::ZERO {
                    todo.push(v.clone());
                }
            }
        }
        seen.push(o);
    }
    seen
}

/// The input heap's objects reachable from the input references: id ->
/// (class, [(field, value text)]), from the input's field arrays.
fn objects(ir: &Ir, input: &Input) -> BTreeMap<Int, (String, Vec<(String, String)>)> {
    let reachable = reachable(ir, input);
    let mut objects: BTreeMap<Int, (String, Vec<(String, String)>)> = BTreeMap::new();
    for (name, a) in &input.arrays {
        let Some(index) = ir.arrays.iter().position(|d| d.name == *name) else {
            continue;
        };
        let Some((class, field)) = ir.field_of(wiser_ir::ArrayId(index as u32)) else {
            continue;
        };
        if field.name.starts_with('$') {
            // The front end's own bookkeeping (C's `$freed`).
            continue;
        }
        let class_name = ir.classes[class.0 as usize].name.to_string();
        for (i, v) in &a.entries {
            if *i <= Int::ZERO || !reachable.contains(i) {
                continue;
            }
            let value = if field.refers.is_some() {
                ref_text(v)
            } else {
                v.to_string()
            };
            objects
                .entry(i.clone())
                .or_insert_with(|| (class_name.clone(), Vec::new()))
                .1
                .push((field.name.to_string(), value));
        }
    }
    objects
}

/// The heap on one line, or `None` when the program has no input
/// references: `x = #1, y = #1 (aliases x); #1.val = 3, #1.next = null`.
pub fn heap_text(ir: &Ir, input: &Input) -> Option<String> {
    let mut roots = Vec::new();
    let mut seen: Vec<(Int, String)> = Vec::new();
    for (name, v) in &input.vars {
        if !is_ref_var(ir, name) {
            continue;
        }
        let alias = seen
            .iter()
            .find(|(w, _)| w == v && !v.is_zero())
            .map(|(_, n)| format!(" (aliases {n})"))
            .unwrap_or_default();
        roots.push(format!("{name} = {}{alias}", ref_text(v)));
        seen.push((v.clone(), name.to_string()));
    }
    let objects = objects(ir, input);
    if roots.is_empty() && objects.is_empty() {
        return None;
    }
    let fields: Vec<String> = objects
        .iter()
        .flat_map(|(id, (_, fields))| fields.iter().map(move |(f, v)| format!("#{id}.{f} = {v}")))
        .collect();
    let mut text = roots.join(", ");
    if !fields.is_empty() {
        if !text.is_empty() {
            text.push_str("; ");
        }
        text.push_str(&fields.join(", "));
    }
    Some(text)
}

/// The heap as JSON: `{"roots": {"x": 1, "y": null}, "objects": {"1":
/// {"class": "Node", "fields": {"next": 0, "val": 3}}}}` (references as
/// integers, 0 for null, as `wiser run --input` takes them).
pub fn heap_json(ir: &Ir, input: &Input) -> Value {
    let roots: serde_json::Map<String, Value> = input
        .vars
        .iter()
        .filter(|(n, _)| is_ref_var(ir, n))
        .map(|(n, v)| (n.to_string(), json!(v)))
        .collect();
    let mut objects = serde_json::Map::new();
    let reachable = reachable(ir, input);
    for (name, a) in &input.arrays {
        let Some(index) = ir.arrays.iter().position(|d| d.name == *name) else {
            continue;
        };
        let Some((class, field)) = ir.field_of(wiser_ir::ArrayId(index as u32)) else {
            continue;
        };
        if field.name.starts_with('$') {
            continue;
        }
        for (i, v) in a.entries.iter().filter(|(i, _)| reachable.contains(i)) {
            let entry = objects.entry(i.to_string()).or_insert_with(
                || json!({"class": &*ir.classes[class.0 as usize].name, "fields": {}}),
            );
            entry["fields"][&*field.name] = json!(v);
        }
    }
    json!({"roots": roots, "objects": objects})
}

/// The schedule as `--schedule` takes it, or `None` without switches.
pub fn schedule_text(input: &Input) -> Option<String> {
    (!input.schedule.is_empty()).then(|| crate::inputs::schedule_text(&input.schedule))
}
