//! Classes, globals, references and threads: `class`, `global`,
//! `x = new C`, field accesses and stores, method calls, `spawn`, `join`,
//! `lock`, `unlock` and `atomic`.

use super::{call_in_expression, Definition, PResult, Parser, EXPR_TOO_DEEP};
use crate::ast::{ClassDef, Expr, FieldDef, GlobalDef, Ident, IntTy, ProcDef, Stmt, Ty, THIS};
use crate::lexer::Tok;
use crate::{Diagnostic, Span};

/// A type as written: an integer or float type, or a class name (a
/// reference).
pub(super) struct TypeRef {
    pub(super) ty: Ty,
    pub(super) class: Option<Ident>,
    pub(super) span: Span,
}

impl TypeRef {
    pub(super) fn int(ty: Ty) -> TypeRef {
        TypeRef {
            ty,
            class: None,
            span: Span::default(),
        }
    }
}

/// The integer type of `t`, the type of `what` (a field or a global),
/// which cannot be a float.
fn integer_only(t: &TypeRef, what: &str) -> PResult<IntTy> {
    match t.ty {
        Ty::Int(ty) => Ok(ty),
        Ty::Float(ty) => Err(Diagnostic::new(
            t.span,
            format!("{what} cannot have the float type `{ty}`"),
        )
        .with_help(
            "fields and globals hold integers and references; keep the float in a variable, \
             a parameter or an array (`var a: f64[]`)",
        )),
    }
}

impl Definition {
    pub(super) fn into_proc(self) -> ProcDef {
        ProcDef {
            name: self.name,
            params: self.params,
            ret: self.ret.ty,
            ret_class: self.ret.class,
            body: self.body,
            span: self.span,
        }
    }
}

