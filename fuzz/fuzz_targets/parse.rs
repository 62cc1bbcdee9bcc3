//! Arbitrary bytes through the front end: `parse_program`, `parse_cond`,
//! then `check` and `lower` on what parses.
//!
//! Properties:
//! * nothing panics (or overflows the stack);
//! * every error is a `Diagnostic` whose span lies within the input and
//!   whose rendering by `SourceMap::render` does not panic;
//! * a parsed program (or condition) printed with `Display` parses back,
//!   and printing that again gives the same text (the printer is a fixed
//!   point after one round);
//! * lowering runs on a thread with a small stack, so recursion that
//!   would overflow an ordinary stack on input nested up to
//!   `MAX_NESTING` shows up even in optimised builds.
#![no_main]

use libfuzzer_sys::fuzz_target;
use wiser_imp::{Diagnostic, SourceMap};

/// The stack of the thread that lowers (smaller than any default).
const SMALL_STACK: usize = 128 << 10;

fn check_diag(src: &str, what: &str, d: &Diagnostic) {
    let len = src.len() as u32;
    assert!(
        d.span.lo <= d.span.hi && d.span.hi <= len,
        "{what}: diagnostic span {:?} outside the input (len {len}): {d:?}\ninput: {src:?}",
        d.span
    );
    let text = SourceMap::new("fuzz.imp", src).render(d);
    assert!(!text.is_empty());
}

fuzz_target!(|data: &[u8]| {
    let src = String::from_utf8_lossy(data);
    let src: &str = &src;

    match wiser_imp::parse_program(src) {
        Err(d) => check_diag(src, "parse_program", &d),
        Ok(program) => {
            let printed = program.to_string();
            let reparsed = match wiser_imp::parse_program(&printed) {
                Ok(p) => p,
                Err(d) => panic!(
                    "the print of a parsed program does not parse: {}\ninput: {src:?}\nprinted:\n{printed}",
                    SourceMap::new("printed.imp", printed.as_str()).render(&d)
                ),
            };
            let printed_again = reparsed.to_string();
            assert_eq!(
                printed, printed_again,
                "printing is not stable after a round trip\ninput: {src:?}"
            );
            match wiser_imp::analyse(program) {
                Err(d) => check_diag(src, "check", &d),
                Ok(checked) => {
                    // On a small stack: like the parser and `check`,
                    // lowering must not overflow its caller's stack,
                    // whatever its size, on input nested up to the limit.
                    std::thread::scope(|s| {
                        std::thread::Builder::new()
                            .stack_size(SMALL_STACK)
                            .spawn_scoped(s, || drop(wiser_imp::lower(&checked)))
                            .expect("a thread")
                            .join()
                            .expect("lowering does not panic")
                    });
                }
            }
        }
    }

    match wiser_imp::parse_cond(src) {
        Err(d) => check_diag(src, "parse_cond", &d),
        Ok(cond) => {
            let printed = cond.to_string();
            match wiser_imp::parse_cond(&printed) {
                Ok(c) => assert_eq!(
                    printed,
                    c.to_string(),
                    "printing a condition is not stable\ninput: {src:?}"
                ),
                Err(d) => panic!(
                    "the print of a parsed condition does not parse: {}\ninput: {src:?}\nprinted: {printed}",
                    SourceMap::new("printed.imp", printed.as_str()).render(&d)
                ),
            }
        }
    }
});
