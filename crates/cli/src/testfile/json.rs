//! The JSON test format (`docs/TESTS.md`, schema in
//! `docs/schemas/wiser-test.schema.json`): one test per file, with the
//! program it was made for, the options that change what the program
//! means, one input and the outcome that input must have.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::BTreeMap;
use wiser_num::Int;
use wiser_semantics::Input;

/// The value of `format` in every test file.
pub const FORMAT: &str = "wiser-test";
/// The version of the format this `wiser` writes and reads.
pub const VERSION: u32 = 1;

/// One test file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TestFile {
    /// Always [`FORMAT`].
    pub format: String,
    /// Always [`VERSION`] (a file of another version is refused).
    pub version: u32,
    /// The program the test was generated from.
    pub program: ProgramRef,
    /// Options that change what the program means.
    pub options: TestOptions,
    /// The input: named variables, reads in order, arrays.
    pub input: TestInput,
    /// What running the input must give.
    pub expected: Outcome,
    /// Where the test came from (informative; replay ignores it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origin: Option<Origin>,
}

/// The program a test was made for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProgramRef {
    /// The path as given on the command line (relative paths are relative
    /// to the folder `wiser` was run in).
    pub file: String,
    /// SHA-256 of the source text, in lowercase hex: a replay against a
    /// program that has changed since warns.
    pub sha256: String,
    /// `imp` or `c`.
    pub language: String,
}

/// C's data models, as named on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DataModelName {
    /// 32-bit `int`, `long` and pointers.
    Ilp32,
    /// 64-bit `long` and pointers.
    Lp64,
}

/// The options that change what a program means.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TestOptions {
    /// `--wrap-signed`: signed machine arithmetic wraps.
    #[serde(default)]
    pub wrap_signed: bool,
    /// C's data model (null for IMP).
    #[serde(default)]
    pub data_model: Option<DataModelName>,
    /// The property checked (`all` or `unreach-call`); informative: a
    /// concrete run stops at any error.
    #[serde(default = "default_property")]
    pub property: String,
    /// `--assume` (IMP): the run checks it first, as `check` did.
    #[serde(default)]
    pub assume: Option<String>,
    /// `--malloc-may-fail` (C): each allocation's outcome is a read.
    #[serde(default)]
    pub malloc_may_fail: bool,
}

fn default_property() -> String {
    "all".into()
}

/// An integer of any size: a JSON number inside the 64-bit range, else a
/// decimal string (as in `wiser`'s reports).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TestInt(pub Int);

impl Serialize for TestInt {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

impl<'de> Deserialize<'de> for TestInt {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = serde_json::Value::deserialize(d)?;
        let text = match &v {
            serde_json::Value::Number(n) if n.is_i64() || n.is_u64() => n.to_string(),
            serde_json::Value::String(s) => s.clone(),
            _ => {
                return Err(serde::de::Error::custom(format!(
                    "`{v}` is not an integer (give a JSON integer or a decimal string)"
                )))
            }
        };
        text.parse()
            .map(TestInt)
            .map_err(|_| serde::de::Error::custom(format!("`{text}` is not a decimal integer")))
    }
}

/// A test's input.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TestInput {
    /// Input variables by name (those not given are 0).
    #[serde(default)]
    pub vars: BTreeMap<String, TestInt>,
    /// The values of the reads in order (IMP's `x = *`; C's
    /// `__VERIFIER_nondet_*()` calls and uninitialised locals).
    #[serde(default)]
    pub reads: Vec<TestInt>,
    /// Input arrays by name (for a program with objects, the input
    /// heap's fields too: `Node.next` at index 1 is field `next` of
    /// object 1).
    #[serde(default)]
    pub arrays: BTreeMap<String, TestArray>,
    /// For a program with threads: `[point, thread]` pairs, the
    /// scheduling points where a thread other than the default one runs.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub schedule: Vec<(u32, u32)>,
}

/// An input array: `default` everywhere but at `entries`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TestArray {
    /// The value of every element not listed.
    #[serde(default = "zero")]
    pub default: TestInt,
    /// `[index, value]` pairs.
    #[serde(default)]
    pub entries: Vec<(TestInt, TestInt)>,
}

fn zero() -> TestInt {
    TestInt(Int::ZERO)
}

impl TestInput {
    /// The test input of a program input.
    pub fn from_input(input: &Input) -> TestInput {
        TestInput {
            vars: input
                .vars
                .iter()
                .map(|(n, v)| (n.to_string(), TestInt(v.clone())))
                .collect(),
            reads: input.reads.iter().cloned().map(TestInt).collect(),
            arrays: input
                .arrays
                .iter()
                .map(|(n, a)| {
                    let entries = a
                        .entries
                        .iter()
                        .map(|(i, v)| (TestInt(i.clone()), TestInt(v.clone())))
                        .collect();
                    (
                        n.to_string(),
                        TestArray {
                            default: TestInt(a.default.clone()),
                            entries,
                        },
                    )
                })
                .collect(),
            schedule: input.schedule.iter().map(|s| (s.point, s.thread)).collect(),
        }
    }