impl Parser<'_> {
    /// A type: `int`, `i8` ... `u64`, `f32`, `f64`, or the name of a class (checked
    /// later: classes may be defined after their use).
    pub(super) fn type_ref(&mut self) -> PResult<TypeRef> {
        match self.peek() {
            Tok::Ident(name) => {
                let name = name.clone();
                let span = self.bump();
                Ok(match Ty::from_name(&name) {
                    Some(ty) => TypeRef {
                        ty,
                        class: None,
                        span,
                    },
                    None => TypeRef {
                        ty: Ty::INT,
                        class: Some(Ident { name, span }),
                        span,
                    },
                })
            }
            _ => Err(self.expected("a type").with_help(format!(
                "{}; the name of a class is the type of its references",
                super::expr::types_help()
            ))),
        }
    }

    /// `class C begin (field | method) [";"] ... end`.
    pub(super) fn class_def(&mut self) -> PResult<ClassDef> {
        let start = self.bump();
        let name = self.ident("a name after 'class'")?;
        let begin = self.expect(
            Tok::Begin,
            &format!("'begin' to start the body of class `{}`", name.name),
        )?;
        let mut fields = Vec::new();
        let mut methods = Vec::new();
        loop {
            match self.peek() {
                Tok::End => break,
                Tok::Method => methods.push(self.definition_of("method", true)?.into_proc()),
                Tok::Ident(_) => {
                    let (field, t) = self.name_and_type("a field name", "")?;
                    fields.push(FieldDef {
                        ty: integer_only(&t, &format!("field `{}`", field.name))?,
                        name: field,
                        class: t.class,
                    });
                }
                _ => {
                    return Err(self
                        .expected(&format!(
                            "a field, 'method' or 'end' to close the 'begin' at {}",
                            self.line_col(begin)
                        ))
                        .with_help("a class holds fields, `name: type`, and methods"))
                }
            }
            if *self.peek() == Tok::Semi {
                self.bump();
            }
        }
        let end = self.bump();
        Ok(ClassDef {
            name,
            fields,
            methods,
            span: start.to(end),
        })
    }

    /// `name: T`, at the name: `what` says what the name is when there is
    /// none, and the error for a missing `:` shows `keyword` before the name.
    fn name_and_type(&mut self, what: &str, keyword: &str) -> PResult<(Ident, TypeRef)> {
        let name = self.ident(what)?;
        let after = format!("':' and a type after `{keyword}{}`", name.name);
        self.expect(Tok::Colon, &after)?;
        Ok((name, self.type_ref()?))
    }

    /// `global g: T [= literal | = null]`.
    pub(super) fn global_def(&mut self) -> PResult<GlobalDef> {
        let start = self.bump();
        let (name, t) = self.name_and_type("a name after 'global'", "global ")?;
        let ty = integer_only(&t, &format!("global `{}`", name.name))?;
        let mut init = None;
        if *self.peek() == Tok::Assign {
            self.bump();
            init = Some(match self.peek().clone() {
                Tok::Null => Expr::Null(self.bump()),
                Tok::Num(value) => Expr::Num {
                    value,
                    span: self.bump(),
                },
                Tok::Minus => {
                    let minus = self.bump();
                    match self.peek().clone() {
                        Tok::Num(value) => Expr::Num {
                            value: value.neg(),
                            span: minus.to(self.bump()),
                        },
                        _ => return Err(self.global_value()),
                    }
                }
                _ => return Err(self.global_value()),
            });
        }
        if *self.peek() == Tok::Semi {
            self.bump();
        }
        Ok(GlobalDef {
            ty,
            name,
            class: t.class,
            init,
            span: self.since(start),
        })
    }

    fn global_value(&self) -> Diagnostic {
        self.expected("an integer literal or `null`").with_help(
            "a global starts with a constant; assign it in the main program for anything else, \
             or give no value to make it an input",
        )
    }

    /// Is the current token the start of `x.f...m(` (a method call)?
    pub(super) fn at_method_call(&self) -> bool {
        if !matches!(self.peek(), Tok::Ident(_) | Tok::This) {
            return false;
        }
        let mut n = 1;
        let mut fields = 0;
        while *self.peek_at(n) == Tok::Dot && matches!(self.peek_at(n + 1), Tok::Ident(_)) {
            n += 2;
            fields += 1;
        }
        fields > 0 && *self.peek_at(n) == Tok::LParen
    }

    /// A name or `this`, then `.f` as many times as written: the start of
    /// a field access, store or method call.
    fn path(&mut self) -> PResult<(Expr, usize)> {
        let mut obj = match self.peek() {
            Tok::This => Expr::Var(Ident {
                name: THIS.into(),
                span: self.bump(),
            }),
            _ => Expr::Var(self.ident("a name")?),
        };
        let mut h = 1;
        // Stop before the last `.f` when a `(` follows it (a method) or
        // when `=` does (a store): the callers take it from there.
        while *self.peek() == Tok::Dot
            && !matches!(self.peek_at(2), Tok::LParen | Tok::Assign)
            && matches!(self.peek_at(1), Tok::Ident(_))
        {
            (obj, h) = self.field_of(obj, h, "a field name")?;
        }
        Ok((obj, h))
    }

    /// `obj.f`, at the `.`, with its height (`obj`'s is `h`); `what` names
    /// the field in the error if there is none.
    fn field_of(&mut self, obj: Expr, h: usize, what: &str) -> PResult<(Expr, usize)> {
        self.bump();
        let field = self.ident(what)?;
        let h = self.expr_height(h, field.span)?;
        let span = obj.span().to(field.span);
        let obj = Expr::Field {
            obj: Box::new(obj),
            field,
            span,
        };
        Ok((obj, h))
    }

    /// A field access chain in an expression, `x.f.g` or `this.f`.
    pub(super) fn field_expr(&mut self) -> PResult<(Expr, usize)> {
        let (mut obj, mut h) = self.path()?;
        // `path` leaves the last field when `=` or `(` follows.
        while *self.peek() == Tok::Dot {
            (obj, h) = self.field_of(obj, h, "a field name after '.'")?;
        }
        if *self.peek() == Tok::LParen {
            return Err(call_in_expression(obj.span()));
        }
        Ok((obj, h))
    }

    /// `recv.f = e` or `[target =] recv.m(args)`, at the receiver.
    pub(super) fn field_stmt(&mut self, target: Option<Ident>) -> PResult<(Stmt, usize)> {
        self.enter(EXPR_TOO_DEEP)?;
        let r = self.path();
        self.leave();
        let (obj, oh) = r?;
        let start = target.as_ref().map_or(obj.span(), |t| t.span);
        if *self.peek() != Tok::Dot {
            let d = self.expected("'.' and a field or method");
            return Err(match &obj {
                Expr::Var(v) if &*v.name == THIS => d.with_help(
                    "`this` is the object a method runs on: write `this.f = e` or `this.m()`",
                ),
                _ => d,
            });
        }
        self.bump();
        let member = self.ident("a field or method name after '.'")?;
        match (self.peek(), &target) {
            (Tok::LParen, _) => {
                let (args, ah) = self.args()?;
                let h = self.stmt_height(oh.max(ah), start)?;
                let span = self.since(start);
                if super::expr::is_bin_op(self.peek()) {
                    return Err(call_in_expression(span));
                }
                Ok((
                    Stmt::MethodCall {
                        target,
                        receiver: obj,
                        method: member,
                        args,
                        span,
                    },
                    h,
                ))
            }
            (Tok::Assign, None) => {
                self.bump();
                if matches!(self.peek(), Tok::New | Tok::Spawn | Tok::Star) || self.at_method_call()
                {
                    return Err(Diagnostic::new(
                        self.span(),
                        "a field can only be assigned the value of an expression",
                    )
                    .with_help(format!(
                        "assign it to a variable first, then store that: `t = ...; {obj}.{} = t`",
                        member.name
                    )));
                }
                let (value, vh) = self.expr()?;
                self.stmt_since(start, oh.max(vh), |span| Stmt::FieldAssign {
                    obj,
                    field: member,
                    value,
                    span,
                })
            }
            _ => Err(self.expected(&format!("'=' or '(' after `{obj}.{}`", member.name))),
        }
    }

    /// The items of a list `(a, b, c)` after its `(` (at `open`), each read
    /// by `item`, and the closing `)`.
    pub(super) fn comma_list(
        &mut self,
        open: Span,
        mut item: impl FnMut(&mut Self) -> PResult<()>,
    ) -> PResult<()> {
        if *self.peek() != Tok::RParen {
            loop {
                item(self)?;
                match self.peek() {
                    Tok::Comma => {
                        self.bump();
                    }
                    Tok::RParen => break,
                    _ => {
                        return Err(self.expected(&format!(
                            "',' or ')' to close the '(' at {}",
                            self.line_col(open)
                        )))
                    }
                }
            }
        }
        self.bump();
        Ok(())
    }

    /// `(e1, ..., ek)`, at the `(`.
    pub(super) fn args(&mut self) -> PResult<(Vec<Expr>, usize)> {
        let open = self.expect(Tok::LParen, "'('")?;
        let mut args = Vec::new();
        let mut height = 0;
        self.comma_list(open, |p| {
            let (arg, h) = p.expr()?;
            height = height.max(h);
            args.push(arg);
            Ok(())
        })?;
        Ok((args, height))
    }

    /// `x = new C`, at `new`.
    pub(super) fn new_stmt(&mut self, target: Ident) -> PResult<(Stmt, usize)> {
        self.bump();
        let class = self.ident("a class name after 'new'")?;
        let span = target.span.to(class.span);
        Ok((
            Stmt::New {
                target,
                class,
                span,
            },
            1,
        ))
    }

    /// `[t =] spawn p(args)` or `[t =] spawn recv.m(args)`, at `spawn`.
    pub(super) fn spawn_stmt(&mut self, target: Option<Ident>) -> PResult<(Stmt, usize)> {
        let kw = self.bump();
        let start = target.as_ref().map_or(kw, |t| t.span);
        let (receiver, callee, rh) = if self.at_method_call() {
            let (obj, oh) = self.path()?;
            self.expect(Tok::Dot, "'.'")?;
            (Some(obj), self.ident("a method name")?, oh)
        } else {
            let callee = self.ident("a procedure to run after 'spawn'")?;
            if *self.peek() != Tok::LParen {
                return Err(self
                    .expected(&format!("'(' after `spawn {}`", callee.name))
                    .with_help("a thread runs a call: `spawn p(args)` or `spawn x.m(args)`"));
            }
            (None, callee, 0)
        };
        let (args, ah) = self.args()?;
        self.stmt_since(start, rh.max(ah), |span| Stmt::Spawn {
            target,
            receiver,
            callee,
            args,
            span,
        })
    }

    /// `join e`, `lock e` or `unlock e`.
    pub(super) fn thread_stmt(&mut self) -> PResult<(Stmt, usize)> {
        let tok = self.peek().clone();
        let kw = self.bump();
        let (e, eh) = self.expr()?;
        let h = self.stmt_height(eh, kw)?;
        let span = self.since(kw);
        let s = match tok {
            Tok::Join => Stmt::Join { thread: e, span },
            _ => Stmt::Lock {
                obj: e,
                acquire: tok == Tok::Lock,
                span,
            },
        };
        Ok((s, h))
    }

    /// `atomic begin s end`.
    pub(super) fn atomic_stmt(&mut self) -> PResult<(Stmt, usize)> {
        let kw = self.bump();
        let begin = self.expect(Tok::Begin, "'begin' after 'atomic'")?;
        let (body, bh) = self.stmt_seq()?;
        let end = self.expect_close(Tok::End, "begin", begin)?;
        let h = self.stmt_height(bh, kw)?;
        Ok((
            Stmt::Atomic {
                body: Box::new(body),
                span: kw.to(end),
            },
            h,
        ))
    }

    /// The rest of `var x: C ...` after the class name.
    pub(super) fn ref_decl_rest(
        &mut self,
        start: Span,
        target: Ident,
        class: Ident,
        long: bool,
    ) -> PResult<(Stmt, usize)> {
        let name = target.name.clone();
        match self.peek() {
            Tok::LBracket => {
                return Err(
                    Diagnostic::new(self.span(), "arrays hold integers, not references")
                        .with_help("use a class with a `next` field to keep a list of objects"),
                )
            }
            Tok::Assign => {}
            _ if long => {
                let span = start.to(class.span);
                return Ok((
                    Stmt::RefDecl {
                        target,
                        class,
                        init: None,
                        span,
                    },
                    1,
                ));
            }
            _ => {
                return Err(self
                    .expected(&format!("'=' after `{name}: {}`", class.name))
                    .with_help(format!(
                        "to declare `{name}` without a value, write `var {name}: {}`",
                        class.name
                    )))
            }
        }
        self.bump();
        if matches!(self.peek(), Tok::New | Tok::Star | Tok::Spawn) || self.at_method_call() {
            let what = match self.peek() {
                Tok::Star => "a reference cannot be read from the input".to_string(),
                _ => "a declaration's value must be an expression".to_string(),
            };
            return Err(Diagnostic::new(self.span(), what).with_help(format!(
                "declare it first, then assign it: `var {name}: {c}; {name} = ...`; a reference \
                 declared without a value and read first is an input",
                c = class.name
            )));
        }
        let (value, vh) = self.expr()?;
        self.stmt_since(start, vh, |span| Stmt::RefDecl {
            target,
            class,
            init: Some(value),
            span,
        })
    }
}
