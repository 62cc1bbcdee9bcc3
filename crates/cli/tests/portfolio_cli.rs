//! `wiser verify`: the engines side by side on every example. Its answer
//! must agree with what each example's header says of the engines alone
//! (`expect:` is `check`'s verdict, `prove:` the prover's) wherever they
//! finish, name the engine that answered, and validate against the report
//! schema; `--engine` runs the engines asked for and no other.

mod support;

use serde_json::Value;
use std::sync::Mutex;
use support::{assert_valid, examples, json_of, schema, wiser, Example};

/// Seconds per example: every example but one answers in under a second
/// (alone, `check` needs 7 s on `c/float_to_int.c`'s float queries).
const TIMEOUT: &str = "10";

/// `check`'s search options that `verify` does not take (its engines
/// search by their own rules).
const CHECK_ONLY: &[&str] = &["--all", "--max-states", "--strategy", "--merge"];

fn verify(e: &Example, extra: &[&str]) -> Value {
    let path = e.path.to_str().expect("a UTF-8 path").to_string();
    let mut args: Vec<String> = vec!["verify".into(), path];
    let mut given = e.args.iter();
    while let Some(a) = given.next() {
        if CHECK_ONLY.contains(&a.as_str()) {
            if a != "--all" {
                given.next();
            }
        } else {
            args.push(a.clone());
        }
    }
    args.extend(["--format", "json", "--timeout", TIMEOUT, "-q"].map(String::from));
    args.extend(extra.iter().map(|s| s.to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    json_of(&wiser(&args))
}

#[test]
fn the_portfolio_agrees_with_the_engines_on_every_example() {
    let validator = schema("wiser-report.schema.json");
    let all = examples();
    let failures = Mutex::new(Vec::new());
    let answered = Mutex::new(0usize);
    let next = Mutex::new(all.iter());
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let Some(e) = next.lock().unwrap().next() else {
                    break;
                };
                let doc = verify(e, &[]);
                let name = e.path.display().to_string();
                assert_valid(&validator, &doc, &name);
                let verdict = doc["verdict"].as_str().unwrap_or("?");
                let by = &doc["portfolio"]["answered_by"];
                let mut bad = Vec::new();
                if verdict != "unknown" {
                    *answered.lock().unwrap() += 1;
                    if e.verdict != "unknown" && e.verdict != verdict {
                        bad.push(format!("`check` alone says {}", e.verdict));
                    }
                    if e.prove.as_deref() == Some("safe") && verdict != "safe" {
                        bad.push("`prove` alone proves it".into());
                    }
                    let member = doc["portfolio"]["members"]
                        .as_array()
                        .and_then(|ms| ms.iter().find(|m| m["engine"] == *by));
                    // The report is the answering member's engine's: the
                    // k-induction member's is `prove`'s, with its method.
                    let engine_of_report = match by.as_str() {
                        Some("k-induction") => {
                            if doc["proof"]["method"] != "k-induction" {
                                bad.push(format!("k-induction answered, proof {}", doc["proof"]));
                            }
                            "prove"
                        }
                        other => other.unwrap_or("?"),
                    };
                    if member.is_none_or(|m| m["verdict"] != verdict)
                        || doc["engine"] != engine_of_report
                    {
                        bad.push(format!("answered by {by}, which did not say it"));
                    }
                } else if !by.is_null() {
                    bad.push(format!("unknown, yet answered by {by}"));
                }
                if doc["internal_errors"]
                    .as_array()
                    .is_some_and(|v| !v.is_empty())
                {
                    bad.push(format!("internal errors {}", doc["internal_errors"]));
                }
                if !bad.is_empty() {
                    let why = bad.join("; ");
                    failures
                        .lock()
                        .unwrap()
                        .push(format!("{name}: says {verdict}: {why}"));
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // A loaded machine may cut the slowest; nearly all answer.
    let answered = answered.into_inner().unwrap();
    assert!(
        answered + 3 >= all.len(),
        "only {answered} of {} examples answered",
        all.len()
    );
}

fn example(path: &str) -> Example {
    examples()
        .into_iter()
        .find(|e| e.path.to_str() == Some(path))
        .unwrap_or_else(|| panic!("no example {path}"))
}

#[test]
fn engine_runs_only_the_engines_asked_for() {
    let e = example("examples/c/sum_invariant.c");
    let doc = verify(&e, &["--engine", "prove"]);
    assert_eq!(doc["verdict"], "safe", "{doc}");
    assert_eq!(doc["engine"], "prove");
    let members = doc["portfolio"]["members"].as_array().unwrap();
    assert_eq!(members.len(), 1, "{doc}");
    assert!(doc["invariants"].as_array().is_some_and(|v| !v.is_empty()));

    let bug = example("examples/deep_bug.imp");
    let doc = verify(&bug, &["--engine", "check,bmc"]);
    assert_eq!(doc["verdict"], "bug", "{doc}");
    let engines: Vec<&str> = doc["portfolio"]["members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["engine"].as_str().unwrap())
        .collect();
    assert_eq!(engines, ["check", "bmc"]);
    assert_eq!(doc["bugs"][0]["line"], 10, "{doc}");
}

#[test]
fn the_text_report_names_the_engine_that_answered() {
    // Loop acceleration lets `check` answer first on this program, so the
    // provers are asked alone.
    let out = wiser(&[
        "verify",
        "examples/c/sum_invariant.c",
        "--engine",
        "prove,k-induction",
        "--timeout",
        TIMEOUT,
        "-q",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("verdict: safe (proved"), "{text}");
    // Houdini's invariant proves it, so either prover member may answer.
    assert!(
        text.contains("answered by: prove after")
            || text.contains("answered by: k-induction after"),
        "{text}"
    );
    assert!(
        text.contains("invariant at examples/c/sum_invariant.c:"),
        "{text}"
    );

    let out = wiser(&["verify", "examples/deep_bug.imp", "--engine", "bogus"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("invalid value 'bogus'") && err.contains("check"),
        "{err}"
    );
}
