//! The classes of a program and its globals, as the checks, the typing
//! rules and lowering look them up.

use crate::analysis::Errors;
use crate::ast::{ClassDef, GlobalDef, Ident, IntTy};
use crate::Diagnostic;
use std::collections::HashMap;
use std::sync::Arc;

/// A field of a class, its class resolved.
#[derive(Clone, Debug)]
pub(crate) struct FieldInfo {
    pub(crate) name: Arc<str>,
    pub(crate) ty: IntTy,
    pub(crate) class: Option<usize>,
}

/// Every class of a program, by index (the order of definition).
#[derive(Clone, Debug, Default)]
pub(crate) struct Classes {
    pub(crate) names: Vec<Arc<str>>,
    index: HashMap<Arc<str>, usize>,
    pub(crate) fields: Vec<Vec<FieldInfo>>,
    /// The methods of each class, by name.
    pub(crate) methods: Vec<Vec<Arc<str>>>,
}

/// The procedure a method becomes: `Class.method` (no name a program can
/// write, so it clashes with no procedure).
pub(crate) fn method_proc(class: &str, method: &str) -> Arc<str> {
    format!("{class}.{method}").into()
}

/// Is a procedure of the checked program a method?
pub(crate) fn is_method(proc_name: &str) -> bool {
    proc_name.contains('.')
}

impl Classes {
    /// The table of `defs`; duplicate classes, fields and methods and
    /// unknown field classes go to `errs`.
    pub(crate) fn new(defs: &[ClassDef], errs: &mut Errors) -> Classes {
        let mut t = Classes::default();
        for def in defs {
            if t.index.contains_key(&def.name.name) {
                errs.push(
                    Diagnostic::new(
                        def.name.span,
                        format!("class `{}` is defined twice", def.name.name),
                    )
                    .with_help("rename one of them"),
                );
                continue;
            }
            t.index.insert(def.name.name.clone(), t.names.len());
            t.names.push(def.name.name.clone());
        }
        for def in defs {
            let mut fields: Vec<FieldInfo> = Vec::new();
            for f in &def.fields {
                if fields.iter().any(|g| g.name == f.name.name) {
                    errs.push(
                        Diagnostic::new(
                            f.name.span,
                            format!(
                                "field `{}` of class `{}` is declared twice",
                                f.name.name, def.name.name
                            ),
                        )
                        .with_help("give each field a different name"),
                    );
                }
                let class = f.class.as_ref().and_then(|c| t.resolve(c, errs));
                fields.push(FieldInfo {
                    name: f.name.name.clone(),
                    ty: f.ty,
                    class,
                });
            }
            let methods = def.methods.iter().map(|m| m.name.name.clone()).collect();
            if t.index.get(&def.name.name) == Some(&t.fields.len()) {
                t.fields.push(fields);
                t.methods.push(methods);
            }
        }
        t
    }

    /// The class named `name`, if there is one.
    pub(crate) fn get(&self, name: &str) -> Option<usize> {
        self.index.get(name).copied()
    }

    /// The class `id` names; an unknown class goes to `errs`.
    pub(crate) fn resolve(&self, id: &Ident, errs: &mut Errors) -> Option<usize> {
        match self.get(&id.name) {
            Some(c) => Some(c),
            None => {
                errs.push(self.unknown(id));
                None
            }
        }
    }

    /// The error for a class name that is not defined.
    pub(crate) fn unknown(&self, id: &Ident) -> Diagnostic {
        if self.names.is_empty() {
            // A program without classes most likely misspelt an integer
            // type.
            return Diagnostic::new(id.span, format!("unknown type `{}`", id.name))
                .with_help(crate::parser::types_help());
        }
        let help = match crate::suggest::closest(&id.name, self.names.iter().map(|n| &**n)) {
            Some(c) => format!("did you mean `{c}`?"),
            None => format!(
                "define it before the main program: `class {} begin ... end`; the types of \
                 integers are `int`, `i8` ... `u64`",
                id.name
            ),
        };
        Diagnostic::new(id.span, format!("unknown class or type `{}`", id.name)).with_help(help)
    }

    /// Field `name` of class `class`: its index and description.
    pub(crate) fn field(&self, class: usize, name: &str) -> Option<(usize, &FieldInfo)> {
        self.fields
            .get(class)?
            .iter()
            .enumerate()
            .find(|(_, f)| &*f.name == name)
    }

    /// The error for a field or method `id` that class `class` lacks.
    pub(crate) fn no_member(&self, class: usize, id: &Ident, what: &str) -> Diagnostic {
        let cname = self.names.get(class).map_or("?", |n| &**n);
        let names: Vec<&str> = match what {
            "field" => self.fields[class].iter().map(|f| &*f.name).collect(),
            _ => self.methods[class].iter().map(|m| &**m).collect(),
        };
        let help = match crate::suggest::closest(&id.name, names.iter().copied()) {
            Some(c) => format!("did you mean `{c}`?"),
            None if names.is_empty() => format!("class `{cname}` has no {what}s"),
            None => {
                let list: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
                format!("the {what}s of `{cname}` are {}", list.join(", "))
            }
        };
        Diagnostic::new(
            id.span,
            format!("class `{cname}` has no {what} `{}`", id.name),
        )
        .with_help(help)
    }

    /// Does class `class` have method `name`?
    pub(crate) fn has_method(&self, class: usize, name: &str) -> bool {
        self.methods
            .get(class)
            .is_some_and(|m| m.iter().any(|n| &**n == name))
    }
}

/// The globals of a program, by name: type, class and definition.
#[derive(Clone, Debug, Default)]
pub(crate) struct Globals {
    pub(crate) types: HashMap<Arc<str>, IntTy>,
    pub(crate) classes: HashMap<Arc<str>, usize>,
}

impl Globals {
    /// The table of `defs`; duplicates, unknown classes and initial
    /// values of the wrong kind go to `errs`.
    pub(crate) fn new(defs: &[GlobalDef], classes: &Classes, errs: &mut Errors) -> Globals {
        let mut g = Globals::default();
        for def in defs {
            let name = &def.name.name;
            if g.types.contains_key(name) {
                errs.push(
                    Diagnostic::new(def.name.span, format!("global `{name}` is defined twice"))
                        .with_help("rename one of them"),
                );
                continue;
            }
            g.types.insert(name.clone(), def.ty);
            let class = def.class.as_ref().and_then(|c| classes.resolve(c, errs));
            if let Some(c) = class {
                g.classes.insert(name.clone(), c);
            }
            match (&def.init, &def.class) {
                (Some(crate::ast::Expr::Num { value, span }), None) if !def.ty.contains(value) => {
                    errs.push(
                        Diagnostic::new(*span, format!("`{value}` does not fit `{}`", def.ty))
                            .with_help("give the global a value of its type"),
                    )
                }
                (Some(crate::ast::Expr::Num { span, .. }), Some(c)) => errs.push(
                    Diagnostic::new(*span, format!("`{name}` is a reference to `{}`", c.name))
                        .with_help("a reference starts as `null`, or as an input without a value"),
                ),
                (Some(crate::ast::Expr::Null(span)), None) => errs.push(
                    Diagnostic::new(*span, format!("`{name}` is an integer, not a reference"))
                        .with_help("give it an integer value, e.g. `= 0`"),
                ),
                _ => {}
            }
        }
        g
    }

    /// Is `name` a global?
    pub(crate) fn contains(&self, name: &str) -> bool {
        self.types.contains_key(name)
    }
}
