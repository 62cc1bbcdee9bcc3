//! Loading a program: choose its front end (by extension, or `--lang`),
//! read an SV-COMP task file if given one, compile (with the `--assume`
//! condition as a text of its own for IMP), and keep every text so that
//! each location can be shown as `file:line:col` with its line.

use crate::task::{self, Task};
use std::path::Path;
use std::sync::Arc;
use wiser_c::{Compiled, DataModel, NondetFn};
use wiser_ir::{FileId, Instr, Ir, LineCol, Pc, Place, SourceMap, Sources, Span};

/// The languages `wiser` reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    /// IMP (WiSE's language with machine integers).
    Imp,
    /// C (the subset in docs/C.md).
    C,
}

/// How to load a file.
#[derive(Clone, Debug, Default)]
pub struct LoadOptions<'a> {
    /// The language, if not to be chosen by the file's extension.
    pub lang: Option<Lang>,
    /// C's data model, if given (else the task's, else ILP32).
    pub data_model: Option<DataModel>,
    /// An extra assumption on the inputs (IMP only).
    pub assume: Option<&'a str>,
}

/// A loaded program and what is needed to talk about its locations.
pub struct Program {
    /// Every source text (the file, then the `--assume` text if any).
    pub sources: Sources,
    /// The lowered program.
    pub ir: Arc<Ir>,
    /// For a C program: what its front end says about its reads and
    /// functions (its `ir` is the same program as `Program::ir`).
    pub c: Option<Compiled>,
    /// The data model a C program was read under.
    pub data_model: DataModel,
    /// The SV-COMP task it came from, if any.
    pub task: Option<Task>,
    /// The file compiled (a task's input file).
    pub file: std::path::PathBuf,
}

/// Where a read of a witness was made, in source terms.
pub enum ReadSite<'a> {
    /// A call of a nondeterministic function (C).
    Call(&'a NondetFn),
    /// A C local read before it was written, by name.
    Uninitialised(String),
    /// IMP's `x = *`.
    Imp,
}

impl Program {
    /// `file:line:col` of a span (the `--assume` text is called `--assume`).
    pub fn location(&self, span: Span) -> String {
        self.sources.location(span)
    }

    /// Line and column of a span's start.
    pub fn line_col(&self, span: Span) -> LineCol {
        self.sources.line_col(span)
    }

    /// The source line a span starts on, trimmed.
    pub fn line_text(&self, span: Span) -> &str {
        self.sources.line_text(span).trim()
    }

    /// What made the read at `pc` (the `Havoc` a witness's read came from).
    pub fn read_site(&self, pc: Pc) -> ReadSite<'_> {
        let Some(c) = &self.c else {
            return ReadSite::Imp;
        };
        let loc = self.ir.at(pc);
        if let Some(f) = c.nondet_reads.get(&loc.span) {
            return ReadSite::Call(f);
        }
        let name = match loc.instr {
            Instr::Havoc {
                dst: Place::Local(slot),
                ..
            } => {
                // Each routine's code is contiguous, from its entry on.
                let routine = std::iter::once(&self.ir.main)
                    .chain(&self.ir.procs)
                    .filter(|r| r.entry <= pc)
                    .max_by_key(|r| r.entry);
                routine
                    .and_then(|r| r.slots.get(slot as usize))
                    .filter(|s| !s.is_temporary())
                    .map(|s| s.name.to_string())
            }
            Instr::Havoc {
                dst: Place::Global(g),
                ..
            } => self.ir.globals.get(g as usize).map(|g| g.name.to_string()),
            _ => None,
        };
        ReadSite::Uninitialised(
            name.unwrap_or_else(|| format!("the local at {}", self.line_col(loc.span))),
        )
    }
}

/// The language of `path`, by its extension.
pub fn lang_of(path: &Path) -> Lang {
    match path.extension().and_then(|e| e.to_str()) {
        Some("c" | "i") => Lang::C,
        _ => Lang::Imp,
    }
}

/// Is `path` an SV-COMP task file (by its extension)?
pub fn is_task(path: &Path) -> bool {
    matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("yml" | "yaml")
    )
}

