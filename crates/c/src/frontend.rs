//! C as a [`wiser_frontend::Frontend`]: a file through the preprocessor to
//! the IR; its witnesses named by their nondeterministic calls, and a gcc
//! harness that replays them.

use crate::{compile_file, harness, Compiled, NondetFn, Options, UNSUPPORTED};
use std::path::Path;
use std::sync::Arc;
use wiser_frontend::{
    one_line, CommandLineError, DataModel, Frontend, Harness, HarnessRead, LoadError, LoadRequest,
    Loaded, LoadedProgram, ReadSite, WitnessStyle,
};
use wiser_ir::{Instr, Ir, Pc, Place, Sources};
use wiser_num::Int;

/// The C front end.
pub struct C;

/// The C front end, for a registry of front ends.
pub static FRONTEND: C = C;

/// A compiled C program and the data model it was read under.
struct CProgram {
    compiled: Compiled,
    data_model: DataModel,
}

impl LoadedProgram for CProgram {
    fn read_site(&self, ir: &Ir, sources: &Sources, pc: Pc) -> ReadSite {
        let loc = ir.at(pc);
        if let Some(f) = self.compiled.nondet_reads.get(&loc.span) {
            return ReadSite::Call {
                function: f.name.clone(),
                type_name: f.c_type.clone(),
            };
        }
        // Each routine's code is contiguous, from its entry on.
        let slot_name = |slot: u32| {
            std::iter::once(&ir.main)
                .chain(&ir.procs)
                .filter(|r| r.entry <= pc)
                .max_by_key(|r| r.entry)
                .and_then(|r| r.slots.get(slot as usize))
                .filter(|s| !s.is_temporary())
                .map(|s| s.name.to_string())
        };
        let at = sources.line_col(loc.span);
        let name = match loc.instr {
            Instr::Havoc {
                dst: Place::Local(slot),
                next,
                ..
            } => slot_name(slot).or_else(|| {
                stored_into(
                    ir,
                    next,
                    &slot_name,
                    &self.compiled.member_reads,
                    loc.span,
                    at,
                )
            }),
            Instr::Havoc {
                dst: Place::Global(g),
                ..
            } => {
                let name = ir.globals.get(g as usize).map(|g| g.name.to_string());
                // `main`'s arguments (`$argc`, `$argv[1][0]`) by their C
                // names.
                if let Some(arg) = name
                    .as_deref()
                    .and_then(|n| crate::lower::argument_name(n, at))
                {
                    return ReadSite::Argument(arg);
                }
                name
            }
            _ => None,
        };
        ReadSite::Uninitialised(name.unwrap_or_else(|| format!("the local at {at}")))
    }

