//! `wiser prove` on the examples: what their `prove:` lines say, and never
//! `safe` where another engine finds a bug.
//!
//! An example's header may say what the prover answers (`# prove: safe`,
//! `# prove: unknown`); every example whose `expect:` is a bug is proved
//! too, and the prover must not say `safe` of it (its invariants would
//! have passed the independent check on a program with a replayed bug:
//! the agreement of the prover with the bug-finding engines). Every JSON
//! report validates against the report schema.

mod support;

use std::sync::Mutex;
use support::{assert_valid, examples, json_of, schema, scratch_file, wiser, Example};

/// Seconds per proof attempt: the proved examples take well under one.
const TIMEOUT: &str = "10";

fn prove(e: &Example) -> serde_json::Value {
    prove_path(e.path.to_str().expect("a UTF-8 path"))
}

/// `wiser prove PATH` as JSON, within [`TIMEOUT`].
fn prove_path(path: &str) -> serde_json::Value {
    json_of(&wiser(&[
        "prove",
        path,
        "--format",
        "json",
        "--timeout",
        TIMEOUT,
        "-q",
    ]))
}

#[test]
fn prove_lines_hold_and_no_bug_example_is_proved_safe() {
    let validator = schema("wiser-report.schema.json");
    let todo: Vec<Example> = examples()
        .into_iter()
        .filter(|e| e.prove.is_some() || e.verdict == "bug")
        .collect();
    assert!(
        todo.iter()
            .filter(|e| e.prove.as_deref() == Some("safe"))
            .count()
            >= 2
    );
    let failures = Mutex::new(Vec::new());
    let next = Mutex::new(todo.iter());
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let Some(e) = next.lock().unwrap().next() else {
                    break;
                };
                let doc = prove(e);
                assert_valid(&validator, &doc, &e.path.display().to_string());
                let verdict = doc["verdict"].as_str().unwrap_or("?").to_string();
                let bad = match (&e.prove, e.verdict.as_str()) {
                    (Some(want), _) => verdict != *want,
                    (None, "bug") => verdict == "safe",
                    _ => false,
                };
                if bad {
                    failures.lock().unwrap().push(format!(
                        "{}: prove says {verdict} (expect {}, prove: {:?}): {doc}",
                        e.path.display(),
                        e.verdict,
                        e.prove
                    ));
                }
                if verdict == "safe" {
                    let invariants = doc["invariants"].as_array().expect("invariants");
                    assert!(doc["incomplete"].as_array().is_some_and(|i| i.is_empty()));
                    assert_eq!(doc["engine"], "prove");
                    // A loop has its invariant; each names a line.
                    for inv in invariants {
                        assert!(inv["line"].as_u64().is_some_and(|l| l > 0), "{inv}");
                        assert!(!inv["invariant"].as_str().unwrap_or("").is_empty());
                    }
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_proof_prints_its_checked_invariant_in_the_programs_variables() {
    let out = wiser(&["prove", "examples/sum_invariant.imp"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(
        text.contains("invariant at examples/sum_invariant.imp:10:1 (in main):"),
        "{text}"
    );
    assert!(text.contains("s == 2*i"), "{text}");
    assert!(
        text.contains("verdict: safe (proved: 1 loop invariant, checked independently;"),
        "{text}"
    );
}

#[test]
fn no_proof_says_why_and_exits_3() {
    // Euclid's subtraction: `%` is not linear, so Spacer has no invariant.
    let out = wiser(&[
        "prove",
        "examples/gcd.imp",
        "--format",
        "json",
        "--timeout",
        TIMEOUT,
    ]);
    let doc = json_of(&out);
    assert_eq!(out.status.code(), Some(3), "{doc}");
    assert_eq!(doc["verdict"], "unknown");
    assert!(
        doc["proof"]["reason"]
            .as_str()
            .is_some_and(|r| !r.is_empty()),
        "{doc}"
    );
}

#[test]
fn a_boolean_at_a_loop_head_takes_part_without_a_sort_error() {
    // A regression: Houdini's increments subtracted a boolean's next value
    // from it (a sort error that panicked the prover's worker).
    let dir = std::env::temp_dir().join(format!("wiser-prove-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("flag.c");
    std::fs::write(
        &file,
        "extern int __VERIFIER_nondet_int(void);\n\
         void reach_error(void) {}\n\
         int main(void) {\n\
           _Bool up = 1;\n\
           int i = 0;\n\
           while (i < 100 && __VERIFIER_nondet_int()) {\n\
             up = !up;\n\
             i++;\n\
           }\n\
           if (i > 100) reach_error();\n\
           return 0;\n\
         }\n",
    )
    .unwrap();
    let path = file.to_str().unwrap();
    let out = wiser(&["prove", path, "--format", "json", "--timeout", TIMEOUT]);
    let doc = json_of(&out);
    assert_eq!(doc["verdict"], "safe", "{doc}");
    assert!(
        doc["internal_errors"]
            .as_array()
            .is_some_and(|e| e.is_empty()),
        "{doc}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn sarif_carries_the_invariants_at_their_loops() {
    let validator = schema("sarif-2.1.0.json");
    let out = wiser(&["prove", "examples/sum_invariant.imp", "--format", "sarif"]);
    let doc = json_of(&out);
    assert_valid(&validator, &doc, "prove --format sarif");
    let run = &doc["runs"][0];
    assert_eq!(run["properties"]["verdict"], "safe", "{doc}");
    assert_eq!(run["properties"]["engine"], "prove");
    let invariants = run["properties"]["invariants"]
        .as_array()
        .expect("invariants");
    assert_eq!(invariants.len(), 1, "{doc}");
    let notes = run["invocations"][0]["toolExecutionNotifications"]
        .as_array()
        .expect("notifications");
    let note = notes
        .iter()
        .find(|n| n["level"] == "note")
        .unwrap_or_else(|| panic!("no invariant note: {doc}"));
    let text = note["message"]["text"].as_str().unwrap();
    assert!(
        text.contains("loop invariant") && text.contains("s == 2*i"),
        "{text}"
    );
    let region = &note["locations"][0]["physicalLocation"]["region"];
    assert_eq!(region["startLine"], 10, "{note}");
}

/// `wiser prove` on a C program of its own, as JSON.
fn prove_c(name: &str, text: &str) -> serde_json::Value {
    let file = scratch_file("prove-cli", name, text);
    prove_path(file.to_str().expect("a UTF-8 path"))
}

/// A recursive identity on 0..=100 (SV-COMP's recursive-simple `id`
/// tasks), planted with `bug` in its result.
fn identity(bug: &str) -> String {
    format!(
        "extern int __VERIFIER_nondet_int(void);\n\
         void reach_error(void) {{}}\n\
         int id(int n) {{\n\
           if (n == 0) return 0;\n\
           int r = id(n - 1) + 1;\n\
           {bug}\n\
           return r;\n\
         }}\n\
         int main(void) {{\n\
           int n = __VERIFIER_nondet_int();\n\
           if (n < 0 || n > 100) return 0;\n\
           if (id(n) != n) reach_error();\n\
           return 0;\n\
         }}\n"
    )
}

#[test]
fn a_recursive_procedure_is_proved_by_its_checked_summary() {
    let doc = prove_c("id.c", &identity(""));
    assert_eq!(doc["verdict"], "safe", "{doc}");
    // The summary of `id` is among the invariants, in its variables.
    let invariants = doc["invariants"].as_array().expect("invariants");
    assert!(
        invariants.iter().any(|i| i["routine"] == "id"
            && i["invariant"]
                .as_str()
                .is_some_and(|t| t.contains("result"))),
        "{doc}"
    );
}

#[test]
fn a_recursive_procedure_with_a_bug_is_not_proved() {
    // id(3) is 2: reach_error is reachable, through three recursive calls.
    let doc = prove_c("id_bug.c", &identity("if (r > 2) return 2;"));
    assert_eq!(doc["verdict"], "unknown", "{doc}");
    assert!(
        doc["proof"]["reason"]
            .as_str()
            .is_some_and(|r| r.contains("Spacer found a path to an error")),
        "{doc}"
    );
}

#[test]
fn a_bug_inside_a_recursive_procedure_counts_only_where_it_is_called() {
    // SV-COMP's afterrec: the error after the recursive call is reached
    // from f(4) (f(3) returns at once, then f(4)'s error), not from f(2).
    let program = |arg: u32| {
        format!(
            "void reach_error(void) {{}}\n\
             void f(int n) {{\n\
               if (n < 3) return;\n\
               n--;\n\
               f(n);\n\
               reach_error();\n\
             }}\n\
             int main(void) {{ f({arg}); return 0; }}\n"
        )
    };
    let safe = prove_c("afterrec_safe.c", &program(2));
    assert_eq!(safe["verdict"], "safe", "{safe}");
    let bug = prove_c("afterrec_bug.c", &program(4));
    assert_eq!(bug["verdict"], "unknown", "{bug}");
}

#[test]
fn k_induction_proves_a_four_inductive_property_at_four() {
    // Spacer's time on this example varies from 2 to 25 seconds from run
    // to run (its invariant is a product of four parities), so only
    // k-induction's answer is asserted.
    let file = "examples/c/kinduction_odd.c";
    // Four consecutive odd x make the next odd: 4-inductive, not less.
    // Under a second alone, but the tests run side by side: time enough
    // (a proof ends the run at once).
    let args = ["prove", file, "--method", "k-induction", "--timeout", "60"];
    let out = wiser(&[&args[..], &["--format", "json", "-q"]].concat());
    let doc = json_of(&out);
    assert_valid(&schema("wiser-report.schema.json"), &doc, file);
    assert_eq!(doc["verdict"], "safe", "{doc}");
    assert_eq!(doc["proof"]["method"], "k-induction", "{doc}");
    assert_eq!(doc["proof"]["k"], 4, "{doc}");
    let out = wiser(&[&args[..], &["-q"]].concat());
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("proof method: k-induction"), "{text}");
    assert!(
        text.contains("verdict: safe (proved by k-induction at k = 4"),
        "{text}"
    );
    // Too small a bound on k is no proof, and says so.
    let out = wiser(&[&args[..], &["--max-k", "3", "--format", "json", "-q"]].concat());
    let doc = json_of(&out);
    assert_eq!(doc["verdict"], "unknown", "{doc}");
    let reason = doc["proof"]["reason"].as_str().unwrap_or("");
    assert!(reason.contains("not k-inductive for k up to 3"), "{doc}");
}

#[test]
fn k_induction_never_proves_a_reachable_error() {
    // An even factor makes x even at the loop's third check: the base
    // case reaches the error. Unknown, with the depth: never `safe`, and
    // never `bug` (the bug finders replay bugs).
    let example = support::root().join("examples/c/kinduction_odd.c");
    let text = std::fs::read_to_string(example)
        .expect("the example")
        .replace("z = 7", "z = 8");
    let file = support::scratch_file("prove", "even.c", &text);
    let path = file.to_str().expect("a UTF-8 path");
    for method in ["k-induction", "auto"] {
        let out = wiser(&[
            "prove",
            path,
            "--method",
            method,
            "--format",
            "json",
            "--timeout",
            TIMEOUT,
            "-q",
        ]);
        let doc = json_of(&out);
        assert_eq!(out.status.code(), Some(3), "{doc}");
        assert_eq!(doc["verdict"], "unknown", "{doc}");
        if method == "k-induction" {
            let reason = doc["proof"]["reason"].as_str().unwrap_or("");
            assert!(
                reason.contains("base case reaches an error at depth"),
                "{doc}"
            );
        }
    }
}

/// A static array walked by nested loops (SV-COMP's `loops/heavy-2`, at a
/// size an exhaustive search cannot finish), its assertion about a local
/// the loops never write; `bug` plants an out-of-bounds index.
fn walked_array(bug: &str) -> String {
    format!(
        "void reach_error(void) {{}}\n\
         int main(void) {{\n\
           static char array[4096] = {{ 1 }};\n\
           unsigned int a = 1, i, j;\n\
           for (i = 0; i < sizeof(array); i++)\n\
             for (j = 0; j < sizeof(array); j++)\n\
               array[i{bug}] = array[j] + array[i];\n\
           if (a != 1) reach_error();\n\
           return array[100];\n\
         }}\n"
    )
}

#[test]
fn objects_made_before_the_loops_are_encoded_with_what_they_hold() {
    // The array is an object of the memory model: every access checks its
    // address, length and freed flag, which the invariants must fix.
    let doc = prove_c("walked.c", &walked_array(""));
    assert_eq!(doc["verdict"], "safe", "{doc}");
    let invariants = doc["invariants"].as_array().expect("invariants");
    assert!(
        invariants.iter().any(|i| i["invariant"]
            .as_str()
            .is_some_and(|t| t.contains("$len[-1] == 4096"))),
        "{doc}"
    );
    // One past the end on the last row: never `safe`.
    let doc = prove_c("walked_bug.c", &walked_array(" + (j == 4095 && i == 4095)"));
    assert_ne!(doc["verdict"], "safe", "{doc}");
    // Encoded, though k-induction cannot unroll clauses over arrays: the
    // reason is the invariant not found, not the encoding.
    assert_eq!(
        doc["incomplete"],
        serde_json::json!(["no_invariant"]),
        "{doc}"
    );
}

#[test]
fn memory_allocated_in_a_loop_is_not_encoded() {
    // Each arrival at the loop head has made one more object: the cut
    // point's heap is not one constant, so the prover refuses the program
    // rather than treat the objects as one.
    let doc = prove_c(
        "alloc_loop.c",
        "#include <stdlib.h>\n\
         extern int __VERIFIER_nondet_int(void);\n\
         void reach_error(void) {}\n\
         int main(void) {\n\
           int n = __VERIFIER_nondet_int(), *p = 0;\n\
           for (int i = 0; i < n; i++) { free(p); p = malloc(sizeof(int)); *p = i; }\n\
           if (p && *p < 0) reach_error();\n\
           free(p);\n\
           return 0;\n\
         }\n",
    );
    assert_eq!(doc["verdict"], "unknown", "{doc}");
    assert!(
        doc["proof"]["reason"]
            .as_str()
            .is_some_and(|r| r.contains("memory allocated in a loop or on some paths only")),
        "{doc}"
    );
}

/// A loop fills `a[0..n-1]`, another reads it back: the invariant speaks
/// of every cell (`for every k: 0 <= k < i ⇒ a[k] == 5`), found over one
/// tracked cell and checked on those clauses.
const FILLED: &str = "i = 0;
while i < n do
  a[i] = 5;
  i = i + 1
od;
i = 0;
while i < READ do
  assert a[i] == 5;
  i = i + 1
od
";

#[test]
fn an_array_filled_by_a_loop_is_proved_by_an_invariant_over_every_cell() {
    let path = scratch_file("prove-cells", "filled.imp", &FILLED.replace("READ", "n"));
    let out = wiser(&["prove", path.to_str().expect("UTF-8"), "--timeout", TIMEOUT]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(
        text.contains("invariant at ") && text.contains(": for every k: "),
        "{text}"
    );
    assert!(text.contains("a[k]"), "{text}");
    assert!(
        text.contains("verdict: safe (proved: 2 loop invariants, checked independently;"),
        "{text}"
    );
}

#[test]
fn an_array_read_past_what_the_loop_filled_is_not_proved() {
    // `i <= n` reads `a[n]`, which no iteration wrote: an input's value.
    let path = scratch_file(
        "prove-cells-past",
        "filled_past.imp",
        &FILLED.replace("READ", "n + 1"),
    );
    let report = prove_path(path.to_str().expect("UTF-8"));
    assert_eq!(report["verdict"], "unknown", "{report}");
    let check = json_of(&wiser(&[
        "check",
        path.to_str().expect("UTF-8"),
        "--format",
        "json",
        "-q",
        "--assume",
        "n >= 0 and n <= 3",
    ]));
    assert_eq!(check["verdict"], "bug", "{check}");
}

/// `wiser prove` of the C program `text` under `unreach-call`, which must
/// end `safe`: its text output.
fn proved_text(folder: &str, name: &str, text: &str) -> String {
    let path = scratch_file(folder, name, text);
    let out = wiser(&[
        "prove",
        path.to_str().expect("UTF-8"),
        "--property",
        "unreach-call",
        "--timeout",
        "60",
    ]);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(out.status.code(), Some(0), "{text}");
    text
}

#[test]
fn a_c_array_filled_by_a_loop_is_proved_over_its_cells() {
    let c = "extern int __VERIFIER_nondet_int(void);
void reach_error(void) {}
int main(void) {
  int a[1000];
  int n = __VERIFIER_nondet_int();
  if (n > 1000) return 0;
  for (int i = 0; i < n; i++) a[i] = 5;
  for (int i = 0; i < n; i++)
    if (a[i] != 5) reach_error();
  return 0;
}
";
    let text = proved_text("prove-cells-c", "filled.c", c);
    assert!(
        text.contains(": for every k: ") && text.contains("main::a[k]"),
        "{text}"
    );
}

#[test]
fn arrays_compared_under_a_flag_are_proved_over_their_cells() {
    // The comparison loop's invariant: every cell below `i` agrees, or the
    // flag `rv` says some cell does not.
    let c = "extern int __VERIFIER_nondet_int(void);
void reach_error(void) {}
int main(void) {
  int a[100], b[100];
  for (int j = 0; j < 100; j++) {
    a[j] = __VERIFIER_nondet_int();
    b[j] = __VERIFIER_nondet_int();
  }
  int rv = 1;
  for (int i = 0; i < 100; i++)
    if (a[i] != b[i]) rv = 0;
  if (rv)
    for (int x = 0; x < 100; x++)
      if (a[x] != b[x]) reach_error();
  return 0;
}
";
    let text = proved_text("prove-cells-flag", "compare.c", c);
    assert!(
        text.contains("main::b[k] == main::a[k] or rv == 0"),
        "{text}"
    );
}
