//! SV-COMP's files: property files (`.prp`) and task files (`.yml`).
//!
//! A task names one input file (relative to the task file), its
//! properties, each with a property file and maybe an expected verdict,
//! and options (`language: C`, `data_model: ILP32|LP64`). `wiser` checks
//! three of SV-COMP's properties: `unreach-call` (`CHECK( init(main()),
//! LTL(G ! call(reach_error())) )`, or the older `__VERIFIER_error`
//! form), `no-overflow` (`LTL(G ! overflow)`) and `valid-memsafety`
//! (`LTL(G valid-free)`, `LTL(G valid-deref)`, `LTL(G valid-memtrack)`).

use crate::error::{CliError, Kind};
use serde_norway::Value;
use std::path::{Path, PathBuf};
use wiser_frontend::{DataModel, Location};
use wiser_ir::{ErrorKind, LineCol};

/// What `wiser check` looks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PropertySpec {
    /// Every kind of runtime error is a bug (the default).
    All,
    /// Only a call of the error function (`reach_error()`, or
    /// `__VERIFIER_error()`; IMP's `fail`) is a bug.
    UnreachCall,
    /// Only a signed overflow (`signed_overflow`, and `INT_MIN / -1`'s
    /// `division_overflow`) is a bug.
    NoOverflow,
    /// Only an invalid dereference, an invalid free or a memory leak is a
    /// bug (see [`subproperty`]).
    ValidMemsafety,
}

impl PropertySpec {
    /// The name used in reports and by `--property`.
    pub fn name(self) -> &'static str {
        match self {
            PropertySpec::All => "all",
            PropertySpec::UnreachCall => "unreach-call",
            PropertySpec::NoOverflow => "no-overflow",
            PropertySpec::ValidMemsafety => "valid-memsafety",
        }
    }

    /// The kinds of error that violate it. `all` is the engine's
    /// [`wiser_engine::Property::all`]: every kind of error a run commits,
    /// which leaves out a memory leak (found after the program ended: a C
    /// program that ends without freeing what it allocated is common and
    /// harmless, and SV-COMP asks for leaks only under `valid-memsafety`).
    pub fn kinds(self) -> Vec<ErrorKind> {
        let only: &[ErrorKind] = match self {
            PropertySpec::All => return wiser_engine::Property::all().kinds(),
            PropertySpec::UnreachCall => &[ErrorKind::Fail],
            PropertySpec::NoOverflow => &[ErrorKind::SignedOverflow, ErrorKind::DivisionOverflow],
            PropertySpec::ValidMemsafety => &[
                ErrorKind::NullDereference,
                ErrorKind::OutOfBounds,
                ErrorKind::UseAfterFree,
                ErrorKind::DoubleFree,
                ErrorKind::InvalidFree,
                ErrorKind::MemoryLeak,
            ],
        };
        only.to_vec()
    }

    /// The properties `--property` and task files name.
    const NAMED: [PropertySpec; 3] = [
        PropertySpec::UnreachCall,
        PropertySpec::NoOverflow,
        PropertySpec::ValidMemsafety,
    ];
}

/// The part of `valid-memsafety` an error of this kind violates
/// (`valid-deref`, `valid-free`, `valid-memtrack`), as SV-COMP names it; `None` for a kind
/// outside that property.
pub fn subproperty(kind: ErrorKind) -> Option<&'static str> {
    match kind {
        ErrorKind::NullDereference | ErrorKind::OutOfBounds | ErrorKind::UseAfterFree => {
            Some("valid-deref")
        }
        ErrorKind::DoubleFree | ErrorKind::InvalidFree => Some("valid-free"),
        ErrorKind::MemoryLeak => Some("valid-memtrack"),
        _ => None,
    }
}

/// The parts of `valid-memsafety`.
const SUBPROPERTIES: [&str; 3] = ["valid-deref", "valid-free", "valid-memtrack"];

const PROPERTY_HELP: &str = "wiser checks `unreach-call` (CHECK( init(main()), LTL(G ! call(reach_error())) )), `no-overflow` (LTL(G ! overflow)) and `valid-memsafety` (LTL(G valid-free), LTL(G valid-deref), LTL(G valid-memtrack)); use --property all, unreach-call, no-overflow or valid-memsafety";

/// Reads `--property`: `all`, a property's name, or a `.prp` file.
pub fn property_arg(arg: &str) -> Result<PropertySpec, CliError> {
    if arg == "all" {
        return Ok(PropertySpec::All);
    }
    if let Some(p) = PropertySpec::NAMED.into_iter().find(|p| p.name() == arg) {
        return Ok(p);
    }
    let p = Path::new(arg);
    if !p.exists() && !arg.ends_with(".prp") {
        return Err(CliError::usage(format!("unknown property `{arg}`")).help(
            "give `all`, `unreach-call`, `no-overflow`, `valid-memsafety`, or the path of an SV-COMP property file (.prp)",
        ));
    }
    read_prp(p)
}

