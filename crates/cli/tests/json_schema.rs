//! Every JSON report validates against `docs/schemas/wiser-report.schema.json`:
//! `check` on every example (IMP and C, with its `args:` line), with and
//! without `--trace`; `run` on a witness, `bmc`, `concolic` and `fuzz` on
//! one program each; and static errors, which print a report of their own
//! on stdout with exit code 2.

mod support;

use serde_json::Value;
use support::{assert_valid, examples, json_of, on_example, schema, wiser};

#[test]
fn every_example_checks_to_a_valid_report_with_file_messages_and_traces() {
    let validator = schema("wiser-report.schema.json");
    for ex in examples() {
        let what = ex.path.display().to_string();
        let out = on_example("check", &ex, &["--format", "json", "--trace"]);
        let doc = json_of(&out);
        assert_valid(&validator, &doc, &what);
        assert_eq!(doc["schema_version"], 2);
        assert_eq!(doc["tool"]["name"], "wiser");
        assert_eq!(doc["file"], ex.path.to_string_lossy().as_ref());
        assert_eq!(doc["verdict"], ex.verdict.as_str(), "{what}");
        for bug in doc["bugs"].as_array().unwrap() {
            // The file the bug is in: the program's, or wiser's C
            // library's for a bug inside it (a `sprintf` past its buffer).
            let file = bug["file"].as_str().unwrap_or_default();
            assert!(
                file == ex.path.to_string_lossy() || file == "<wiser libc>/libc.c",
                "{what}: {file}"
            );
            let message = bug["message"].as_str().unwrap();
            assert!(!message.contains('\n'), "{what}: one line: {message}");
            let trace = bug["trace"].as_array().expect("--trace gives a trace");
            let last = trace.last().expect("a step");
            assert_eq!(last["step"], "error", "{what}");
            assert_eq!(last["kind"], bug["kind"]);
            assert_eq!(
                (&last["line"], &last["column"]),
                (&bug["line"], &bug["column"])
            );
        }
    }
}

#[test]
fn run_bmc_concolic_and_fuzz_reports_validate() {
    let validator = schema("wiser-report.schema.json");
    let cases: [&[&str]; 7] = [
        &[
            "run",
            "examples/factorial_bug.imp",
            "--input",
            "n=3",
            "--trace",
        ],
        &[
            "run",
            "examples/c/sage_top.c",
            "--reads",
            "98,97,100,0",
            "--trace",
        ],
        &["run", "examples/fib.imp", "--input", "n=5"],
        &[
            "bmc",
            "examples/bmc_uchar_sum.imp",
            "--unwind",
            "1",
            "--unwind-max",
            "4",
            "--trace",
        ],
        &[
            "bmc",
            "examples/bmc_uint_sum.imp",
            "--unwind",
            "256",
            "--unwinding-assertions",
        ],
        &["concolic", "examples/isqrt_bug.imp", "--input", "x=1"],
        &[
            "fuzz",
            "examples/c/sage_top.c",
            "--seed-reads",
            "98,97,1,0",
            "-q",
        ],
    ];
    for args in cases {
        let mut args = args.to_vec();
        args.extend(["--format", "json"]);
        let out = wiser(&args);
        let doc = json_of(&out);
        assert_valid(&validator, &doc, &args.join(" "));
        assert_eq!(doc["file"], args[1]);
        // Every engine's report says its verdict (`run` is no engine).
        if args[0] != "run" {
            assert!(doc["verdict"].is_string(), "{}: {doc}", args.join(" "));
        }
    }
}

#[test]
fn static_errors_are_json_reports_on_stdout_with_exit_2() {
    let validator = schema("wiser-report.schema.json");
    let dir = std::env::temp_dir().join(format!("wiser-json-errors-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.imp");
    std::fs::write(&bad, "x = 1;\ny = ;\n").unwrap();
    let unsupported = dir.join("complex.c");
    std::fs::write(
        &unsupported,
        "int main(void) { _Complex float z; return 0; }\n",
    )
    .unwrap();
    let bad = bad.to_str().unwrap();
    let unsupported = unsupported.to_str().unwrap();
    // Each command, its diagnostic's kind, and the line and column the
    // diagnostic must name.
    type Case<'a> = (&'a [&'a str], &'a str, Option<(u64, u64)>);
    let cases: [Case; 8] = [
        (&["check", bad], "program", Some((2, 5))),
        (&["check", unsupported], "unsupported", Some((1, 18))),
        (&["check", "no/such/file.imp"], "refused", None),
        (
            &["run", "examples/fib.imp", "--input", "nope=1"],
            "input",
            None,
        ),
        (
            &[
                "bmc",
                "examples/fib.imp",
                "--unwind",
                "3",
                "--unwind-max",
                "1",
            ],
            "usage",
            None,
        ),
        (&["check", "no/such/task.yml"], "file", None),
        (&["run", "--test", "examples/fib.imp"], "test-file", None),
        (
            &["check", "examples/fib.imp", "--property", "termination"],
            "usage",
            None,
        ),
    ];
    for (args, kind, place) in cases {
        let mut args = args.to_vec();
        args.extend(["--format", "json"]);
        let out = wiser(&args);
        let what = args.join(" ");
        assert_eq!(out.status.code(), Some(2), "{what}");
        assert!(!out.stderr.is_empty(), "{what}: the text stays on stderr");
        let doc = json_of(&out);
        assert_valid(&validator, &doc, &what);
        assert_eq!(doc["verdict"], "error");
        let d = &doc["diagnostics"][0];
        assert!(!d["message"].as_str().unwrap().is_empty());
        assert_eq!(d["kind"], kind, "{what}: {d}");
        if let Some((line, column)) = place {
            assert_eq!(
                (d["line"].as_u64(), d["column"].as_u64()),
                (Some(line), Some(column)),
                "{what}: {d}"
            );
            assert_eq!(d["file"], args[1]);
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_schema_rejects_what_it_should() {
    let validator = schema("wiser-report.schema.json");
    let out = wiser(&[
        "check",
        "examples/isqrt_bug.imp",
        "--assume",
        "x <= 400",
        "--format",
        "json",
    ]);
    let good = json_of(&out);
    assert!(validator.is_valid(&good));
    // A misspelt field of a bug (bugs are closed objects).
    let mut bad = good.clone();
    bad["bugs"][0]["colum"] = Value::from(1);
    assert!(!validator.is_valid(&bad));
    // A report without its schema version.
    let mut bad = good.clone();
    bad.as_object_mut().unwrap().remove("schema_version");
    assert!(!validator.is_valid(&bad));
    // An unknown verdict.
    let mut bad = good;
    bad["verdict"] = Value::from("maybe");
    assert!(!validator.is_valid(&bad));
}
