//! SV-COMP's files: property files (`.prp`) and task files (`.yml`).
//!
//! A task names one input file (relative to the task file), its
//! properties, each with a property file and maybe an expected verdict,
//! and options (`language: C`, `data_model: ILP32|LP64`). `wiser` checks
//! one property, `unreach-call`: `CHECK( init(main()), LTL(G !
//! call(reach_error())) )`, or the older `__VERIFIER_error` form.

use crate::error::{CliError, Kind};
use serde_norway::Value;
use std::path::{Path, PathBuf};
use wiser_frontend::{DataModel, Location};
use wiser_ir::LineCol;

/// What `wiser check` looks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PropertySpec {
    /// Every kind of runtime error is a bug (the default).
    All,
    /// Only a call of the error function (`reach_error()`, or
    /// `__VERIFIER_error()`; IMP's `fail`) is a bug.
    UnreachCall,
}

impl PropertySpec {
    /// The name used in reports.
    pub fn name(self) -> &'static str {
        match self {
            PropertySpec::All => "all",
            PropertySpec::UnreachCall => "unreach-call",
        }
    }
}

const UNREACH_CALL_HELP: &str = "wiser checks `unreach-call`: CHECK( init(main()), LTL(G ! call(reach_error())) ) (or `__VERIFIER_error()`); use --property all or --property unreach-call";

/// Reads `--property`: `all`, `unreach-call`, or a `.prp` file.
pub fn property_arg(arg: &str) -> Result<PropertySpec, CliError> {
    match arg {
        "all" => Ok(PropertySpec::All),
        "unreach-call" => Ok(PropertySpec::UnreachCall),
        path => {
            let p = Path::new(path);
            if !p.exists() && !path.ends_with(".prp") {
                return Err(CliError::usage(format!("unknown property `{path}`")).help(
                    "give `all`, `unreach-call`, or the path of an SV-COMP property file (.prp)",
                ));
            }
            read_prp(p)
        }
    }
}

/// Reads a property file; only `unreach-call` is supported.
pub fn read_prp(path: &Path) -> Result<PropertySpec, CliError> {
    let name = path.display();
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError::file(format!("cannot read property file `{name}`: {e}")))?;
    if is_unreach_call(&text) {
        Ok(PropertySpec::UnreachCall)
    } else {
        let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
        Err(CliError::new(
            Kind::Task,
            format!("unsupported property in `{name}`: {}", first.trim()),
        )
        .help(UNREACH_CALL_HELP))
    }
}

/// Is this the text of SV-COMP's `unreach-call` property?
fn is_unreach_call(text: &str) -> bool {
    let squeezed: String = text
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .flat_map(|l| l.chars())
        .filter(|c| !c.is_whitespace())
        .collect();
    ["reach_error", "__VERIFIER_error"]
        .iter()
        .any(|f| squeezed == format!("CHECK(init(main()),LTL(G!call({f}())))"))
}

/// A task file, read.
#[derive(Clone, Debug)]
pub struct Task {
    /// The task file.
    pub path: PathBuf,
    /// Its input file (resolved against the task file's folder).
    pub input: PathBuf,
    /// Its data model (ILP32 when the task does not say).
    pub data_model: DataModel,
    /// Is `unreach-call` among its properties?
    pub unreach_call: bool,
    /// The expected verdict of `unreach-call` (`true`: the error is
    /// unreachable), if the task gives one.
    pub expected_verdict: Option<bool>,
    /// The property files it lists.
    pub property_files: Vec<String>,
}

fn field<'a>(v: &'a Value, key: &str) -> Option<&'a Value> {
    v.as_mapping()?.get(key)
}

