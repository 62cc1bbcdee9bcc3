//! Deeply nested input is a clean error, never a stack overflow, and
//! nesting up to the limit is accepted. Every test runs on a thread with a
//! 2 MiB stack (the default for test threads) so the result does not
//! depend on RUST_MIN_STACK.

use wiser_imp::{analyse, lower, parse_cond, parse_program, Diagnostic, MAX_NESTING};

const BIG: usize = 100_000;

fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap()
}

/// Parses, checks and lowers `src` on a 2 MiB stack.
fn run(src: String) -> Result<(), Diagnostic> {
    on_small_stack(move || {
        let checked = parse_program(&src).and_then(analyse)?;
        lower(&checked).map(drop)
    })
}

fn assert_too_deep(src: String) {
    let err = run(src).unwrap_err();
    assert!(
        err.message
            .contains("nested too deeply (more than 1000 levels)"),
        "{err:?}"
    );
}

#[test]
fn nested_parentheses_in_an_expression() {
    let src = format!("x = {}1{}", "(".repeat(BIG), ")".repeat(BIG));
    assert_too_deep(src);
}

#[test]
fn nested_parentheses_in_a_condition() {
    let src = format!(
        "if {}x < 1{} then skip else skip fi",
        "(".repeat(BIG),
        ")".repeat(BIG)
    );
    assert_too_deep(src);
    let src = format!("assert {}x{} < 1", "(".repeat(BIG), ")".repeat(BIG));
    assert_too_deep(src);
}

#[test]
fn long_flat_chains() {
    assert_too_deep(format!("x = 1{}", " + 1".repeat(BIG)));
    assert_too_deep(format!("x = 1{}", " * 1".repeat(BIG)));
    assert_too_deep(format!("x = 1{}", " | 1 << 1".repeat(BIG)));
    assert_too_deep(format!("assert x < 1{}", " and x < 1".repeat(BIG)));
    assert_too_deep(format!("assert x < 1{}", " or x < 1".repeat(BIG)));
}

#[test]
fn long_prefix_chains() {
    assert_too_deep(format!("x = {}y", "- ".repeat(BIG)));
    assert_too_deep(format!("x = {}1", "- ".repeat(BIG)));
    assert_too_deep(format!("x = {}1", "~ ".repeat(BIG)));
    assert_too_deep(format!("x = {}1{}", "u8(".repeat(BIG), ")".repeat(BIG)));
    assert_too_deep(format!("assert {}x < 1", "not ".repeat(BIG)));
    assert_too_deep(format!("x = {}0{}", "a[".repeat(BIG), "]".repeat(BIG)));
}

#[test]
fn nested_statements() {
    let src = format!(
        "{}skip{}",
        "if x < 1 then ".repeat(BIG),
        " else skip fi".repeat(BIG)
    );
    assert_too_deep(src);
    let src = format!("{}skip{}", "while x < 1 do ".repeat(BIG), " od".repeat(BIG));
    assert_too_deep(src);
    let src = format!(
        "{}skip{}",
        "while x < 1 do skip; ".repeat(BIG),
        " od".repeat(BIG)
    );
    assert_too_deep(src);
}

#[test]
fn long_sequences_are_flat_and_fine() {
    let src = "x = x + 1;\n".repeat(BIG);
    run(src).unwrap();
}

