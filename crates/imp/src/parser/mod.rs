//! Tokens to syntax tree, by recursive descent.
//!
//! Binary operators are parsed by precedence climbing (one function per
//! grammar, a loop per precedence level), so a flat chain such as
//! `1 + 1 + ... + 1` costs no recursion; only genuinely nested input
//! (parentheses, casts, `not`, unary minus, `if` inside `while`, ...)
//! recurses. Statements and definitions are parsed here, types,
//! arithmetic and conditions in [`expr`].
//!
//! Nesting is bounded in two ways, both reported as a clean error rather
//! than a stack overflow: a counter of open nesting constructs
//! (parentheses, brackets, prefix operators, statements), each of which
//! costs a bounded number of stack frames, caps how deeply the parser
//! recurses; and every node's *height* is computed as it is built and
//! capped, because a long left-associative chain builds a deep tree
//! without deep recursion, and everything that later walks (or merely
//! drops) that tree recurses on its height. Unoptimised builds use several
//! KiB of stack per level, so the public entry points run on a thread with
//! a large stack ([`crate::with_deep_stack`]).
//!
//! A `(` where a condition is expected may open a parenthesised condition,
//! `(x < 3 and y > 2) or z == 1`, or a parenthesised arithmetic expression,
//! `(x + 1) * 2 < y`. Rather than backtracking (which is exponential in the
//! nesting of such parentheses), conditions are parsed in a "mixed"
//! grammar whose results are either a condition or an arithmetic
//! expression; a parenthesised expression then simply continues as the
//! left operand of arithmetic and of a comparison.
//!
//! Type names and `var` are not reserved words, so that programs written
//! before they existed keep their meaning: `var` starts a declaration only
//! when a name and `:` follow, and a type name is read as one only after
//! `:` or, followed by `(`, as a cast.

mod expr;
mod objects;

pub(crate) use expr::types_help;

use crate::ast::{Cond, Expr, Ident, Init, MacroDef, Param, Program, Stmt, Ty};
use crate::lexer::{lex, Tok, Token};
use crate::{Diagnostic, FileId, LineCol, SourceMap, Span};
use objects::TypeRef;
use std::collections::HashSet;
use std::sync::Arc;

/// The deepest nesting the parser accepts, and the greatest height of any
/// tree this crate hands out. Statements, sequences, conditions and
/// expressions all count, and a leaf has height 1: `if x < 1 then skip
/// else skip fi` has height 3 (the `if`, the comparison, then `x`, `1` or
/// `skip`). Deeper input is rejected with "expression nested too deeply
/// (more than 1000 levels)" (or "statement nested ...") instead of
/// overflowing the stack, so that consumers can walk syntax trees
/// recursively. [`crate::analyse()`] keeps the same bound after macro
/// expansion.
pub const MAX_NESTING: usize = 1000;

type PResult<T> = Result<T, Diagnostic>;

/// Parses a whole source file: definitions, then the main statement.
///
/// ```
/// let p = wiser_imp::parse_program("macro inc(v) begin v = v + 1 end x = 0; inc(x)").unwrap();
/// assert_eq!(p.macros.len(), 1);
/// ```
pub fn parse_program(src: &str) -> Result<Program, Diagnostic> {
    parse_program_in(FileId(0), src)
}

/// Parses a whole source file whose spans are in text `file`.
pub fn parse_program_in(file: FileId, src: &str) -> Result<Program, Diagnostic> {
    crate::with_deep_stack(|| Parser::new(file, src)?.program())
}

/// Parses a string that is exactly one condition, such as the `--assume`
/// option of the command line: `x > 0 and y != x`.
pub fn parse_cond(src: &str) -> Result<Cond, Diagnostic> {
    parse_cond_in(FileId(0), src)
}

/// Parses a condition whose spans are in text `file` (the command line's
/// `--assume` text is a text of its own, so its errors and bugs point
/// into it).
pub fn parse_cond_in(file: FileId, src: &str) -> Result<Cond, Diagnostic> {
    crate::with_deep_stack(|| {
        let mut p = Parser::new(file, src)?;
        let (cond, _) = p.cond()?;
        if *p.peek() != Tok::Eof {
            return Err(p.expected("end of input after the condition"));
        }
        Ok(cond)
    })
}

