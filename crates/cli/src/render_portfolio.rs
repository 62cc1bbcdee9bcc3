//! What `wiser verify` adds to a report: which engine answered, and how
//! each engine of the portfolio ended.

use serde_json::{json, Value};
use wiser_engine::{MemberOutcome, PortfolioRun, Verdict};

/// The portfolio's part of the text report: the engine that answered and
/// how the others ended, or, without an answer, each engine's reasons.
pub(crate) fn text(run: &PortfolioRun) -> String {
    let ended = |m: &MemberOutcome| {
        if m.not_started {
            let why = if m.stopped {
                "not started"
            } else {
                "not started: no room under the memory bound"
            };
            why.to_string()
        } else if m.abandoned {
            "left inside a step".to_string()
        } else if m.stopped {
            "stopped".to_string()
        } else if m.verdict != Verdict::Unknown {
            format!("{} too", m.verdict.name())
        } else {
            reasons(m)
        }
    };
    match run.answered_by {
        Some(engine) => {
            let winner = run.members.iter().find(|m| m.engine == engine);
            let after = winner.map_or(String::new(), |m| {
                format!(" after {:.2} s", m.elapsed.as_secs_f64())
            });
            let others: Vec<String> = run
                .members
                .iter()
                .filter(|m| m.engine != engine)
                .map(|m| format!("{}: {}", m.engine, ended(m)))
                .collect();
            let others = if others.is_empty() {
                String::new()
            } else {
                format!(" ({})", others.join("; "))
            };
            format!("answered by: {engine}{after}{others}\n")
        }
        None => {
            let each: Vec<String> = run
                .members
                .iter()
                .map(|m| format!("{}: {}", m.engine, ended(m)))
                .collect();
            format!("no engine answered: {}\n", each.join("; "))
        }
    }
}

/// A member's reasons for `unknown`, as report names.
fn reasons(m: &MemberOutcome) -> String {
    if m.incomplete.is_empty() {
        return "unknown".into();
    }
    let names: Vec<&str> = m.incomplete.iter().map(|i| i.name()).collect();
    names.join(", ")
}

/// The JSON report's `portfolio` object.
pub(crate) fn json(run: &PortfolioRun) -> Value {
    let members: Vec<Value> = run
        .members
        .iter()
        .map(|m| {
            json!({
                "engine": m.engine,
                "verdict": m.verdict.name(),
                "incomplete": m.incomplete.iter().map(|i| i.name()).collect::<Vec<_>>(),
                "elapsed_ms": u64::try_from(m.elapsed.as_millis()).unwrap_or(u64::MAX),
                "stopped": m.stopped,
                "abandoned": m.abandoned,
                "not_started": m.not_started,
            })
        })
        .collect();
    json!({"answered_by": run.answered_by, "members": members})
}
