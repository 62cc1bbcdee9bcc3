//! A pass over the whole unit before lowering, for facts lowering needs
//! before it reaches the code that decides them: does the program create
//! threads (then every read of shared state becomes an instruction of its
//! own, from the first function lowered on), which variables have their
//! address taken (those live in heap cells from their declaration on),
//! and which names are used as values other than by a call (the functions
//! among them are the targets a call through a function pointer may
//! reach).

use lang_c::ast::{self, Expression as E, UnaryOperator as U};
use lang_c::span::{Node, Span};
use lang_c::visit::{self, Visit};
use std::collections::{HashMap, HashSet};

/// What the scan found.
#[derive(Default)]
pub struct Found {
    /// Is `pthread_create` called anywhere?
    pub threaded: bool,
    /// The names `x` of every `&x` (by name: a variable of that name in
    /// any scope becomes a cell, which costs speed, never precision).
    /// The thread-id argument of `pthread_create(&t, ...)` is not an
    /// address taken: the call stores into `t` itself.
    pub addressed: HashSet<String>,
    /// The names `t` of `pthread_create(&t, ...)`: such a variable gets
    /// its value from the call, so an uninitialised declaration of it is
    /// not an input (a witness would list it for nothing).
    pub thread_ids: HashSet<String>,
    /// The names that are used as values other than through a subscript,
    /// `sizeof` or as a call's argument (`p = a`, `&a[i]`, `a + 1`): an
    /// array of such a name decays to a pointer somewhere, so it lives in
    /// an object of the memory model. (By name, as `addressed`; the set
    /// holds scalars' names too, which nothing asks about.)
    pub decays: HashSet<String>,
    /// Every name used in an expression other than as the called
    /// function of a call (`f = inc`, `&inc`, `apply(inc, 3)`): the
    /// functions a function pointer may hold.
    pub values: HashSet<String>,
    /// Is `memset`, `memcpy` or `memmove` called anywhere? (Then every
    /// object records its element's layout for a call on a `void *`,
    /// `bytes.rs`.)
    pub byte_functions: bool,
    /// Is `memcpy` or `memmove` called anywhere?
    pub byte_copies: bool,
    /// Is `malloc`, `calloc` or `realloc` called, or named as a value (a
    /// function pointer's target), anywhere? (Only then can objects be
    /// live when `exit` ends the program, `call.rs`.)
    pub allocates: bool,
    /// Is `free` or `realloc` called anywhere? (Only then may `malloc`
    /// give a freed object's address again, `alloc::equal_addresses`.)
    pub frees: bool,
    /// The type names of the casts of `&x` (`(unsigned *)&d`), by the
    /// name `x` (by name, as `addressed`): a variable seen through a
    /// pointer of another width lives in a union ([`super::punned`]).
    pub punned: HashMap<String, Vec<Node<ast::TypeName>>>,
}

/// The functions that make objects `free` must free.
const ALLOCATORS: [&str; 3] = ["malloc", "calloc", "realloc"];

impl Found {
    /// Visits the subscripts of `a[i][j]` and returns the name at its
    /// base, if it is a name.
    fn subscripts<'ast>(
        &mut self,
        e: &'ast ast::Expression,
        span: &'ast Span,
    ) -> Option<&'ast str> {
        match e {
            E::BinaryOperator(b) if b.node.operator.node == ast::BinaryOperator::Index => {
                self.visit_expression(&b.node.rhs.node, &b.node.rhs.span);
                self.subscripts(&b.node.lhs.node, &b.node.lhs.span)
            }
            E::Identifier(id) => {
                self.values.insert(id.node.name.clone());
                Some(&id.node.name)
            }
            other => {
                self.visit_expression(other, span);
                None
            }
        }
    }
}

impl<'ast> Visit<'ast> for Found {
    fn visit_expression(&mut self, e: &'ast ast::Expression, span: &'ast Span) {
        match e {
            // `a[i]`: no decay of `a` (an array variable is indexed).
            E::BinaryOperator(b) if b.node.operator.node == ast::BinaryOperator::Index => {
                self.subscripts(e, span);
            }
            E::Identifier(id) => {
                self.decays.insert(id.node.name.clone());
                self.values.insert(id.node.name.clone());
            }
            E::SizeOfVal(_) => {}
            _ => visit::visit_expression(self, e, span),
        }
    }

    fn visit_call_expression(&mut self, c: &'ast ast::CallExpression, span: &'ast Span) {
        if let E::Identifier(id) = &c.callee.node {
            // An array passed to a function is bound to its parameter (an
            // array parameter, or a pointer into its object).
            // A direct call: the name is not a value.
            self.byte_functions |= matches!(id.node.name.as_str(), "memset" | "memcpy" | "memmove");
            self.frees |= matches!(id.node.name.as_str(), "free" | "realloc");
            self.allocates |= ALLOCATORS.contains(&id.node.name.as_str());
            self.byte_copies |= matches!(id.node.name.as_str(), "memcpy" | "memmove");
            if id.node.name != "pthread_create" {
                for a in &c.arguments {
                    match &a.node {
                        E::Identifier(id) => {
                            self.values.insert(id.node.name.clone());
                        }
                        other => self.visit_expression(other, &a.span),
                    }
                }
                return;
            }
            if id.node.name == "pthread_create" {
                self.threaded = true;
                // `&t`: the place of the thread id, not an address.
                for a in c.arguments.iter().skip(1) {
                    self.visit_expression(&a.node, &a.span);
                }
                if let Some(first) = c.arguments.first() {
                    if let E::UnaryOperator(u) = &first.node {
                        if u.node.operator.node == U::Address {
                            if let E::Identifier(id) = &u.node.operand.node {
                                self.thread_ids.insert(id.node.name.clone());
                            }
                            self.visit_expression(&u.node.operand.node, &u.node.operand.span);
                            return;
                        }
                    }
                    self.visit_expression(&first.node, &first.span);
                }
                return;
            }
        }
        visit::visit_call_expression(self, c, span);
    }

    fn visit_cast_expression(&mut self, c: &'ast ast::CastExpression, span: &'ast Span) {
        if let E::UnaryOperator(u) = &c.expression.node {
            if let (U::Address, E::Identifier(id)) = (&u.node.operator.node, &u.node.operand.node) {
                self.punned
                    .entry(id.node.name.clone())
                    .or_default()
                    .push(c.type_name.clone());
            }
        }
        visit::visit_cast_expression(self, c, span);
    }

    fn visit_unary_operator_expression(
        &mut self,
        u: &'ast ast::UnaryOperatorExpression,
        span: &'ast Span,
    ) {
        if u.operator.node == U::Address {
            if let E::Identifier(id) = &u.operand.node {
                self.addressed.insert(id.node.name.clone());
            }
            // `&a[i]`: the address of an element.
            if let Some(base) = self.subscripts(&u.operand.node, &u.operand.span) {
                self.decays.insert(base.to_string());
            }
            return;
        }
        visit::visit_unary_operator_expression(self, u, span);
    }
}

/// Scans a translation unit.
pub fn scan(unit: &ast::TranslationUnit) -> Found {
    let mut found = Found::default();
    found.visit_translation_unit(unit);
    // `void *(*alloc)(size_t) = malloc;`: a call through the pointer.
    found.allocates |= ALLOCATORS.iter().any(|a| found.values.contains(*a));
    found
}
