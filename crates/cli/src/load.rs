//! Loading a program: choose its front end from the registry (by `--lang`,
//! else by the file's extension), read an SV-COMP task file if given one,
//! compile, and keep every text so that each location can be shown as
//! `file:line:col` with its line.

use crate::error::CliError;
use crate::task::{self, Task};
use std::path::Path;
use std::sync::Arc;
use wiser_frontend::{CommandLineError, DataModel, Frontend, LoadRequest, LoadedProgram, ReadSite};
use wiser_ir::{Ir, LineCol, Pc, Sources, Span};
use wiser_num::Int;

/// The front ends `wiser` reads, in order: `--lang` names one of them; a
/// file's extension picks the one that lists it; the first reads files of
/// any other extension.
pub type Frontends = &'static [&'static dyn Frontend];

/// How to load a file.
#[derive(Clone, Debug, Default)]
pub struct LoadOptions<'a> {
    /// The front ends to choose from.
    pub frontends: Registry,
    /// The language (a front end's name), if not to be chosen by the
    /// file's extension.
    pub lang: Option<&'a str>,
    /// The data model, if given (else the task's, else the default).
    pub data_model: Option<DataModel>,
    /// An extra assumption on the inputs, where the language has them.
    pub assume: Option<&'a str>,
    /// May allocation fail (`--malloc-may-fail`)?
    pub malloc_may_fail: bool,
}

/// The registry of front ends, as options carry it.
#[derive(Clone, Copy, Default)]
pub struct Registry(pub Frontends);

impl std::fmt::Debug for Registry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<&str> = self.0.iter().map(|l| l.name()).collect();
        write!(f, "{names:?}")
    }
}

impl Registry {
    /// The front end named `name`.
    pub fn named(self, name: &str) -> Option<&'static dyn Frontend> {
        self.0.iter().copied().find(|l| l.name() == name)
    }

    /// The front end of `path`, by its extension.
    pub fn for_path(self, path: &Path) -> Option<&'static dyn Frontend> {
        let ext = path.extension().and_then(|e| e.to_str());
        self.0
            .iter()
            .copied()
            .find(|l| ext.is_some_and(|e| l.extensions().contains(&e)))
            .or_else(|| self.0.first().copied())
    }
}

/// A loaded program and what is needed to talk about its locations.
pub struct Program {
    /// Every source text (the file, then the `--assume` text if any).
    pub sources: Sources,
    /// The lowered program.
    pub ir: Arc<Ir>,
    /// Its language.
    pub language: &'static dyn Frontend,
    /// What the front end knows of it beyond its IR.
    pub details: Box<dyn LoadedProgram>,
    /// The data model it was read under, where its language has one.
    pub data_model: Option<DataModel>,
    /// The SV-COMP task it came from, if any.
    pub task: Option<Task>,
    /// The file compiled (a task's input file).
    pub file: std::path::PathBuf,
}

impl Program {
    /// What an error of `kind` is called in the program's language.
    pub fn describe(&self, kind: wiser_ir::ErrorKind) -> &'static str {
        self.language.describe_error(kind)
    }

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
    pub fn read_site(&self, pc: Pc) -> ReadSite {
        self.details.read_site(&self.ir, &self.sources, pc)
    }

    /// The reads that give the program the command line `args`; `None`
    /// when it reads none (see [`LoadedProgram::command_line`]).
    pub fn command_line(&self, args: &[Vec<u8>]) -> Option<Result<Vec<Int>, CommandLineError>> {
        self.details.command_line(&self.ir, args)
    }
}

/// Is `path` an SV-COMP task file (by its extension)?
pub fn is_task(path: &Path) -> bool {
    matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("yml" | "yaml")
    )
}

/// Loads `path`: an SV-COMP task file (its input file is loaded), or a
/// program of one of the registry's languages. The front end's warnings
/// go to stderr.
pub fn load_any(path: &Path, options: &LoadOptions<'_>) -> Result<Program, CliError> {
    let (file, task) = if options.lang.is_none() && is_task(path) {
        let task = task::read_task(path)?;
        (task.input.clone(), Some(task))
    } else {
        (path.to_path_buf(), None)
    };
    let registry = options.frontends;
    let language = match options.lang {
        Some(name) => registry.named(name),
        None => registry.for_path(&file),
    }
    .ok_or_else(|| {
        let names: Vec<&str> = registry.0.iter().map(|l| l.name()).collect();
        CliError::usage(format!("no front end reads `{}`", file.display()))
            .help(format!("the languages are: {}", names.join(", ")))
    })?;
    let data_model = options
        .data_model
        .or(task.as_ref().map(|t| t.data_model))
        .unwrap_or_default();
    let loaded = language.load(&LoadRequest {
        path: &file,
        data_model,
        assume: options.assume,
        malloc_may_fail: options.malloc_may_fail,
    })?;
    for w in &loaded.warnings {
        crate::out::err(&loaded.sources.render_warning(w));
    }
    Ok(Program {
        sources: loaded.sources,
        ir: loaded.ir,
        language,
        details: loaded.details,
        data_model: loaded.data_model,
        task,
        file,
    })
}