/// Reads a property file.
pub fn read_prp(path: &Path) -> Result<PropertySpec, CliError> {
    let name = path.display();
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError::file(format!("cannot read property file `{name}`: {e}")))?;
    match property_of_text(&text) {
        Some(p) => Ok(p),
        None => {
            let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
            Err(CliError::new(
                Kind::Task,
                format!("unsupported property in `{name}`: {}", first.trim()),
            )
            .help(PROPERTY_HELP))
        }
    }
}

/// The property a property file's text states, if `wiser` checks it.
fn property_of_text(text: &str) -> Option<PropertySpec> {
    let mut checks: Vec<String> = text
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .map(|l| l.chars().filter(|c| !c.is_whitespace()).collect::<String>())
        .filter(|l| !l.is_empty())
        .collect();
    checks.sort();
    let check = |ltl: &str| format!("CHECK(init(main()),LTL({ltl}))");
    match checks.as_slice() {
        [one]
            if ["reach_error", "__VERIFIER_error"]
                .iter()
                .any(|f| *one == check(&format!("G!call({f}())"))) =>
        {
            Some(PropertySpec::UnreachCall)
        }
        [one] if *one == check("G!overflow") => Some(PropertySpec::NoOverflow),
        [deref, free, memtrack]
            if *deref == check("Gvalid-deref")
                && *free == check("Gvalid-free")
                && *memtrack == check("Gvalid-memtrack") =>
        {
            Some(PropertySpec::ValidMemsafety)
        }
        _ => None,
    }
}

/// The property file SV-COMP names for a property.
fn property_of_file_name(name: &str) -> Option<PropertySpec> {
    PropertySpec::NAMED
        .into_iter()
        .find(|p| name == format!("{}.prp", p.name()))
}

/// A property a task lists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaskProperty {
    /// The property, if `wiser` checks it.
    pub spec: Option<PropertySpec>,
    /// Its property file, as the task names it.
    pub file: String,
    /// The expected verdict (`true`: the property holds), if given.
    pub expected_verdict: Option<bool>,
    /// The violated part of the property for a `false` verdict
    /// (`valid-deref`, `valid-free` or `valid-memtrack`), if given.
    pub subproperty: Option<&'static str>,
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
    /// The properties it lists, in its order.
    pub properties: Vec<TaskProperty>,
}

impl Task {
    /// What the task says of a property, if it lists it.
    pub fn property(&self, spec: PropertySpec) -> Option<&TaskProperty> {
        self.properties.iter().find(|p| p.spec == Some(spec))
    }

    /// The property checked when `--property` is not given: `unreach-call`
    /// if the task lists it, else the first one it lists that `wiser`
    /// checks.
    pub fn default_property(&self) -> Option<PropertySpec> {
        self.property(PropertySpec::UnreachCall)
            .or_else(|| self.properties.iter().find(|p| p.spec.is_some()))
            .and_then(|p| p.spec)
    }
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
        properties: Vec::new(),
    };
    let Some(Value::Sequence(props)) = field(&doc, "properties") else {
        return Err(bad("no `properties` list"));
    };
    for p in props {
        let Some(file) = field(p, "property_file").and_then(Value::as_str) else {
            return Err(bad("a property without `property_file`"));
        };
        let prp = dir.join(file);
        // The property file may be missing from a copied task folder: its
        // name then tells (SV-COMP names it `unreach-call.prp`, ...).
        let spec = match std::fs::read_to_string(&prp) {
            Ok(text) => property_of_text(&text),
            Err(_) => prp
                .file_name()
                .and_then(|n| n.to_str())
                .and_then(property_of_file_name),
        };
        let expected_verdict = match field(p, "expected_verdict") {
            Some(Value::Bool(b)) => Some(*b),
            Some(Value::String(s)) if s == "true" => Some(true),
            Some(Value::String(s)) if s == "false" => Some(false),
            _ => None,
        };
        let subproperty = field(p, "subproperty")
            .and_then(Value::as_str)
            .and_then(|s| SUBPROPERTIES.into_iter().find(|&k| k == s));
        task.properties.push(TaskProperty {
            spec,
            file: file.to_string(),
            expected_verdict,
            subproperty,
        });
    }
    Ok(task)
}

