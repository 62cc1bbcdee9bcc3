//! What the IMP front end's golden tests share (each has `mod support;`).

use expect_test::Expect;
use std::fmt::Write;
use wiser_imp::{parse_program, SourceMap};

/// Parses and checks `src`; renders the result or the diagnostic.
pub fn check(src: &str, expect: Expect) {
    let out = match parse_program(src).and_then(wiser_imp::analyse) {
        Err(d) => SourceMap::new("test.imp", src).render(&d),
        Ok(p) => {
            let mut out = String::new();
            let list = |v: &[std::sync::Arc<str>]| v.join(", ");
            for (proc, locals) in p.procs.iter().zip(&p.proc_locals) {
                let params: Vec<_> = proc.params.iter().map(|p| p.name.name.clone()).collect();
                writeln!(
                    out,
                    "proc {}({}) locals [{}]",
                    proc.name.name,
                    list(&params),
                    list(locals)
                )
                .unwrap();
                for line in format!("{:#}", proc.body).lines() {
                    writeln!(out, "  {line}").unwrap();
                }
            }
            writeln!(out, "{:#}", p.main).unwrap();
            writeln!(out, "arrays [{}]", list(&p.arrays)).unwrap();
            writeln!(out, "inputs [{}]", list(&p.main_inputs)).unwrap();
            writeln!(out, "vars [{}]", list(&p.main_vars)).unwrap();
            out
        }
    };
    expect.assert_eq(&out);
}
