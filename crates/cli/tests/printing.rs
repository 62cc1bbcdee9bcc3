//! Printing a merged path condition is never exponential: the condition
//! of a loop of 30 reads merged at its joins is a DAG of a few hundred
//! nodes whose tree has 2^30 leaves. Its shared subterms are named once
//! (`… where $1 = …`), so the report is small and complete, in text and
//! in JSON, from `check --merge joins` and from `bmc` alike.

mod support;

use support::{run, scratch, write};

/// Thirty reads, each adding 1 or 2 to `s`: `s` is 45 on some paths.
const SUM_OF_READS: &str = "s = 0;
i = 0;
while i < 30 do
  v = *;
  if v > 0 then s = s + 1 else s = s + 2 fi;
  i = i + 1
od;
assert s != 45
";

/// The most bytes a report of this program may take.
const SMALL: usize = 100 * 1024;

#[test]
fn a_merged_path_condition_prints_small_and_complete() {
    let dir = scratch("printing", "sum_of_reads");
    let file = write(&dir, "sum_of_reads.imp", SUM_OF_READS);
    let file = file.to_str().expect("a UTF-8 path");
    let runs: [&[&str]; 2] = [
        &[
            "check",
            "--merge",
            "joins",
            "--timeout",
            "3",
            "--max-memory",
            "300",
        ],
        &["bmc", "--unwind", "30"],
    ];
    for args in runs {
        for format in ["text", "json"] {
            let mut all: Vec<&str> = args.to_vec();
            all.extend([file, "--format", format]);
            let (code, stdout, stderr) = run(&all);
            let what = all.join(" ");
            assert_eq!(code, 1, "{what}: a bug\n{stdout}\n{stderr}");
            assert!(
                stdout.len() < SMALL,
                "{what}: {} bytes of output",
                stdout.len()
            );
            assert!(stdout.contains(" where $1 = "), "{what}: {stdout}");
            if format == "json" {
                let v: serde_json::Value =
                    serde_json::from_str(&stdout).expect("one JSON document");
                assert_eq!(v["verdict"], "bug", "{what}");
                let pc = v["bugs"][0]["path_condition"].as_str().unwrap_or("");
                assert!(pc.contains("== 45") && !pc.ends_with('…'), "{what}: {pc}");
            } else {
                assert!(stdout.contains("verdict: bug"), "{what}: {stdout}");
            }
        }
    }
}