/// Reads an SV-COMP task file.
pub fn read_task(path: &Path) -> Result<Task, CliError> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| {
        CliError::file(format!("cannot read `{name}`: {e}")).help("check the path of the task file")
    })?;
    let bad = |what: &str| {
        CliError::new(Kind::Task, format!("`{name}` is not an SV-COMP task file: {what}")).help(
            "a task file has `input_files`, `properties` (a list of `property_file` and `expected_verdict`) and `options` (`language: C`, `data_model: ILP32` or `LP64`)",
        )
    };
    let doc: Value = serde_norway::from_str(&text).map_err(|e| {
        let error = CliError::new(Kind::Task, format!("invalid YAML: {e}"));
        match e.location() {
            Some(l) => error.at(Location {
                file: name.clone(),
                line_col: LineCol {
                    line: u32::try_from(l.line()).unwrap_or(u32::MAX),
                    column: u32::try_from(l.column()).unwrap_or(u32::MAX),
                },
            }),
            None => error,
        }
    })?;
    if doc.as_mapping().is_none() {
        return Err(bad("it is not a mapping"));
    }
    let dir = path.parent().unwrap_or(Path::new(""));
    let inputs: Vec<&str> = match field(&doc, "input_files") {
        Some(Value::String(s)) => vec![s.as_str()],
        Some(Value::Sequence(xs)) => xs.iter().filter_map(Value::as_str).collect(),
        _ => return Err(bad("no `input_files`")),
    };
    let input = match inputs.as_slice() {
        [one] => dir.join(one),
        [] => return Err(bad("`input_files` is empty")),
        _ => {
            return Err(CliError::new(
                Kind::Task,
                format!("`{name}` has {} input files; wiser reads one", inputs.len()),
            )
            .help("merge them into one C file"))
        }
    };
    let options = field(&doc, "options");
    if let Some(lang) = options.and_then(|o| field(o, "language")) {
        let lang = lang.as_str().unwrap_or("");
        if !lang.eq_ignore_ascii_case("c") {
            return Err(CliError::new(
                Kind::Task,
                format!("`{name}` is a task in language `{lang}`; wiser reads C tasks"),
            ));
        }
    }
    let data_model = match options.and_then(|o| field(o, "data_model")) {
        None => DataModel::Ilp32,
        Some(v) => match v.as_str().map(str::to_ascii_uppercase).as_deref() {
            Some("ILP32") => DataModel::Ilp32,
            Some("LP64") => DataModel::Lp64,
            _ => return Err(bad("`data_model` is neither ILP32 nor LP64")),
        },
    };
    let mut task = Task {
        path: path.to_path_buf(),
        input,
        data_model,
        unreach_call: false,
        expected_verdict: None,
        property_files: Vec::new(),
    };
    let Some(Value::Sequence(props)) = field(&doc, "properties") else {
        return Err(bad("no `properties` list"));
    };
    for p in props {
        let Some(file) = field(p, "property_file").and_then(Value::as_str) else {
            return Err(bad("a property without `property_file`"));
        };
        task.property_files.push(file.to_string());
        let prp = dir.join(file);
        // The property file may be missing from a copied task folder: its
        // name then tells (SV-COMP names it `unreach-call.prp`).
        let unreach = match std::fs::read_to_string(&prp) {
            Ok(text) => is_unreach_call(&text),
            Err(_) => prp.file_name().is_some_and(|n| n == "unreach-call.prp"),
        };
        if unreach && !task.unreach_call {
            task.unreach_call = true;
            task.expected_verdict = match field(p, "expected_verdict") {
                Some(Value::Bool(b)) => Some(*b),
                Some(Value::String(s)) if s == "true" => Some(true),
                Some(Value::String(s)) if s == "false" => Some(false),
                _ => None,
            };
        }
    }
    Ok(task)
}