/// A macro or procedure definition as parsed.
struct Definition {
    name: Ident,
    params: Vec<Param>,
    ret: TypeRef,
    body: Stmt,
    span: Span,
}

/// What a piece of a condition turned out to be: see the module comment.
/// Both carry the height of their tree.
enum Mixed {
    Cond(Cond, usize),
    Expr(Expr, usize),
}

struct Parser<'s> {
    src: &'s str,
    toks: Vec<Token>,
    pos: usize,
    /// Number of nesting constructs open around the current token,
    /// compared against [`MAX_NESTING`] to bound the recursion.
    depth: usize,
    /// The names after `proc` and `macro` anywhere in the text: the
    /// procedures and macros the program defines (see
    /// [`Parser::at_call`]).
    defined: HashSet<Arc<str>>,
}

const EXPR_TOO_DEEP: &str = "expression";
const STMT_TOO_DEEP: &str = "statement";

impl<'s> Parser<'s> {
    fn new(file: FileId, src: &'s str) -> PResult<Parser<'s>> {
        let toks = lex(file, src)?;
        let defined = toks
            .windows(2)
            .filter_map(|w| match (&w[0].tok, &w[1].tok) {
                (Tok::Proc | Tok::Macro, Tok::Ident(name)) => Some(name.clone()),
                _ => None,
            })
            .collect();
        Ok(Parser {
            src,
            toks,
            pos: 0,
            depth: 0,
            defined,
        })
    }

    // ----- token helpers -------------------------------------------------

    fn peek(&self) -> &Tok {
        &self.toks[self.pos].tok
    }

    fn peek_at(&self, n: usize) -> &Tok {
        // The last token is always Eof, so clamping keeps lookahead total.
        &self.toks[(self.pos + n).min(self.toks.len() - 1)].tok
    }

    fn span(&self) -> Span {
        self.toks[self.pos].span
    }

    /// From `start` to the end of the last token consumed: a statement's
    /// span covers its closing parentheses too, which the span of its
    /// last expression (the inner one) does not.
    fn since(&self, start: Span) -> Span {
        start.to(self.toks[self.pos.saturating_sub(1)].span)
    }

    /// Consumes the current token (never moves past Eof).
    fn bump(&mut self) -> Span {
        let span = self.span();
        if self.pos + 1 < self.toks.len() {
            self.pos += 1;
        }
        span
    }

    fn line_col(&self, span: Span) -> LineCol {
        SourceMap::new("", self.src).line_col(span.lo)
    }

    /// "expected WHAT, found TOKEN" at the current token.
    fn expected(&self, what: &str) -> Diagnostic {
        Diagnostic::new(
            self.span(),
            format!("expected {what}, found {}", self.peek()),
        )
    }

    fn expect(&mut self, tok: Tok, what: &str) -> PResult<Span> {
        if *self.peek() == tok {
            Ok(self.bump())
        } else {
            let mut d = self.expected(what);
            if tok == Tok::Assign && *self.peek() == Tok::EqEq {
                d = d.with_help("assignment is written `=`");
            }
            Err(d)
        }
    }

    /// Expects the token that closes a construct opened at `open`, naming
    /// the opener and its position so mismatched nesting is easy to find.
    fn expect_close(&mut self, close: Tok, opener: &str, open: Span) -> PResult<Span> {
        if *self.peek() == close {
            return Ok(self.bump());
        }
        let close_text = close.text().unwrap_or("?");
        let at = self.line_col(open);
        let mut d = self.expected(&format!("'{close_text}' to close the '{opener}' at {at}"));
        if self.starts_statement() {
            d = d.with_help("separate statements with `;`");
        }
        Err(d)
    }

    fn ident(&mut self, what: &str) -> PResult<Ident> {
        match self.peek() {
            Tok::Ident(name) => {
                let name = name.clone();
                let span = self.bump();
                Ok(Ident { name, span })
            }
            _ => Err(self.expected(what)),
        }
    }

    /// Tokens that may follow the last statement of a sequence.
    fn at_closer(&self) -> bool {
        matches!(
            self.peek(),
            Tok::Fi | Tok::Od | Tok::Else | Tok::End | Tok::Eof
        )
    }

    fn starts_statement(&self) -> bool {
        matches!(
            self.peek(),
            Tok::Ident(_)
                | Tok::Skip
                | Tok::Fail
                | Tok::If
                | Tok::While
                | Tok::Assert
                | Tok::Assume
                | Tok::Return
                | Tok::This
                | Tok::Spawn
                | Tok::Join
                | Tok::Lock
                | Tok::Unlock
                | Tok::Atomic
        )
    }

    // ----- nesting limits ----------------------------------------------

    fn enter(&mut self, what: &str) -> PResult<()> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return Err(too_deep(self.span(), what));
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    /// The height of a new expression or condition node whose tallest
    /// child has height `child`.
    fn expr_height(&self, child: usize, at: Span) -> PResult<usize> {
        if child + 1 > MAX_NESTING {
            return Err(too_deep(at, EXPR_TOO_DEEP));
        }
        Ok(child + 1)
    }

    /// The statement `make` builds from its span (from `start` to the last
    /// token read), with its height (`child` is its parts' greatest).
    fn stmt_since(
        &self,
        start: Span,
        child: usize,
        make: impl FnOnce(Span) -> Stmt,
    ) -> PResult<(Stmt, usize)> {
        let h = self.stmt_height(child, start)?;
        Ok((make(self.since(start)), h))
    }

    fn stmt_height(&self, child: usize, at: Span) -> PResult<usize> {
        if child + 1 > MAX_NESTING {
            return Err(too_deep(at, STMT_TOO_DEEP));
        }
        Ok(child + 1)
    }

    // ----- program and definitions --------------------------------------

    fn program(&mut self) -> PResult<Program> {
        let mut macros = Vec::new();
        let mut procs = Vec::new();
        let mut classes = Vec::new();
        let mut globals = Vec::new();
        loop {
            match self.peek() {
                Tok::Class => classes.push(self.class_def()?),
                Tok::Global => globals.push(self.global_def()?),
                Tok::Macro => {
                    let d = self.definition(false)?;
                    macros.push(MacroDef {
                        name: d.name,
                        params: d.params.into_iter().map(|p| p.name).collect(),
                        body: d.body,
                        span: d.span,
                    });
                }
                Tok::Proc => {
                    let d = self.definition(true)?;
                    procs.push(d.into_proc());
                }
                _ => break,
            }
        }
        let (main, _) = self.stmt_seq()?;
        if *self.peek() != Tok::Eof {
            let mut d = self.expected("';' or end of input");
            if self.starts_statement() {
                d = d.with_help("separate statements with `;`");
            } else if matches!(
                self.peek(),
                Tok::Macro | Tok::Proc | Tok::Class | Tok::Global
            ) {
                d = d.with_help("definitions must come before the main program");
            } else if let Some(opener) = match self.peek() {
                Tok::Fi | Tok::Else => Some("if"),
                Tok::Od => Some("while"),
                Tok::End => Some("begin"),
                _ => None,
            } {
                d = d.with_help(format!("there is no open '{opener}' here"));
            }
            return Err(d);
        }
        Ok(Program {
            macros,
            procs,
            classes,
            globals,
            main,
        })
    }

    /// `macro|proc name[(p1, ..., pk)] begin s end`. The parentheses are
    /// optional, as in PyWiSE (`macro reset begin x = 0 end`). A procedure
    /// may give its parameters and its result types, `proc f(a: u8, b) :
    /// u16 begin ... end`; a macro may not.
    fn definition(&mut self, is_proc: bool) -> PResult<Definition> {
        let kind = if is_proc { "proc" } else { "macro" };
        self.definition_of(kind, is_proc)
    }

    /// The rest of [`Parser::definition`]; `kind` is the keyword
    /// (`method` for a method, which has types as a procedure does).
    fn definition_of(&mut self, kind: &str, is_proc: bool) -> PResult<Definition> {
        let start = self.bump();
        let name = self.ident(&format!("a name after '{kind}'"))?;
        let mut params = Vec::new();
        if *self.peek() == Tok::LParen {
            let open = self.bump();
            self.comma_list(open, |p| {
                let name = p.ident("a parameter name")?;
                let t = p.annotation(is_proc, "parameters")?;
                params.push(Param {
                    name,
                    ty: t.ty,
                    class: t.class,
                });
                Ok(())
            })?;
        }
        let ret = self.annotation(is_proc, "results")?;
        let begin = self.expect(
            Tok::Begin,
            &format!("'begin' to start the body of {kind} `{}`", name.name),
        )?;
        let (body, _) = self.stmt_seq()?;
        let end = self.expect_close(Tok::End, "begin", begin)?;
        Ok(Definition {
            name,
            params,
            ret,
            body,
            span: start.to(end),
        })
    }

    /// An optional `: T` in a signature (`int` when absent); only
    /// procedures have types, since a macro substitutes its arguments as
    /// written.
    fn annotation(&mut self, is_proc: bool, what: &str) -> PResult<TypeRef> {
        if *self.peek() != Tok::Colon {
            return Ok(TypeRef::int(Ty::INT));
        }
        if !is_proc {
            return Err(
                Diagnostic::new(self.span(), format!("macro {what} have no type")).with_help(
                    "a macro substitutes its arguments as written; declare the variables \
                         they name, or use a `proc`",
                ),
            );
        }
        self.bump();
        self.type_ref()
    }

    // ----- statements -----------------------------------------------------

    /// `s1; s2; ...; sn` with an optional trailing `;` before a closing
    /// keyword or the end of input.
    fn stmt_seq(&mut self) -> PResult<(Stmt, usize)> {
        let mut items = Vec::new();
        let mut height = 0;
        loop {
            let (s, h) = self.stmt()?;
            height = height.max(h);
            items.push(s);
            if *self.peek() != Tok::Semi {
                break;
            }
            self.bump();
            if self.at_closer() {
                break;
            }
        }
        if items.len() == 1 {
            let s = items.pop().unwrap_or(Stmt::Skip(Span::default()));
            return Ok((s, height));
        }
        let h = self.stmt_height(height, items[0].span())?;
        Ok((Stmt::Seq(items), h))
    }

    fn stmt(&mut self) -> PResult<(Stmt, usize)> {
        self.enter(STMT_TOO_DEEP)?;
        let r = self.stmt_inner();
        self.leave();
        r
    }

    fn stmt_inner(&mut self) -> PResult<(Stmt, usize)> {
        match self.peek() {
            Tok::Skip => Ok((Stmt::Skip(self.bump()), 1)),
            Tok::Fail => Ok((Stmt::Fail(self.bump()), 1)),
            Tok::If => self.if_stmt(),
            Tok::While => self.while_stmt(),
            Tok::Assert | Tok::Assume => {
                let is_assert = *self.peek() == Tok::Assert;
                let kw = self.bump();
                let (cond, ch) = self.cond()?;
                let h = self.stmt_height(ch, kw)?;
                let span = self.since(kw);
                let s = if is_assert {
                    Stmt::Assert { cond, span }
                } else {
                    Stmt::Assume { cond, span }
                };
                Ok((s, h))
            }
            Tok::Return => {
                let kw = self.bump();
                let (value, vh) = self.expr()?;
                let h = self.stmt_height(vh, kw)?;
                let span = self.since(kw);
                Ok((Stmt::Return { value, span }, h))
            }
            Tok::Ident(name) if &**name == "var" && matches!(self.peek_at(1), Tok::Ident(_)) => {
                self.var_decl()
            }
            Tok::Ident(_) if *self.peek_at(1) == Tok::Dot => self.field_stmt(None),
            Tok::This => self.field_stmt(None),
            Tok::Ident(_) => self.ident_stmt(),
            Tok::Spawn => self.spawn_stmt(None),
            Tok::Join | Tok::Lock | Tok::Unlock => self.thread_stmt(),
            Tok::Atomic => self.atomic_stmt(),
            _ => Err(self.no_statement()),
        }
    }

    fn no_statement(&self) -> Diagnostic {
        let d = self.expected("a statement");
        match self.peek() {
            Tok::Semi => d.with_help("remove the extra `;`"),
            Tok::Eof if self.pos == 0 => {
                d.with_help("a program needs at least one statement, e.g. `skip`")
            }
            Tok::Fi | Tok::Od | Tok::Else | Tok::End => {
                d.with_help("write `skip` for a branch or body that does nothing")
            }
            Tok::Macro | Tok::Proc | Tok::Class | Tok::Global => {
                d.with_help("definitions must come before the main program")
            }
            _ => d,
        }
    }

    fn if_stmt(&mut self) -> PResult<(Stmt, usize)> {
        let kw = self.bump();
        let (cond, ch) = self.cond()?;
        self.expect(Tok::Then, "'then' after the condition")?;
        let (then_branch, th) = self.stmt_seq()?;
        if *self.peek() != Tok::Else {
            let at = self.line_col(kw);
            let d = self.expected(&format!("'else' in the 'if' at {at}"));
            return Err(if *self.peek() == Tok::Fi {
                d.with_help("an `if` needs an `else` branch: write `else skip fi`")
            } else if self.starts_statement() {
                d.with_help("separate statements with `;`")
            } else {
                d
            });
        }
        self.bump();
        let (else_branch, eh) = self.stmt_seq()?;
        let fi = self.expect_close(Tok::Fi, "if", kw)?;
        let h = self.stmt_height(ch.max(th).max(eh), kw)?;
        Ok((
            Stmt::If {
                cond,
                then_branch: Box::new(then_branch),
                else_branch: Box::new(else_branch),
                span: kw.to(fi),
            },
            h,
        ))
    }

    fn while_stmt(&mut self) -> PResult<(Stmt, usize)> {
        let kw = self.bump();
        let (cond, ch) = self.cond()?;
        self.expect(Tok::Do, "'do' after the condition")?;
        let (body, bh) = self.stmt_seq()?;
        let od = self.expect_close(Tok::Od, "while", kw)?;
        let h = self.stmt_height(ch.max(bh), kw)?;
        Ok((
            Stmt::While {
                cond,
                body: Box::new(body),
                span: kw.to(od),
            },
            h,
        ))
    }

    /// Statements that start with a name: assignments, havoc, array
    /// stores and calls.
    fn ident_stmt(&mut self) -> PResult<(Stmt, usize)> {
        let name = self.ident("a name")?;
        match self.peek() {
            Tok::Assign => {
                self.bump();
                if *self.peek() == Tok::Star {
                    let star = self.bump();
                    let span = name.span.to(star);
                    return Ok((Stmt::Havoc { target: name, span }, 1));
                }
                if *self.peek() == Tok::New {
                    return self.new_stmt(name);
                }
                if *self.peek() == Tok::Spawn {
                    return self.spawn_stmt(Some(name));
                }
                if self.at_method_call() {
                    return self.field_stmt(Some(name));
                }
                if self.at_call() {
                    let callee = self.ident("a name")?;
                    let callee_span = callee.span;
                    let call = self.call(Some(name), callee)?;
                    if expr::is_bin_op(self.peek()) {
                        let close = self.toks[self.pos - 1].span;
                        return Err(call_in_expression(callee_span.to(close)));
                    }
                    return Ok(call);
                }
                let (value, vh) = self.expr()?;
                let h = self.stmt_height(vh, name.span)?;
                let span = self.since(name.span);
                Ok((
                    Stmt::Assign {
                        target: name,
                        value,
                        span,
                    },
                    h,
                ))
            }
            Tok::LBracket => {
                let open = self.bump();
                let (index, ih) = self.expr()?;
                self.expect_close(Tok::RBracket, "[", open)?;
                self.expect(Tok::Assign, "'=' after the array element")?;
                let (value, vh) = self.expr()?;
                let h = self.stmt_height(ih.max(vh), name.span)?;
                let span = self.since(name.span);
                Ok((
                    Stmt::ArrayAssign {
                        array: name,
                        index,
                        value,
                        span,
                    },
                    h,
                ))
            }
            Tok::LParen => self.call(None, name),
            Tok::Colon => {
                self.bump();
                self.decl_rest(name.span, name, false)
            }
            // A bare name is a call without arguments, as PyWiSE writes
            // macro calls (`m` for `m()`).
            Tok::Semi | Tok::Fi | Tok::Od | Tok::Else | Tok::End | Tok::Eof => {
                let span = name.span;
                Ok((
                    Stmt::Call {
                        target: None,
                        callee: name,
                        args: Vec::new(),
                        span,
                    },
                    1,
                ))
            }
            Tok::EqEq => Err(self
                .expected(&format!("'=' after `{}`", name.name))
                .with_help("assignment is written `=`")),
            _ => {
                if let Some(kw) =
                    crate::suggest::closest(&name.name, crate::suggest::STATEMENT_KEYWORDS)
                {
                    return Err(Diagnostic::new(
                        name.span,
                        format!("expected a statement, found `{}`", name.name),
                    )
                    .with_help(format!("did you mean `{kw}`?")));
                }
                let d = self.expected(&format!("'=', '[' or '(' after `{}`", name.name));
                Err(if self.starts_statement() {
                    d.with_help("separate statements with `;`")
                } else {
                    d
                })
            }
        }
    }

    /// `var x: T ...`, at `var` followed by a name.
    fn var_decl(&mut self) -> PResult<(Stmt, usize)> {
        let kw = self.bump();
        let target = self.ident("a name")?;
        if *self.peek() != Tok::Colon {
            return Err(self
                .expected(&format!("':' and a type after `var {}`", target.name))
                .with_help(format!(
                    "a declaration gives the variable a type, e.g. `var {}: int = 0`",
                    target.name
                )));
        }
        self.bump();
        self.decl_rest(kw, target, true)
    }

    /// The rest of a declaration after `:`: a type, then `[]` (arrays),
    /// `= e`, `= *` or nothing. The short form `x: T ...` (`long` false)
    /// must have an initialiser: `x: T` alone is too easily a typo.
    fn decl_rest(&mut self, start: Span, target: Ident, long: bool) -> PResult<(Stmt, usize)> {
        let t = self.type_ref()?;
        if let Some(class) = t.class {
            return self.ref_decl_rest(start, target, class, long);
        }
        let (ty, ty_span) = (t.ty, t.span);
        let name = target.name.clone();
        if *self.peek() == Tok::LBracket && long {
            self.bump();
            let close = self.expect(Tok::RBracket, "']' after '[' in an array declaration")?;
            if *self.peek() == Tok::Assign {
                return Err(
                    Diagnostic::new(self.span(), "an array declaration has no value").with_help(
                        "arrays start with arbitrary contents; assign elements one by one",
                    ),
                );
            }
            let stmt = Stmt::ArrayDecl {
                array: target,
                elem: ty,
                span: start.to(close),
            };
            return Ok((stmt, 1));
        }
        if *self.peek() != Tok::Assign {
            if long {
                let stmt = Stmt::Decl {
                    target,
                    ty,
                    init: None,
                    span: start.to(ty_span),
                };
                return Ok((stmt, 1));
            }
            let d = self.expected(&format!("'=' after `{name}: {ty}`"));
            return Err(if *self.peek() == Tok::LBracket {
                d.with_help(format!(
                    "an array is declared with `var`: `var {name}: {ty}[]`"
                ))
            } else {
                d.with_help(format!(
                    "to declare `{name}` without a value, write `var {name}: {ty}`"
                ))
            });
        }
        self.bump();
        if *self.peek() == Tok::Star {
            let star = self.bump();
            let stmt = Stmt::Decl {
                target,
                ty,
                init: Some(Init::Havoc),
                span: start.to(star),
            };
            return Ok((stmt, 1));
        }
        if let (true, Tok::Ident(callee)) = (self.at_call(), self.peek()) {
            let help = format!(
                "declare the variable first, then call: `var {name}: {ty}; {name} = {callee}(...)`"
            );
            return Err(
                Diagnostic::new(self.span(), "a declaration cannot call a procedure")
                    .with_help(help),
            );
        }
        let (value, vh) = self.expr()?;
        self.stmt_since(start, vh, |span| Stmt::Decl {
            target,
            ty,
            init: Some(Init::Value(value)),
            span,
        })
    }

    /// `callee(e1, ..., ek)` after the callee's name (and target).
    fn call(&mut self, target: Option<Ident>, callee: Ident) -> PResult<(Stmt, usize)> {
        let (args, height) = self.args()?;
        let close = self.toks[self.pos - 1].span;
        let start = target.as_ref().map_or(callee.span, |t| t.span);
        let h = self.stmt_height(height, start)?;
        Ok((
            Stmt::Call {
                target,
                callee,
                args,
                span: start.to(close),
            },
            h,
        ))
    }
}

fn call_in_expression(at: Span) -> Diagnostic {
    Diagnostic::new(at, "a procedure call cannot be part of an expression")
        .with_help("call it in a statement of its own, `t = f(...)`, then use `t`")
}

/// "`what` nested too deeply", for an expression (or condition) or a
/// statement.
fn too_deep(at: Span, what: &str) -> Diagnostic {
    Diagnostic::new(
        at,
        format!("{what} nested too deeply (more than {MAX_NESTING} levels)"),
    )
    .with_help("split it into smaller pieces, using intermediate variables or procedures")
}
