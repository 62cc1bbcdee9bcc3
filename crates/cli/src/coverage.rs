//! `check --coverage` and `--lcov FILE`: which statements of the program
//! a run reached, which sides of its branches it took, and which
//! assertions it never reached, from the engine's [`Coverage`] (reached
//! instructions, decision sides taken, constant-folded ones included).
//!
//! Only what the user wrote is counted: instructions of the program's own
//! file with a location (see [`sites::is_statement`]); a statement lowered
//! to several instructions counts once, reached if any of them was.

use crate::error::CliError;
use crate::load::Program;
use crate::sites::{self, SiteInfo};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::Path;
use wiser_engine::Coverage;
use wiser_ir::{Instr, Pc, Site, Span};

/// One branch: its site and the sides taken.
pub struct BranchCov {
    pub info: SiteInfo,
    pub reached: bool,
    pub taken_true: bool,
    pub taken_false: bool,
}

/// One assertion: reached, held, failed.
pub struct AssertCov {
    pub info: SiteInfo,
    pub reached: bool,
    pub held: bool,
    pub failed: bool,
}

/// A run's coverage in the program's terms.
pub struct Summary {
    /// Statements (by source span, in source order) and whether reached.
    pub statements: Vec<(Span, bool)>,
    /// Branches in source order.
    pub branches: Vec<BranchCov>,
    /// Assertions in source order.
    pub assertions: Vec<AssertCov>,
}

impl Summary {
    /// The summary of `coverage` on `program`.
    pub fn new(program: &Program, coverage: &Coverage) -> Summary {
        let ir = &program.ir;
        let reached = |pc: Pc| coverage.reached.get(pc as usize).copied().unwrap_or(false);
        let mut statements: BTreeMap<Span, bool> = BTreeMap::new();
        let mut branches = Vec::new();
        let mut assertions = Vec::new();
        for pc in 0..ir.code.len() as Pc {
            if !sites::is_statement(program, pc) {
                continue;
            }
            *statements.entry(ir.at(pc).span).or_default() |= reached(pc);
            let site = Site { pc, check: None };
            let info = || sites::site_info(program, site);
            match ir.at(pc).instr {
                Instr::Branch { .. } => branches.push(BranchCov {
                    info: info(),
                    reached: reached(pc),
                    taken_true: coverage.taken(site, true),
                    taken_false: coverage.taken(site, false),
                }),
                Instr::Assert { .. } => assertions.push(AssertCov {
                    info: info(),
                    reached: reached(pc),
                    held: coverage.taken(site, true),
                    failed: coverage.taken(site, false),
                }),
                _ => {}
            }
        }
        branches.sort_by_key(|b| b.info.span);
        assertions.sort_by_key(|a| a.info.span);
        Summary {
            statements: statements.into_iter().collect(),
            branches,
            assertions,
        }
    }

    fn statements_reached(&self) -> usize {
        self.statements.iter().filter(|(_, r)| *r).count()
    }

    fn sides_taken(&self) -> usize {
        self.branches
            .iter()
            .map(|b| usize::from(b.taken_true) + usize::from(b.taken_false))
            .sum()
    }
}

fn percent(n: usize, of: usize) -> String {
    if of == 0 {
        "100%".into()
    } else {
        format!("{:.0}%", 100.0 * n as f64 / of as f64)
    }
}

/// The text report, after the check's own.
pub fn text(program: &Program, s: &Summary) -> String {
    let mut out = String::new();
    let (stmts, reached) = (s.statements.len(), s.statements_reached());
    let (sides, taken) = (2 * s.branches.len(), s.sides_taken());
    let asserts_reached = s.assertions.iter().filter(|a| a.reached).count();
    let _ = writeln!(
        out,
        "coverage: statements {reached}/{stmts} reached ({}), branch sides {taken}/{sides} taken ({}), assertions {asserts_reached}/{} reached",
        percent(reached, stmts),
        percent(taken, sides),
        s.assertions.len()
    );
    let row = |out: &mut String, info: &SiteInfo, note: &str| {
        let at = format!("{}", info.at);
        let _ = writeln!(
            out,
            "    {at:<7} {}{note}",
            sites::shorten(&info.label, 2 * sites::MAX_LABEL)
        );
    };
    let both: Vec<&BranchCov> = s
        .branches
        .iter()
        .filter(|b| b.taken_true && b.taken_false)
        .collect();
    let one: Vec<&BranchCov> = s
        .branches
        .iter()
        .filter(|b| b.taken_true != b.taken_false)
        .collect();
    let none: Vec<&BranchCov> = s
        .branches
        .iter()
        .filter(|b| !b.taken_true && !b.taken_false)
        .collect();
    if !both.is_empty() {
        let _ = writeln!(out, "  branches with both sides taken: {}", both.len());
        for b in &both {
            row(&mut out, &b.info, "");
        }
    }
    if !one.is_empty() {
        let _ = writeln!(out, "  branches with one side taken: {}", one.len());
        for b in &one {
            let side = if b.taken_true {
                "   (only true)"
            } else {
                "   (only false)"
            };
            row(&mut out, &b.info, side);
        }
    }
    if !none.is_empty() {
        let _ = writeln!(out, "  branches never reached: {}", none.len());
        for b in &none {
            row(&mut out, &b.info, "");
        }
    }
    let unreached: Vec<&AssertCov> = s.assertions.iter().filter(|a| !a.reached).collect();
    if !unreached.is_empty() {
        let _ = writeln!(out, "  assertions never reached: {}", unreached.len());
        for a in unreached {
            row(&mut out, &a.info, "");
        }
    }
    let missed: Vec<Span> = s
        .statements
        .iter()
        .filter(|(_, r)| !r)
        .map(|(sp, _)| *sp)
        .collect();
    if !missed.is_empty() {
        let _ = writeln!(out, "  statements never reached: {}", missed.len());
        for sp in missed {
            let _ = writeln!(
                out,
                "    {:<7} {}",
                format!("{}", program.line_col(sp)),
                sites::shorten(&sites::span_text(program, sp), 2 * sites::MAX_LABEL)
            );
        }
    }
    out
}