    fn harness(&self, file: &str, reads: &[HarnessRead<'_>]) -> Option<Harness> {
        // The program's environment: `main`'s command line and the
        // allocations that fail.
        let mut args = harness::Environment::default();
        for (v, site) in reads {
            if let ReadSite::Argument(name) = site {
                args.set(name, v);
            }
        }
        let reads: Vec<HarnessRead<'_>> = reads
            .iter()
            .filter(|(_, site)| !matches!(site, ReadSite::Argument(_)))
            .copied()
            .collect();
        let functions: Vec<Option<NondetFn>> = reads
            .iter()
            .map(|(_, site)| match site {
                ReadSite::Call {
                    function,
                    type_name,
                } => Some(NondetFn {
                    name: function.clone(),
                    c_type: type_name.clone(),
                }),
                _ => None,
            })
            .collect();
        let reads: Vec<harness::Read<'_>> = reads
            .iter()
            .zip(&functions)
            .map(|((v, _), f)| ((*v).clone(), f.as_ref()))
            .collect();
        Some(Harness {
            text: harness::harness(&self.compiled, file, &reads, &args, self.data_model),
            command: format!(
                "gcc {} {{program}} {{harness}} -o replay && ./replay",
                std::iter::once(self.data_model.gcc_flag())
                    .chain(self.data_model.gcc_float_flags().iter().copied())
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
            exit_at_error: harness::EXIT_ERROR_REACHED,
        })
    }

    fn has_harness(&self) -> bool {
        true
    }

    fn command_line(
        &self,
        ir: &Ir,
        args: &[Vec<u8>],
    ) -> Option<Result<Vec<Int>, CommandLineError>> {
        let bytes = ir.globals.iter().any(|g| crate::lower::reads_argv(&g.name));
        ir.globals
            .iter()
            .any(|g| &*g.name == crate::lower::ARGC)
            .then(|| crate::lower::command_line_reads(args, bytes))
    }
}

/// The name of the memory a havocked temporary initialises, from the
/// store that follows it (`next`): a variable whose address is taken
/// (its cell, `x`), a member of an allocated structure (``member `f` of
/// the object allocated at 12:9``, from the members the front end
/// recorded by the allocation's span and the member's offset), or an
/// allocated integer (`the object allocated at 12:9`).
fn stored_into(
    ir: &Ir,
    next: Pc,
    slot_name: &dyn Fn(u32) -> Option<String>,
    members: &std::collections::HashMap<(wiser_ir::Span, u64), String>,
    span: wiser_ir::Span,
    at: wiser_ir::LineCol,
) -> Option<String> {
    let Instr::Store { array, index, .. } = &ir.code.get(next as usize)?.instr else {
        return None;
    };
    let offset = match &index[..] {
        // A variable whose address is taken (its cell), unless the
        // allocation recorded a member at offset 0 (a structure's first).
        [wiser_ir::Op::Load(Place::Local(slot))] => {
            if let Some(name) = slot_name(*slot).filter(|_| !members.contains_key(&(span, 0))) {
                return Some(name);
            }
            0
        }
        [wiser_ir::Op::Load(Place::Global(g))] => {
            return ir.globals.get(*g as usize).map(|g| g.name.to_string())
        }
        [wiser_ir::Op::Load(_), wiser_ir::Op::Int(_, k), wiser_ir::Op::Binary(..)] => {
            k.to_i64().map_or(0, |v| v as u64)
        }
        _ => 0,
    };
    ir.classes
        .iter()
        .find(|c| c.fields.iter().any(|f| f.array == *array))?;
    Some(match members.get(&(span, offset)) {
        Some(member) => format!("member `{member}` of the object allocated at {at}"),
        None => format!("the object allocated at {at}"),
    })
}

impl Frontend for C {
    fn name(&self) -> &'static str {
        "c"
    }

    fn description(&self) -> &'static str {
        "C (preprocessed by the system's cpp unless the file ends in .i)."
    }

    fn extensions(&self) -> &'static [&'static str] {
        &["c", "i"]
    }

    fn load(&self, request: &LoadRequest<'_>) -> Result<Loaded, LoadError> {
        let path = request.path;
        let name = path.display().to_string();
        if path == Path::new("-") {
            return Err(LoadError::refused(
                "standard input is read as IMP; give a C program as a file",
                Some("C goes through the system preprocessor, which reads files"),
            ));
        }
        if request.assume.is_some() {
            return Err(LoadError::refused(
                format!("--assume is for IMP programs; `{name}` is C"),
                Some("constrain the inputs in the program: `__VERIFIER_assume(cond);` after the reads"),
            ));
        }
        if let Err(e) = std::fs::File::open(path) {
            return Err(LoadError::refused(
                format!("cannot read `{name}`: {e}"),
                Some("check the path; wiser takes one C source file (.c, or .i when preprocessed)"),
            ));
        }
        let mut sources = Sources::new();
        let data_model = request.data_model;
        let options = Options {
            data_model,
            malloc_may_fail: request.malloc_may_fail,
        };
        // The front end must never panic; if it does, say so as an
        // internal error rather than a crash.
        let compiled = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            compile_file(&mut sources, path, &options)
        }))
        .map_err(|_| {
            LoadError::refused(
                format!("internal error: the C front end failed on `{name}` (a bug in wiser; please report it with the file)"),
                None,
            )
        })?;
        match compiled {
            Ok(compiled) => Ok(Loaded {
                ir: Arc::new(compiled.ir.clone()),
                warnings: compiled.warnings.clone(),
                sources,
                data_model: Some(data_model),
                details: Box::new(CProgram {
                    compiled,
                    data_model,
                }),
            }),
            Err(diagnostic) => Err(LoadError::Program {
                unsupported: diagnostic.message.starts_with(UNSUPPORTED),
                diagnostic,
                sources,
            }),
        }
    }

    fn witness_style(&self) -> WitnessStyle {
        WitnessStyle::Reads
    }

    fn reads_name(&self) -> &'static str {
        "nondeterministic read(s) (`__VERIFIER_nondet_*()` or an uninitialised local)"
    }

    fn main_is_startup(&self) -> bool {
        true
    }

    fn describe_error(&self, kind: wiser_ir::ErrorKind) -> &'static str {
        match kind {
            // SV-COMP's error function (or the older `__VERIFIER_error`).
            wiser_ir::ErrorKind::Fail => "error function called",
            other => other.describe(),
        }
    }

    fn statement_condition(&self, statement: &str) -> Option<(&'static str, String)> {
        condition(statement.trim())
    }

    fn writes_testcomp(&self) -> bool {
        true
    }
}