    /// The program input (unchecked: a replay builds its input through
    /// `--input`'s checks instead; this is the inverse of `from_input`).
    #[cfg(test)]
    pub fn to_input(&self) -> Input {
        use std::sync::Arc;
        use wiser_semantics::ArrayInput;
        Input {
            vars: self
                .vars
                .iter()
                .map(|(n, v)| (Arc::from(n.as_str()), v.0.clone()))
                .collect(),
            reads: self.reads.iter().map(|v| v.0.clone()).collect(),
            arrays: self
                .arrays
                .iter()
                .map(|(n, a)| {
                    (
                        Arc::from(n.as_str()),
                        ArrayInput {
                            default: a.default.0.clone(),
                            entries: a
                                .entries
                                .iter()
                                .map(|(i, v)| (i.0.clone(), v.0.clone()))
                                .collect(),
                        },
                    )
                })
                .collect(),
            schedule: self
                .schedule
                .iter()
                .map(|&(point, thread)| wiser_semantics::Switch { point, thread })
                .collect(),
        }
    }
}

/// One frame of a call stack, innermost first: the routine and where it
/// was called (null for the outermost frame).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Frame {
    /// The routine.
    pub routine: String,
    /// The line of its call.
    pub line: Option<u32>,
    /// The column of its call.
    pub column: Option<u32>,
}

/// How a run ends: what a test expects, and what a replay got.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "snake_case", deny_unknown_fields)]
pub enum Outcome {
    /// A runtime error.
    Error {
        /// Its kind, as in reports (`assertion`, `division_by_zero`, ...).
        kind: String,
        /// Its line in the program (or in the `--assume` text).
        line: u32,
        /// Its column.
        column: u32,
        /// The call stack at the error, innermost first.
        call_stack: Vec<Frame>,
    },
    /// The program ended normally.
    Halted,
    /// An `assume` did not hold (the input is outside the domain).
    AssumeFailed {
        /// The line of the `assume`.
        line: u32,
        /// Its column.
        column: u32,
    },
    /// The replay ran out of steps (never expected by a test).
    #[serde(skip_deserializing)]
    OutOfSteps,
}

/// Where a test came from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Origin {
    /// `bug` (from `--tests`) or `path` (from `--tests --all-paths`).
    pub kind: String,
    /// The path condition of the path the input takes, as reported.
    #[serde(default)]
    pub path_condition: Option<String>,
    /// The `wiser` that wrote it.
    pub producer: String,
}

impl TestFile {
    /// Reads a test file's text; the error says what is wrong.
    pub fn parse(text: &str) -> Result<TestFile, String> {
        // Look at `format` and `version` first, so that a file of another
        // kind or version is named as such rather than as a missing field.
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| format!("it is not JSON: {e}"))?;
        match value.get("format").and_then(|f| f.as_str()) {
            Some(FORMAT) => {}
            Some(other) => {
                return Err(format!(
                    "its `format` is `{other}`, not `{FORMAT}` (not a wiser test)"
                ))
            }
            None => {
                return Err(format!(
                    "it has no `\"format\": \"{FORMAT}\"` (not a wiser test)"
                ))
            }
        }
        match value.get("version").and_then(|v| v.as_u64()) {
            Some(v) if v == u64::from(VERSION) => {}
            Some(v) => {
                return Err(format!(
                    "it is version {v} of the test format; this wiser reads version {VERSION}"
                ))
            }
            None => return Err("it has no integer `version`".into()),
        }
        serde_json::from_value(value).map_err(|e| e.to_string())
    }

    /// The file's text: pretty JSON, ending in a newline.
    pub fn to_text(&self) -> String {
        let mut text = serde_json::to_string_pretty(self).unwrap_or_default();
        text.push('\n');
        text
    }
}