/// The error for a task without the one property `wiser` checks.
pub fn no_supported_property(task: &Task) -> CliError {
    let files: Vec<&str> = task.properties.iter().map(|p| p.file.as_str()).collect();
    let listed = if files.is_empty() {
        "none".to_string()
    } else {
        files.join(", ")
    };
    CliError::new(
        Kind::Task,
        format!(
            "task `{}` has no property wiser checks (it lists: {listed})",
            task.path.display()
        ),
    )
    .help(PROPERTY_HELP)
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
        for text in [
            "CHECK( init(main()), LTL(G ! call(reach_error())) )\n",
            "CHECK( init(main()), LTL(G ! call(__VERIFIER_error())) )",
        ] {
            assert_eq!(property_of_text(text), Some(PropertySpec::UnreachCall));
        }
        assert_eq!(
            property_of_text("CHECK( init(main()), LTL(G ! overflow) )"),
            Some(PropertySpec::NoOverflow)
        );
        assert_eq!(
            property_of_text(
                "CHECK( init(main()), LTL(G valid-free) )\nCHECK( init(main()), LTL(G valid-deref) )\nCHECK( init(main()), LTL(G valid-memtrack) )\n"
            ),
            Some(PropertySpec::ValidMemsafety)
        );
        // valid-memsafety is the three parts together, not one of them.
        assert_eq!(
            property_of_text("CHECK( init(main()), LTL(G valid-free) )"),
            None
        );
        assert_eq!(property_of_text("CHECK( init(main()), LTL(F end) )"), None);
        assert_eq!(property_arg("all").ok(), Some(PropertySpec::All));
        assert_eq!(
            property_arg("unreach-call").ok(),
            Some(PropertySpec::UnreachCall)
        );
        assert_eq!(
            property_arg("no-overflow").ok(),
            Some(PropertySpec::NoOverflow)
        );
        assert_eq!(
            property_arg("valid-memsafety").ok(),
            Some(PropertySpec::ValidMemsafety)
        );
        let unknown = property_arg("termination").unwrap_err();
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
        assert_eq!(t.default_property(), Some(PropertySpec::UnreachCall));
        let unreach = t.property(PropertySpec::UnreachCall).unwrap();
        assert_eq!(unreach.expected_verdict, Some(false));
        let overflow = t.property(PropertySpec::NoOverflow).unwrap();
        assert_eq!(overflow.expected_verdict, Some(true));

        // A list of one input, no data model, a missing but named property file.
        std::fs::write(
            &yml,
            "input_files:\n  - sub/prog.i\nproperties:\n  - property_file: ../properties/unreach-call.prp\n",
        )
        .unwrap();
        let t = read_task(&yml).unwrap();
        assert_eq!(t.input, d.join("sub/prog.i"));
        assert_eq!(t.data_model, DataModel::Ilp32);
        assert_eq!(t.default_property(), Some(PropertySpec::UnreachCall));
        assert_eq!(
            t.property(PropertySpec::UnreachCall)
                .unwrap()
                .expected_verdict,
            None
        );

        // Without unreach-call, the first property wiser checks; a
        // memory-safety verdict with its subproperty.
        std::fs::write(
            &yml,
            "input_files: prog.c\nproperties:\n  - property_file: properties/termination.prp\n    expected_verdict: true\n  - property_file: properties/valid-memsafety.prp\n    expected_verdict: false\n    subproperty: valid-free\n  - property_file: properties/no-overflow.prp\n",
        )
        .unwrap();
        let t = read_task(&yml).unwrap();
        assert_eq!(t.default_property(), Some(PropertySpec::ValidMemsafety));
        let memsafety = t.property(PropertySpec::ValidMemsafety).unwrap();
        assert_eq!(memsafety.expected_verdict, Some(false));
        assert_eq!(memsafety.subproperty, Some("valid-free"));

        // No supported property.
        std::fs::write(
            &yml,
            "input_files: prog.c\nproperties:\n  - property_file: properties/termination.prp\n    expected_verdict: true\n",
        )
        .unwrap();
        let t = read_task(&yml).unwrap();
        assert_eq!(t.default_property(), None);
        assert!(no_supported_property(&t).text().contains("termination.prp"));

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
                    // Every task reads; each property wiser checks gives
                    // its expected verdict, a `false` of valid-memsafety
                    // its subproperty; a task with none of them
                    // (termination only) names its property files.
                    let t = read_task(&f.path()).unwrap();
                    let shown = f.path().display().to_string();
                    for p in t.properties.iter().filter(|p| p.spec.is_some()) {
                        assert!(p.expected_verdict.is_some(), "{shown}");
                        if p.spec == Some(PropertySpec::ValidMemsafety)
                            && p.expected_verdict == Some(false)
                        {
                            assert!(p.subproperty.is_some(), "{shown}");
                        }
                        n += 1;
                    }
                    assert!(!t.properties.is_empty(), "{shown}");
                    assert!(t.input.exists(), "{}", t.input.display());
                }
            }
        }
        assert!(n > 0);
    }
}
