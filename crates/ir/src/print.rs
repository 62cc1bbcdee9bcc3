//! A readable listing of a program, for tests and for debugging front
//! ends: one line per instruction, expressions shown infix with their
//! types on operators (`+:u8`), checks listed under their instruction.

use crate::ir::{Code, Instr, Ir, Op, Place, Routine};
use crate::output::OutPart;
use std::fmt::{self, Write};
use wiser_num::FloatOp;

impl fmt::Display for Ir {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, g) in self.globals.iter().enumerate() {
            let init = g
                .init
                .as_ref()
                .map_or("input".to_string(), |v| v.to_string());
            writeln!(f, "global g{i} {}: {} = {init}", g.name, g.ty)?;
        }
        for (i, a) in self.arrays.iter().enumerate() {
            let init = a
                .init
                .as_ref()
                .map_or("input".to_string(), |v| format!("all {v}"));
            writeln!(f, "array a{i} {}: {} = {init}", a.name, a.ty)?;
        }
        let routines = std::iter::once(&self.main).chain(&self.procs);
        for r in routines {
            self.write_routine(f, r)?;
        }
        Ok(())
    }
}

impl Ir {
    fn write_routine(&self, f: &mut fmt::Formatter<'_>, r: &Routine) -> fmt::Result {
        let slots: Vec<String> = r
            .slots
            .iter()
            .enumerate()
            .map(|(i, s)| format!("{i}:{}:{}", s.name, s.ty))
            .collect();
        let ret = r.ret.map_or(String::new(), |t| format!(" -> {t}"));
        writeln!(
            f,
            "routine {}({}){ret} [{}] entry {}",
            r.name,
            r.params,
            slots.join(", "),
            r.entry
        )?;
        if std::ptr::eq(r, &self.main) && !self.inputs.is_empty() {
            let inputs: Vec<&str> = self.inputs.iter().map(|i| &*i.name).collect();
            writeln!(f, "  inputs {}", inputs.join(", "))?;
        }
        // The instructions of this routine, in pc order.
        let mut mine = vec![false; self.code.len()];
        let mut stack = vec![r.entry];
        while let Some(pc) = stack.pop() {
            if std::mem::replace(&mut mine[pc as usize], true) {
                continue;
            }
            stack.extend(crate::cfg::successors(&self.code[pc as usize].instr));
        }
        for (pc, loc) in self.code.iter().enumerate().filter(|(pc, _)| mine[*pc]) {
            let names = |p: Place| place(r, self, p);
            let c = |code: &Code| show(code, r, self);
            let text = match &loc.instr {
                Instr::Assign { dst, value, next } => {
                    format!("{} = {} -> {next}", names(*dst), c(value))
                }
                Instr::Havoc { dst, ty, next } => format!("{} = *:{ty} -> {next}", names(*dst)),
                Instr::Store {
                    array,
                    index,
                    value,
                    next,
                } => format!(
                    "{}[{}] = {} -> {next}",
                    self.arrays[array.0 as usize].name,
                    c(index),
                    c(value)
                ),
                Instr::Branch {
                    cond,
                    then_to,
                    else_to,
                } => format!("if {} -> {then_to} else {else_to}", c(cond)),
                Instr::Assert { cond, next } => format!("assert {} -> {next}", c(cond)),
                Instr::Assume { cond, next } => format!("assume {} -> {next}", c(cond)),
                Instr::Fail => "fail".into(),
                Instr::Halt => "halt".into(),
                Instr::Skip { next } => format!("skip -> {next}"),
                Instr::Return { value } => match value {
                    Some(v) => format!("return {}", c(v)),
                    None => "return".into(),
                },
                Instr::New { dst, class, next } => format!(
                    "{} = new {} -> {next}",
                    names(*dst),
                    self.classes[class.0 as usize].name
                ),
                Instr::Call {
                    proc,
                    args,
                    dst,
                    next,
                }
                | Instr::Spawn {
                    proc,
                    args,
                    dst,
                    next,
                } => {
                    let spawn = if matches!(loc.instr, Instr::Spawn { .. }) {
                        "spawn "
                    } else {
                        ""
                    };
                    let args: Vec<String> = args.iter().map(c).collect();
                    let callee = &self.procs[proc.0 as usize].name;
                    let call = format!("{spawn}{callee}({}) -> {next}", args.join(", "));
                    match dst {
                        Some(d) => format!("{} = {call}", names(*d)),
                        None => call,
                    }
                }
                Instr::Join { thread, next, .. } => format!("join {} -> {next}", c(thread)),
                Instr::Lock { lock, obj, next } => format!(
                    "lock {}[{}] -> {next}",
                    self.arrays[lock.0 as usize].name,
                    c(obj)
                ),
                Instr::Unlock { lock, obj, next } => format!(
                    "unlock {}[{}] -> {next}",
                    self.arrays[lock.0 as usize].name,
                    c(obj)
                ),
                Instr::Atomic { begin, next } => {
                    format!("atomic {} -> {next}", if *begin { "begin" } else { "end" })
                }
                Instr::Output {
                    stream,
                    parts,
                    next,
                } => {
                    let parts: Vec<String> = parts
                        .iter()
                        .map(|p| match p {
                            OutPart::Text(t) => format!("{:?}", String::from_utf8_lossy(t)),
                            OutPart::Int { value, spec, .. }
                            | OutPart::Float { value, spec, .. } => {
                                format!("{:?}({})", spec.conv, c(value))
                            }
                            OutPart::Str { array, start, .. } => format!(
                                "Str({}[{}..])",
                                self.arrays[array.0 as usize].name,
                                c(start)
                            ),
                        })
                        .collect();
                    format!("output {stream:?} {} -> {next}", parts.join(" "))
                }
            };
            writeln!(f, "  {pc:>3}: {text}")?;
            for check in loc.checks.iter() {
                let guard = check
                    .guard
                    .as_ref()
                    .map_or(String::new(), |g| format!(" when {}", c(g)));
                writeln!(
                    f,
                    "       check {} if {}{guard}",
                    check.kind,
                    c(&check.cond)
                )?;
            }
        }
        Ok(())
    }
}