/// The text inside the parentheses that open at `open` (a byte index of
/// `(`), balanced; character and string literals are skipped.
fn parenthesised_at(text: &str, open: usize) -> Option<&str> {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut i = open;
    while i < bytes.len() {
        match bytes[i] {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return text.get(open + 1..i);
                }
            }
            q @ (b'\'' | b'"') => {
                i += 1;
                while i < bytes.len() && bytes[i] != q {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// The condition of `if (c)`, `while (c)`, `for (i; c; s)`, `do ...
/// while (c);`, `switch (v)`.
fn condition(stmt: &str) -> Option<(&'static str, String)> {
    let word = stmt
        .split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
        .next()
        .unwrap_or("");
    let open = |from: usize| stmt[from..].find('(').map(|i| i + from);
    match word {
        "if" | "while" | "switch" => {
            let inner = parenthesised_at(stmt, open(word.len())?)?;
            let keyword = match word {
                "if" => "if",
                "while" => "while",
                _ => "switch",
            };
            Some((keyword, one_line(inner)))
        }
        "for" => {
            let inner = parenthesised_at(stmt, open(3)?)?;
            // `for (;;)` loops while true.
            let cond = one_line(inner.split(';').nth(1)?);
            Some(("for", if cond.is_empty() { "true".into() } else { cond }))
        }
        "do" => {
            let at = stmt.rfind("while")?;
            let inner = parenthesised_at(stmt, open(at)?)?;
            Some(("while", one_line(inner)))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conditions_are_cut_from_their_statements() {
        let c = [
            ("if (x > 0) { y = 1; }", "x > 0"),
            ("while (i < n && a[i] != 0) i++;", "i < n && a[i] != 0"),
            ("while (i < n) { do { i++; } while (i < 3); }", "i < n"),
            ("for (i = 0; i < 10; i++) s += i;", "i < 10"),
            ("for (;;) { }", "true"),
            ("do { x--; } while (x > 0);", "x > 0"),
        ];
        for (stmt, cond) in c {
            assert_eq!(
                condition(stmt).map(|c| c.1).as_deref(),
                Some(cond),
                "{stmt}"
            );
        }
        assert_eq!(condition("a && b"), None);
    }

    #[test]
    fn statements_with_literals_give_their_conditions() {
        assert_eq!(
            condition("if (c == ')' && (x > 0)) { y = 1; }"),
            Some(("if", "c == ')' && (x > 0)".into()))
        );
        assert_eq!(
            condition("for (int i = 0; i < 4; i++) a[i] = 0;"),
            Some(("for", "i < 4".into()))
        );
        assert_eq!(
            condition("do { x--; } while (x > 0);"),
            Some(("while", "x > 0".into()))
        );
        assert_eq!(condition("case 3"), None);
    }
}
