//! Test-Comp's exchange format for test suites (the `test-format`
//! repository of SoSy-Lab): a `metadata.xml` following `test-metadata.dtd`
//! and one `testcase-N.xml` per test following `testcase.dtd`, whose
//! `<input>` elements are the values of the program's nondeterministic
//! reads in the order it makes them.

use crate::task::PropertySpec;
use quick_xml::escape::escape;
use std::fmt::Write;
use std::time::SystemTime;
use wiser_frontend::DataModel;
use wiser_num::Int;

/// The XML declaration every file starts with.
const XML_DECL: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="no"?>"#;
/// The document type of `metadata.xml` (version 1.1 of the DTD).
pub const METADATA_DOCTYPE: &str = r#"<!DOCTYPE test-metadata PUBLIC "+//IDN sosy-lab.org//DTD test-format test-metadata 1.1//EN" "https://sosy-lab.org/test-format/test-metadata-1.1.dtd">"#;
/// The document type of a test case (version 1.1 of the DTD).
pub const TESTCASE_DOCTYPE: &str = r#"<!DOCTYPE testcase PUBLIC "+//IDN sosy-lab.org//DTD test-format testcase 1.1//EN" "https://sosy-lab.org/test-format/testcase-1.1.dtd">"#;

/// Test-Comp's specification of a suite that covers every branch (one
/// test per path covers every reachable decision edge).
pub const COVER_BRANCHES: &str = "COVER( init(main()), FQL(COVER EDGES(@DECISIONEDGE)) )";
/// Test-Comp's specification of a suite that reaches the error function.
pub const COVER_ERROR: &str = "COVER( init(main()), FQL(COVER EDGES(@CALL(reach_error))) )";
/// What a suite of `--property all` bugs is for: there is no Test-Comp
/// specification of "any runtime error", so the property is named as
/// `wiser` names it.
pub const WISER_ALL: &str = "wiser --property all: reach a runtime error (assertion, reach_error, division by zero, overflow, invalid shift, index out of bounds)";

/// What a suite of `--property no-overflow` bugs is for (no Test-Comp
/// specification either).
pub const WISER_NO_OVERFLOW: &str = "wiser --property no-overflow: reach a signed integer overflow";
/// What a suite of `--property valid-memsafety` bugs is for.
pub const WISER_MEMSAFETY: &str = "wiser --property valid-memsafety: reach an invalid dereference, an invalid free or a memory leak";

/// The specification text of a suite.
pub fn specification(all_paths: bool, property: PropertySpec) -> &'static str {
    match (all_paths, property) {
        (true, _) => COVER_BRANCHES,
        (false, PropertySpec::UnreachCall) => COVER_ERROR,
        (false, PropertySpec::All) => WISER_ALL,
        (false, PropertySpec::NoOverflow) => WISER_NO_OVERFLOW,
        (false, PropertySpec::ValidMemsafety) => WISER_MEMSAFETY,
    }
}

/// One input of a test case: the value, and where known the C type of the
/// call that reads it or the variable it initialises.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Value {
    /// The value read.
    pub value: Int,
    /// The return type of the `__VERIFIER_nondet_*` function called.
    pub c_type: Option<String>,
    /// The uninitialised local it is the value of.
    pub variable: Option<String>,
}

/// `metadata.xml`: the elements in the DTD's order (`inputtestsuitefile`
/// and `inputtestsuitehash` are for suites made from another suite, which
/// this one is not).
pub fn metadata(
    program_file: &str,
    sha256: &str,
    specification: &str,
    data_model: DataModel,
    created: SystemTime,
) -> String {
    let architecture = match data_model {
        DataModel::Ilp32 => "32bit",
        DataModel::Lp64 => "64bit",
    };
    let created = humantime::format_rfc3339_seconds(created).to_string();
    let mut out = String::new();
    let _ = writeln!(out, "{XML_DECL}");
    let _ = writeln!(out, "{METADATA_DOCTYPE}");
    out.push_str("<test-metadata>\n");
    for (element, text) in [
        ("sourcecodelang", "C"),
        ("producer", &format!("wiser {}", env!("CARGO_PKG_VERSION"))),
        ("specification", specification),
        ("programfile", program_file),
        ("programhash", sha256),
        ("entryfunction", "main"),
        ("architecture", architecture),
        ("creationtime", &created),
    ] {
        let _ = writeln!(out, "  <{element}>{}</{element}>", escape(text));
    }
    out.push_str("</test-metadata>\n");
    out
}

/// One test case: its inputs in order; `covers_error` when it reaches the
/// error function (`reach_error()`).
pub fn testcase(inputs: &[Value], covers_error: bool) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{XML_DECL}");
    let _ = writeln!(out, "{TESTCASE_DOCTYPE}");
    if covers_error {
        out.push_str("<testcase coversError=\"true\">\n");
    } else {
        out.push_str("<testcase>\n");
    }
    for v in inputs {
        let mut attrs = String::new();
        if let Some(t) = &v.c_type {
            let _ = write!(attrs, " type=\"{}\"", escape(t.as_str()));
        }
        if let Some(n) = &v.variable {
            let _ = write!(attrs, " variable=\"{}\"", escape(n.as_str()));
        }
        // A float's value is its pattern: Test-Comp's tools read the
        // number (`strtod`), written to read back exactly.
        let float = match v.c_type.as_deref() {
            Some("float") => Some(wiser_num::FloatTy::F32),
            Some("double" | "long double") => Some(wiser_num::FloatTy::F64),
            _ => None,
        };
        let text = float.map_or_else(|| v.value.to_string(), |t| t.display(&v.value));
        let _ = writeln!(out, "  <input{attrs}>{text}</input>");
    }
    out.push_str("</testcase>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_testcase_lists_its_inputs_in_order_with_their_types() {
        let inputs = [
            Value {
                value: Int::from(131),
                c_type: Some("unsigned char".into()),
                variable: None,
            },
            Value {
                value: Int::from(-5),
                c_type: None,
                variable: Some("k".into()),
            },
        ];
        let xml = testcase(&inputs, true);
        let expected = format!(
            "{XML_DECL}\n{TESTCASE_DOCTYPE}\n<testcase coversError=\"true\">\n  <input type=\"unsigned char\">131</input>\n  <input variable=\"k\">-5</input>\n</testcase>\n"
        );
        assert_eq!(xml, expected);
    }

    #[test]
    fn a_float_input_is_written_as_the_number_its_pattern_is() {
        let inputs = [
            Value {
                value: Int::from(0x3dcc_cccd),
                c_type: Some("float".into()),
                variable: None,
            },
            Value {
                value: wiser_num::FloatTy::F64.nan(),
                c_type: Some("double".into()),
                variable: None,
            },
        ];
        let xml = testcase(&inputs, true);
        assert!(xml.contains("<input type=\"float\">0.1</input>"), "{xml}");
        assert!(xml.contains("<input type=\"double\">nan</input>"), "{xml}");
    }

    #[test]
    fn metadata_escapes_the_program_path() {
        let xml = metadata(
            "a&b<c>.c",
            "00",
            COVER_ERROR,
            DataModel::Lp64,
            SystemTime::UNIX_EPOCH,
        );
        assert!(
            xml.contains("<programfile>a&amp;b&lt;c&gt;.c</programfile>"),
            "{xml}"
        );
        assert!(xml.contains("<architecture>64bit</architecture>"), "{xml}");
        assert!(
            xml.contains("<creationtime>1970-01-01T00:00:00Z</creationtime>"),
            "{xml}"
        );
    }
}