/// The error for a task without the one property `wiser` checks.
pub fn no_supported_property(task: &Task) -> CliError {
    let listed = if task.property_files.is_empty() {
        "none".to_string()
    } else {
        task.property_files.join(", ")
    };
    CliError::new(
        Kind::Task,
        format!(
            "task `{}` has no property wiser checks (it lists: {listed})",
            task.path.display()
        ),
    )
    .help(UNREACH_CALL_HELP)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("wiser-task-{}-{name}", std::process::id()));
        std::fs::create_dir_all(d.join("properties")).unwrap();
        d
    }

    #[test]
    fn unreach_call_in_both_forms() {
        assert!(is_unreach_call(
            "CHECK( init(main()), LTL(G ! call(reach_error())) )\n"
        ));
        assert!(is_unreach_call(
            "CHECK( init(main()), LTL(G ! call(__VERIFIER_error())) )"
        ));
        assert!(!is_unreach_call("CHECK( init(main()), LTL(G ! overflow) )"));
        assert!(!is_unreach_call("CHECK( init(main()), LTL(F end) )"));
        assert_eq!(property_arg("all").ok(), Some(PropertySpec::All));
        assert_eq!(
            property_arg("unreach-call").ok(),
            Some(PropertySpec::UnreachCall)
        );
        let unknown = property_arg("no-overflow").unwrap_err();
        assert!(unknown.text().contains("unknown property"));
        assert_eq!(unknown.kind(), "usage");
        let missing = property_arg("missing.prp").unwrap_err();
        assert!(missing.text().contains("cannot read"));
        assert_eq!(missing.kind(), "file");
    }

    #[test]
    fn a_task_gives_its_input_property_and_data_model() {
        let d = temp_dir("ok");
        std::fs::write(
            d.join("properties/unreach-call.prp"),
            "CHECK( init(main()), LTL(G ! call(reach_error())) )\n",
        )
        .unwrap();
        std::fs::write(
            d.join("properties/no-overflow.prp"),
            "CHECK( init(main()), LTL(G ! overflow) )\n",
        )
        .unwrap();
        let yml = d.join("t.yml");
        std::fs::write(
            &yml,
            "format_version: '2.0'\ninput_files: 'prog.c'\nproperties:\n  - property_file: properties/no-overflow.prp\n    expected_verdict: true\n  - property_file: properties/unreach-call.prp\n    expected_verdict: false\noptions:\n  language: C\n  data_model: LP64\n",
        )
        .unwrap();
        let t = read_task(&yml).unwrap();
        assert_eq!(t.input, d.join("prog.c"));
        assert_eq!(t.data_model, DataModel::Lp64);
        assert!(t.unreach_call);
        assert_eq!(t.expected_verdict, Some(false));

        // A list of one input, no data model, a missing but named property file.
        std::fs::write(
            &yml,
            "input_files:\n  - sub/prog.i\nproperties:\n  - property_file: ../properties/unreach-call.prp\n",
        )
        .unwrap();
        let t = read_task(&yml).unwrap();
        assert_eq!(t.input, d.join("sub/prog.i"));
        assert_eq!(t.data_model, DataModel::Ilp32);
        assert!(t.unreach_call);
        assert_eq!(t.expected_verdict, None);

        // No supported property.
        std::fs::write(
            &yml,
            "input_files: prog.c\nproperties:\n  - property_file: properties/no-overflow.prp\n    expected_verdict: true\n",
        )
        .unwrap();
        let t = read_task(&yml).unwrap();
        assert!(!t.unreach_call);
        assert!(no_supported_property(&t).text().contains("no-overflow.prp"));

        // Not a task.
        std::fs::write(&yml, "just: [a, list\n").unwrap();
        assert!(read_task(&yml).unwrap_err().text().contains("invalid YAML"));
        std::fs::write(&yml, "properties: []\n").unwrap();
        assert!(read_task(&yml)
            .unwrap_err()
            .text()
            .contains("no `input_files`"));
        std::fs::write(
            &yml,
            "input_files: a.c\nproperties: []\noptions:\n  language: Java\n",
        )
        .unwrap();
        assert!(read_task(&yml)
            .unwrap_err()
            .text()
            .contains("language `Java`"));
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn every_development_task_reads() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/svcomp-dev");
        let Ok(dirs) = std::fs::read_dir(&root) else {
            crate::out::errln!("note: {} not found; skipped", root.display());
            return;
        };
        let mut n = 0;
        for dir in dirs.flatten() {
            for f in std::fs::read_dir(dir.path())
                .into_iter()
                .flatten()
                .flatten()
            {
                if f.path().extension().is_some_and(|e| e == "yml") {
                    // Every task reads; those of `unreach-call` give its
                    // expected verdict; the others (memory safety, signed
                    // overflow) name their property files, which `check`
                    // refuses with a message until it checks them.
                    let t = read_task(&f.path()).unwrap();
                    if t.unreach_call {
                        assert!(t.expected_verdict.is_some(), "{}", f.path().display());
                        n += 1;
                    } else {
                        assert!(!t.property_files.is_empty(), "{}", f.path().display());
                    }
                    assert!(t.input.exists(), "{}", t.input.display());
                }
            }
        }
        assert!(n > 0);
    }
}