#[test]
fn the_limit_itself_is_accepted() {
    // `x = 1 + ... + 1` with k terms has height k + 1.
    let k = MAX_NESTING - 1;
    run(format!("x = 1{}", " + 1".repeat(k - 1))).unwrap();
    assert_too_deep(format!("x = 1{}", " + 1".repeat(k)));
    // Parentheses cost recursion, not height; nearly a thousand levels
    // of them must still parse on a small stack, in every position.
    let n = MAX_NESTING - 10;
    run(format!("x = {}1{}", "(".repeat(n), ")".repeat(n))).unwrap();
    run(format!("x = {}1{}", "2 * (".repeat(n), ")".repeat(n))).unwrap();
    run(format!("x = {}0{}", "a[".repeat(n), "]".repeat(n))).unwrap();
    run(format!("assert {}x < 1{}", "(".repeat(n), ")".repeat(n))).unwrap();
    run(format!("assert {}x{} < 1", "(".repeat(n), ")".repeat(n))).unwrap();
    run(format!("x = {}1", "- ".repeat(n))).unwrap();
    run(format!("var x: u8 = {}1", "~ ".repeat(n))).unwrap();
    run(format!(
        "var x: i32 = {}0{}",
        "i32(".repeat(n),
        ")".repeat(n)
    ))
    .unwrap();
    run(format!("var x: u16 = 1{}", " << x".repeat(n - 10))).unwrap();
    run(format!("assert {}true", "not ".repeat(n))).unwrap();
    run(format!(
        "{}skip{}",
        "if x < 1 then ".repeat(n / 2),
        " else skip fi".repeat(n / 2)
    ))
    .unwrap();
    run(format!(
        "{}skip{}",
        "while true do skip; ".repeat(n / 3),
        " od".repeat(n / 3)
    ))
    .unwrap();
}

#[test]
fn parse_cond_is_bounded_too() {
    let src = format!("{}x < 1{}", "(".repeat(BIG), ")".repeat(BIG));
    let err = on_small_stack(move || parse_cond(&src).map(drop)).unwrap_err();
    assert!(err.message.contains("nested too deeply"), "{err:?}");
}

#[test]
fn macro_expansion_is_bounded_in_depth() {
    // Each macro wraps its callee in a `while`, 40 levels each: about 1200
    // levels after expansion, though no macro body is deep.
    let mut src = String::new();
    let wrap = 40;
    for i in 0..30 {
        let inner = if i == 0 {
            "skip".to_string()
        } else {
            format!("m{}()", i - 1)
        };
        src.push_str(&format!(
            "macro m{i}() begin {}{inner}{} end\n",
            "while x < 1 do ".repeat(wrap),
            " od".repeat(wrap)
        ));
    }
    src.push_str("x = 0; m29()");
    let err = run(src).unwrap_err();
    assert!(err.message.contains("too deeply"), "{err:?}");
}

#[test]
fn macro_chains_are_bounded_in_recursion() {
    // Thousands of macros, each just calling the next one.
    let n = 5000;
    let mut src = String::new();
    for i in 0..n {
        src.push_str(&format!("macro m{i}() begin m{}() end\n", i + 1));
    }
    src.push_str(&format!("macro m{n}() begin skip end\nm0()"));
    let err = run(src).unwrap_err();
    assert!(err.message.contains("too deeply"), "{err:?}");
}

#[test]
fn macro_expansion_is_bounded_in_size() {
    // m_k calls m_{k-1} twice: 2^40 statements.
    let mut src = String::from("macro m0() begin x = x + 1 end\n");
    for i in 1..=40 {
        src.push_str(&format!(
            "macro m{i}() begin m{}(); m{}() end\n",
            i - 1,
            i - 1
        ));
    }
    src.push_str("x = 0; m40()");
    let err = run(src.clone()).unwrap_err();
    assert!(err.message.contains("too large"), "{err:?}");
    assert_eq!(err.span.lo as usize, src.len() - 5);
}

#[test]
fn macro_expansion_is_bounded_in_expression_size() {
    // m_k(p) passes p + p to m_{k-1}: one statement, 2^40 nodes.
    let mut src = String::from("macro m0(p) begin x = p end\n");
    for i in 1..=40 {
        src.push_str(&format!("macro m{i}(p) begin m{}(p + p) end\n", i - 1));
    }
    src.push_str("m40(1)");
    let err = run(src).unwrap_err();
    assert!(err.message.contains("too large"), "{err:?}");
}
