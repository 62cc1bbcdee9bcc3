//! A witness's reads as people read them: each named by the site that
//! made it (`__VERIFIER_nondet_int() = 5`, `x (uninitialised) = 3`), and
//! the command line that the reads of a program's arguments make.

use crate::load::Program;
use wiser_engine::Bug;
use wiser_frontend::ReadSite;

/// A witness's reads in order, each named by its site:
/// `__VERIFIER_nondet_int() = 5`, `x (uninitialised) = 3`, `* = 2`.
pub(crate) fn named_reads(program: &Program, bug: &Bug) -> Vec<String> {
    bug.input
        .reads
        .iter()
        .zip(&bug.read_pcs)
        .map(|(v, &pc)| (read_value(program, pc, v), pc))
        .map(|(v, pc)| match program.read_site(pc) {
            ReadSite::Call { function, .. } => format!("{function}() = {v}"),
            ReadSite::Uninitialised(name) => format!("{name} (uninitialised) = {v}"),
            ReadSite::Argument(name) => format!("{name} = {v}"),
            ReadSite::Statement => format!("* = {v}"),
        })
        .collect()
}

/// A read's value as the program's type has it: a float by the shortest
/// decimal that reads back as its bit pattern (`0.1`, `nan`, `-inf`), any
/// other value as the integer it is.
pub(crate) fn read_value(program: &Program, pc: wiser_ir::Pc, v: &wiser_num::Int) -> String {
    match &program.ir.at(pc).instr {
        wiser_ir::Instr::Havoc {
            ty: wiser_ir::ScalarTy::Float(t),
            ..
        } => t.display(v),
        _ => v.to_string(),
    }
}

/// The program's arguments that a witness gives (reads named `argc` and
/// `argv[k][j]`), as a shell would quote them: `"-n" "7"`; `None` when it
/// gives none.
pub(crate) fn command_line(program: &Program, bug: &Bug) -> Option<String> {
    let mut argc = None;
    let mut args: Vec<Vec<u8>> = Vec::new();
    for (v, &pc) in bug.input.reads.iter().zip(&bug.read_pcs) {
        let ReadSite::Argument(name) = program.read_site(pc) else {
            continue;
        };
        if name == "argc" {
            argc = v.to_i64();
            continue;
        }
        let Some((k, j)) = name
            .strip_prefix("argv[")
            .and_then(|r| r.strip_suffix(']'))
            .and_then(|r| r.split_once("]["))
            .and_then(|(k, j)| Some((k.parse::<usize>().ok()?, j.parse::<usize>().ok()?)))
        else {
            continue;
        };
        if k == 0 || k > 64 || j > 4096 {
            continue;
        }
        args.resize(args.len().max(k), Vec::new());
        let arg = &mut args[k - 1];
        arg.resize(arg.len().max(j + 1), 0);
        arg[j] = v.to_i64().unwrap_or(0) as u8;
    }
    let argc = argc?;
    let shown: Vec<String> = args
        .iter()
        .take(usize::try_from(argc - 1).unwrap_or(0))
        .map(|a| {
            let text: Vec<u8> = a.iter().copied().take_while(|b| *b != 0).collect();
            format!("\"{}\"", text.escape_ascii())
        })
        .collect();
    Some(if shown.is_empty() {
        "(no arguments)".to_string()
    } else {
        shown.join(" ")
    })
}
