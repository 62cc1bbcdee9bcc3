//! Checks of Test-Comp XML files for tests/test_files.rs: well-formed
//! (parsed with quick-xml), valid against the format's DTDs (xmllint),
//! and their structure.

use std::path::Path;
use std::process::Command;

/// A parsed XML element: name, attributes, child elements, text.
#[derive(Debug)]
pub struct Element {
    pub name: String,
    pub attrs: Vec<(String, String)>,
    pub children: Vec<Element>,
    pub text: String,
}

/// Parses an XML file into its DOCTYPE and root element; panics if it is
/// not well-formed.
pub fn parse_xml(text: &str) -> (String, Element) {
    use quick_xml::events::Event;
    let mut reader = quick_xml::Reader::from_str(text);
    let mut doctype = String::new();
    let mut stack: Vec<Element> = Vec::new();
    let mut root = None;
    let open = |e: &quick_xml::events::BytesStart<'_>| Element {
        name: e.name().0.to_string(),
        attrs: e
            .attributes()
            .map(|a| {
                let a = a.unwrap();
                (
                    a.key.0.to_string(),
                    a.normalized_value(quick_xml::XmlVersion::Explicit1_0)
                        .unwrap()
                        .into_owned(),
                )
            })
            .collect(),
        children: Vec::new(),
        text: String::new(),
    };
    loop {
        match reader.read_event().expect("well-formed XML") {
            Event::DocType(d) => doctype = d.to_string(),
            Event::Start(e) => stack.push(open(&e)),
            Event::Empty(e) => {
                let el = open(&e);
                match stack.last_mut() {
                    Some(parent) => parent.children.push(el),
                    None => root = Some(el),
                }
            }
            Event::Text(t) => {
                if let Some(top) = stack.last_mut() {
                    top.text.push_str(&t);
                }
            }
            Event::GeneralRef(r) => {
                if let Some(top) = stack.last_mut() {
                    let name = r.to_string();
                    let ch = match name.as_str() {
                        "amp" => "&",
                        "lt" => "<",
                        "gt" => ">",
                        "quot" => "\"",
                        "apos" => "'",
                        other => panic!("unexpected entity {other}"),
                    };
                    top.text.push_str(ch);
                }
            }
            Event::End(_) => {
                let el = stack.pop().expect("balanced");
                match stack.last_mut() {
                    Some(parent) => parent.children.push(el),
                    None => root = Some(el),
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    assert!(stack.is_empty());
    (doctype, root.expect("a root element"))
}

/// Checks `file` with xmllint against the restated DTD `dtd` (in
/// tests/testcomp/). xmllint is installed by .ci/run; elsewhere, without
/// it, the check is skipped with a note.
pub fn xmllint(file: &Path, dtd: &str) {
    if !wiser_testkit::external_tool("xmllint") {
        return;
    }
    let dtd = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/testcomp")
        .join(dtd);
    let out = Command::new("xmllint")
        .args(["--nonet", "--noout", "--dtdvalid"])
        .arg(&dtd)
        .arg(file)
        .output()
        .expect("xmllint runs (Debian's libxml2-utils; .ci/run installs it)");
    assert!(
        out.status.success(),
        "{} does not follow {}:\n{}",
        file.display(),
        dtd.display(),
        String::from_utf8_lossy(&out.stderr)
    );
}

pub fn sha2_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}