fn place(r: &Routine, ir: &Ir, p: Place) -> String {
    match p {
        Place::Local(i) => r
            .slots
            .get(i as usize)
            .map_or(format!("?{i}"), |s| s.name.to_string()),
        Place::Global(g) => ir
            .globals
            .get(g as usize)
            .map_or(format!("?g{g}"), |g| g.name.to_string()),
    }
}

/// The code as an infix expression (fully parenthesised below the top).
pub fn show(code: &Code, r: &Routine, ir: &Ir) -> String {
    let mut stack: Vec<String> = Vec::new();
    let pop = |stack: &mut Vec<String>| stack.pop().unwrap_or_else(|| "?".into());
    for op in code.iter() {
        let s = match op {
            Op::Int(t, v) if t.is_unbounded() => v.to_string(),
            Op::Int(t, v) => format!("{v}:{t}"),
            Op::Bool(b) => b.to_string(),
            Op::Load(p) => place(r, ir, *p),
            Op::Select(a) => {
                let i = pop(&mut stack);
                format!(
                    "{}[{i}]",
                    ir.arrays.get(a.0 as usize).map_or("?", |a| &*a.name)
                )
            }
            Op::Unary(op, t) => format!("({}:{t} {})", op.symbol(), pop(&mut stack)),
            Op::Binary(op, t) => {
                let b = pop(&mut stack);
                let a = pop(&mut stack);
                format!("({a} {}:{t} {b})", op.symbol())
            }
            Op::Cmp(op, t) => {
                let b = pop(&mut stack);
                let a = pop(&mut stack);
                format!("({a} {}:{t} {b})", op.symbol())
            }
            Op::Overflows(op, t) => {
                let b = pop(&mut stack);
                let a = pop(&mut stack);
                format!("overflows({a} {}:{t} {b})", op.symbol())
            }
            Op::NegOverflows(t) => format!("overflows(-:{t} {})", pop(&mut stack)),
            Op::Cast(_, to) => format!("{to}({})", pop(&mut stack)),
            Op::Not => format!("not {}", pop(&mut stack)),
            Op::And | Op::Or => {
                let b = pop(&mut stack);
                let a = pop(&mut stack);
                let word = if *op == Op::And { "and" } else { "or" };
                format!("({a} {word} {b})")
            }
            Op::Ite(_) => {
                let e = pop(&mut stack);
                let t = pop(&mut stack);
                let c = pop(&mut stack);
                format!("ite({c}, {t}, {e})")
            }
            Op::FloatConst(t, v) => format!("{}:{t}", t.display(v)),
            Op::AsFloat(t) => format!("as_{t}({})", pop(&mut stack)),
            Op::AsBits(t) => format!("bits_{t}({})", pop(&mut stack)),
            Op::Float(fop) => {
                let mut args: Vec<String> = (0..fop.arity()).map(|_| pop(&mut stack)).collect();
                args.reverse();
                match fop {
                    FloatOp::Binary(op, t) if args.len() == 2 && op.symbol().len() == 1 => {
                        format!("({} {}:{t} {})", args[0], op.symbol(), args[1])
                    }
                    FloatOp::Cmp(op, t) => {
                        format!("({} {}:{t} {})", args[0], op.symbol(), args[1])
                    }
                    _ => format!("{fop}({})", args.join(", ")),
                }
            }
        };
        stack.push(s);
    }
    let mut out = String::new();
    for (i, s) in stack.iter().enumerate() {
        if i > 0 {
            out.push_str("; ");
        }
        let _ = write!(out, "{s}");
    }
    out
}
