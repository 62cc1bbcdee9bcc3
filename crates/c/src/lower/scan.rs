//! A pass over the whole unit before lowering, for facts lowering needs
//! before it reaches the code that decides them: does the program create
//! threads (then every read of shared state becomes an instruction of its
//! own, from the first function lowered on), which variables have their
//! address taken (those live in heap cells from their declaration on),
//! and which names are used as values other than by a call (the functions
//! among them are the targets a call through a function pointer may
//! reach).

use lang_c::ast::{self, Expression as E, UnaryOperator as U};
use lang_c::span::Span;
use lang_c::visit::{self, Visit};
use std::collections::HashSet;

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
    /// Every name used in an expression other than as the called
    /// function of a call (`f = inc`, `&inc`, `apply(inc, 3)`).
    pub values: HashSet<String>,
}

impl<'ast> Visit<'ast> for Found {
    fn visit_call_expression(&mut self, c: &'ast ast::CallExpression, span: &'ast Span) {
        if let E::Identifier(id) = &c.callee.node {
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
        if let E::Identifier(_) = &c.callee.node {
            // A direct call: the name is not a value.
            for a in &c.arguments {
                self.visit_expression(&a.node, &a.span);
            }
            return;
        }
        visit::visit_call_expression(self, c, span);
    }

    fn visit_expression(&mut self, e: &'ast E, span: &'ast Span) {
        if let E::Identifier(id) = e {
            self.values.insert(id.node.name.clone());
        }
        visit::visit_expression(self, e, span);
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
        }
        visit::visit_unary_operator_expression(self, u, span);
    }
}

/// Scans a translation unit.
pub fn scan(unit: &ast::TranslationUnit) -> Found {
    let mut found = Found::default();
    found.visit_translation_unit(unit);
    found
}