/// The lowercase hex SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use wiser_semantics::ArrayInput;

    fn sample(expected: Outcome) -> TestFile {
        let big: Int = "123456789012345678901234567890".parse().unwrap();
        let input = Input {
            vars: vec![
                (Arc::from("x"), Int::from(-5)),
                (Arc::from("n"), big.clone()),
            ],
            reads: vec![Int::from(7), big.clone()],
            arrays: vec![(
                Arc::from("a"),
                ArrayInput {
                    default: Int::from(3),
                    entries: vec![(Int::from(0), Int::from(9)), (big, Int::from(1))],
                },
            )],
            schedule: Vec::new(),
        };
        TestFile {
            format: FORMAT.into(),
            version: VERSION,
            program: ProgramRef {
                file: "examples/p.imp".into(),
                sha256: sha256_hex(b"x = 1\n"),
                language: "imp".into(),
            },
            options: TestOptions {
                wrap_signed: true,
                data_model: Some(DataModelName::Lp64),
                property: "unreach-call".into(),
                assume: Some("x > 0".into()),
                malloc_may_fail: true,
            },
            input: TestInput::from_input(&input),
            expected,
            origin: Some(Origin {
                kind: "bug".into(),
                path_condition: Some("x == -5".into()),
                producer: "wiser test".into(),
            }),
        }
    }

    #[test]
    fn every_outcome_survives_a_round_trip() {
        let outcomes = [
            Outcome::Halted,
            Outcome::AssumeFailed { line: 2, column: 1 },
            Outcome::Error {
                kind: "division_by_zero".into(),
                line: 3,
                column: 9,
                call_stack: vec![
                    Frame {
                        routine: "f".into(),
                        line: Some(7),
                        column: Some(3),
                    },
                    Frame {
                        routine: "main".into(),
                        line: None,
                        column: None,
                    },
                ],
            },
        ];
        for expected in outcomes {
            let test = sample(expected);
            let text = test.to_text();
            assert_eq!(TestFile::parse(&text), Ok(test), "{text}");
        }
    }

    #[test]
    fn the_input_survives_a_round_trip_and_big_values_are_strings() {
        let test = sample(Outcome::Halted);
        let input = test.input.to_input();
        assert_eq!(TestInput::from_input(&input), test.input);
        let v: serde_json::Value = serde_json::from_str(&test.to_text()).unwrap();
        assert_eq!(v["input"]["vars"]["x"], -5);
        assert_eq!(v["input"]["vars"]["n"], "123456789012345678901234567890");
        assert_eq!(v["input"]["reads"][1], "123456789012345678901234567890");
        assert_eq!(v["input"]["arrays"]["a"]["default"], 3);
        assert_eq!(
            v["input"]["arrays"]["a"]["entries"][0],
            serde_json::json!([0, 9])
        );
    }

    #[test]
    fn every_outcome_and_input_shape_follows_the_schema() {
        let schema: serde_json::Value = serde_json::from_str(include_str!(
            "../../../../docs/schemas/wiser-test.schema.json"
        ))
        .unwrap();
        let validator = jsonschema::validator_for(&schema).unwrap();
        let outcomes = [
            Outcome::Halted,
            Outcome::AssumeFailed { line: 2, column: 1 },
            Outcome::Error {
                kind: "out_of_bounds".into(),
                line: 3,
                column: 9,
                call_stack: vec![Frame {
                    routine: "main".into(),
                    line: None,
                    column: None,
                }],
            },
        ];
        for expected in outcomes {
            let v: serde_json::Value = serde_json::from_str(&sample(expected).to_text()).unwrap();
            let errors: Vec<String> = validator.iter_errors(&v).map(|e| e.to_string()).collect();
            assert!(errors.is_empty(), "{errors:?}\n{v:#}");
        }
        // And the schema is not vacuous: a wrong kind or a missing field fails.
        let mut v: serde_json::Value =
            serde_json::from_str(&sample(Outcome::Halted).to_text()).unwrap();
        v["expected"] = serde_json::json!({"outcome": "error", "kind": "oops", "line": 1, "column": 1, "call_stack": []});
        assert!(!validator.is_valid(&v));
        v["expected"] = serde_json::json!({"outcome": "assume_failed"});
        assert!(!validator.is_valid(&v));
        v["expected"] = serde_json::json!({"outcome": "halted"});
        v["input"]["reads"] = serde_json::json!([1.5]);
        assert!(!validator.is_valid(&v));
    }

    #[test]
    fn a_hand_written_test_may_leave_out_defaults() {
        let text = r#"{"format": "wiser-test", "version": 1,
            "program": {"file": "p.imp", "sha256": "00", "language": "imp"},
            "options": {},
            "input": {"vars": {"x": "42"}, "arrays": {"a": {"entries": [[1, 2]]}}},
            "expected": {"outcome": "halted"}}"#;
        let test = TestFile::parse(text).unwrap();
        assert_eq!(test.options.property, "all");
        assert!(!test.options.wrap_signed);
        assert_eq!(test.input.vars["x"], TestInt(Int::from(42)));
        assert_eq!(test.input.arrays["a"].default, TestInt(Int::ZERO));
        assert_eq!(test.origin, None);
    }

    #[test]
    fn wrong_files_are_refused_with_a_reason() {
        let base = sample(Outcome::Halted).to_text();
        let cases = [
            ("[1", "not JSON"),
            (r#"{"version": 1}"#, "not a wiser test"),
            (r#"{"format": "ktest", "version": 1}"#, "`ktest`"),
            (r#"{"format": "wiser-test", "version": 9}"#, "version 9"),
            (
                &base.replace("\"halted\"", "\"out_of_steps\""),
                "out_of_steps",
            ),
            (
                &base.replace("\"wrap_signed\"", "\"wrap\""),
                "unknown field `wrap`",
            ),
            (&base.replace("\"x\": -5", "\"x\": 1.5"), "not an integer"),
            (
                &base.replace("\"x\": -5", "\"x\": \"five\""),
                "not a decimal integer",
            ),
        ];
        for (text, reason) in cases {
            let err = TestFile::parse(text).expect_err(text);
            assert!(err.contains(reason), "{reason}: {err}");
        }
    }
}