fn place(info: &SiteInfo) -> (u32, u32) {
    (info.at.line, info.at.column)
}

/// The `coverage` object of the JSON report.
pub fn json(program: &Program, s: &Summary) -> Value {
    let unreached: Vec<Value> = s
        .statements
        .iter()
        .filter(|(_, r)| !r)
        .map(|(sp, _)| {
            let lc = program.line_col(*sp);
            json!({"line": lc.line, "column": lc.column, "text": sites::span_text(program, *sp)})
        })
        .collect();
    let branches: Vec<Value> = s
        .branches
        .iter()
        .map(|b| {
            let (line, column) = place(&b.info);
            json!({"line": line, "column": column, "condition": b.info.label,
                   "reached": b.reached, "true": b.taken_true, "false": b.taken_false})
        })
        .collect();
    let assertions: Vec<Value> = s
        .assertions
        .iter()
        .map(|a| {
            let (line, column) = place(&a.info);
            json!({"line": line, "column": column, "text": a.info.label,
                   "reached": a.reached, "held": a.held, "failed": a.failed})
        })
        .collect();
    json!({
        "statements": {
            "total": s.statements.len(),
            "reached": s.statements_reached(),
            "unreached": unreached,
        },
        "branch_sides": {"total": 2 * s.branches.len(), "taken": s.sides_taken()},
        "branches": branches,
        "assertions": assertions,
    })
}

/// The coverage as an lcov tracefile (the format `genhtml` reads): lines
/// of the program's file (`DA`, hit count 1 if a statement starting on it
/// was reached, else 0; lcov has no place for path counts) and branches
/// (`BRDA`, block = the branch's number in source order, branch 0 = true
/// side, 1 = false side, `-` when the branch was never reached).
pub fn lcov(program: &Program, s: &Summary) -> String {
    let file = std::fs::canonicalize(&program.file).unwrap_or_else(|_| program.file.clone());
    lcov_for(&file, program, s)
}

fn lcov_for(file: &Path, program: &Program, s: &Summary) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "TN:");
    let _ = writeln!(out, "SF:{}", file.display());
    let mut brf = 0;
    let mut brh = 0;
    for (block, b) in s.branches.iter().enumerate() {
        for (branch, taken) in [(0, b.taken_true), (1, b.taken_false)] {
            let hits = if !b.reached {
                "-"
            } else if taken {
                "1"
            } else {
                "0"
            };
            brf += 1;
            brh += usize::from(taken);
            let _ = writeln!(out, "BRDA:{},{block},{branch},{hits}", b.info.at.line);
        }
    }
    let _ = writeln!(out, "BRF:{brf}");
    let _ = writeln!(out, "BRH:{brh}");
    let mut lines: BTreeMap<u32, bool> = BTreeMap::new();
    for &(sp, reached) in &s.statements {
        *lines.entry(program.line_col(sp).line).or_default() |= reached;
    }
    for (line, hit) in &lines {
        let _ = writeln!(out, "DA:{line},{}", u8::from(*hit));
    }
    let _ = writeln!(out, "LF:{}", lines.len());
    let _ = writeln!(out, "LH:{}", lines.values().filter(|h| **h).count());
    let _ = writeln!(out, "end_of_record");
    out
}

/// Writes the lcov file.
pub fn write_lcov(program: &Program, s: &Summary, out: &Path) -> Result<(), CliError> {
    std::fs::write(out, lcov(program, s))
        .map_err(|e| CliError::cannot_write("the coverage", out, &e))
}