/// Loads `path`: an SV-COMP task file (its input file is loaded), a C
/// file or an IMP file.
pub fn load_any(path: &Path, options: &LoadOptions<'_>) -> Result<Program, String> {
    if options.lang.is_none() && is_task(path) {
        let task = task::read_task(path)?;
        let lang = options.lang.unwrap_or_else(|| lang_of(&task.input));
        let data_model = options.data_model.unwrap_or(task.data_model);
        let mut program = match lang {
            Lang::C => load_c(&task.input, data_model, options.assume)?,
            Lang::Imp => load(&task.input, options.assume)?,
        };
        program.task = Some(task);
        return Ok(program);
    }
    let lang = options.lang.unwrap_or_else(|| lang_of(path));
    match lang {
        Lang::C => load_c(path, options.data_model.unwrap_or_default(), options.assume),
        Lang::Imp => load(path, options.assume),
    }
}

/// All of standard input (`-` as the program's file).
fn read_stdin() -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(&mut std::io::stdin().lock(), &mut bytes)?;
    Ok(bytes)
}

/// Reads, preprocesses and compiles the C file `path`; its warnings go to
/// stderr.
pub fn load_c(path: &Path, data_model: DataModel, assume: Option<&str>) -> Result<Program, String> {
    let name = path.display().to_string();
    if path == Path::new("-") {
        return Err("error: standard input is read as IMP; give a C program as a file\n  = help: C goes through the system preprocessor, which reads files\n".into());
    }
    if assume.is_some() {
        return Err(format!(
            "error: --assume is for IMP programs; `{name}` is C
  = help: constrain the inputs in the program: `__VERIFIER_assume(cond);` after the reads
"
        ));
    }
    if let Err(e) = std::fs::File::open(path) {
        return Err(format!(
            "error: cannot read `{name}`: {e}
  = help: check the path; wiser takes one C source file (.c, or .i when preprocessed)
"
        ));
    }
    let mut sources = Sources::new();
    let options = wiser_c::Options { data_model };
    // The front end must never panic; if it does, say so as an internal
    // error rather than a crash.
    let compiled = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        wiser_c::compile_file(&mut sources, path, &options)
    }))
    .map_err(|_| {
        format!("error: internal error: the C front end failed on `{name}` (a bug in wiser; please report it with the file)
")
    })?;
    let compiled = compiled.map_err(|d| sources.render(&d))?;
    for w in &compiled.warnings {
        crate::out::err(&sources.render_warning(w));
    }
    Ok(Program {
        ir: Arc::new(compiled.ir.clone()),
        c: Some(compiled),
        data_model,
        task: None,
        file: path.to_path_buf(),
        sources,
    })
}

/// Reads and compiles `path`, with an optional extra assumption on the
/// inputs (checked as `assume BEXPR` before the main statement).
pub fn load(path: &std::path::Path, assume: Option<&str>) -> Result<Program, String> {
    let name = path.display().to_string();
    let bytes = if path == Path::new("-") {
        read_stdin()
    } else {
        std::fs::read(path)
    };
    let name = if path == Path::new("-") {
        "<stdin>".to_string()
    } else {
        name
    };
    let bytes = bytes.map_err(|e| {
        format!("error: cannot read `{name}`: {e}\n  = help: check the path; wiser takes one IMP source file, a C file (.c, .i) or an SV-COMP task (.yml)\n")
    })?;
    let text = String::from_utf8(bytes).map_err(|e| {
        let at = SourceMap::new(&name, String::from_utf8_lossy(e.as_bytes()).into_owned())
            .line_col(e.utf8_error().valid_up_to() as u32);
        format!("error: the file is not valid UTF-8\n --> {name}:{at}\n")
    })?;
    let mut sources = Sources::new();
    let file = sources.add(SourceMap::new(&name, text));
    let assume_file: Option<FileId> = assume.map(|a| sources.add(SourceMap::new("--assume", a)));
    match wiser_imp::compile_files(&sources, file, assume_file) {
        Ok(ir) => Ok(Program {
            sources,
            ir: Arc::new(ir),
            c: None,
            data_model: DataModel::default(),
            task: None,
            file: path.to_path_buf(),
        }),
        Err(d) => Err(sources.render(&d)),
    }
}
