//! "Did you mean" for misspelt keywords and names, and the caret on lines
//! with tabs, on whole programs.

use wiser_imp::{compile, compile_files, SourceMap, Sources};

fn error(src: &str) -> String {
    let d = compile(src).expect_err("an error");
    SourceMap::new("test.imp", src).render(&d)
}

#[test]
fn a_misspelt_keyword_gets_did_you_mean_not_a_missing_semicolon() {
    let text = error("x = 1;\nwhlie x < 3 do x = x + 1 od\n");
    expect_test::expect![[r#"
        error: expected a statement, found `whlie`
         --> test.imp:2:1
          |
        2 | whlie x < 3 do x = x + 1 od
          | ^^^^^
          = help: did you mean `while`?
    "#]]
    .assert_eq(&text);
    assert!(!text.contains("separate statements"));
    assert!(error("x = 1;\nskpi\n").contains("did you mean `skip`?"));
}

#[test]
fn an_unknown_procedure_gets_the_closest_defined_one() {
    let text = error("proc inc(v) begin return v + 1 end\nx = 1;\ny = icn(x)\n");
    assert!(
        text.starts_with("error: unknown procedure `icn`\n"),
        "{text}"
    );
    assert!(text.contains("= help: did you mean `inc`?"), "{text}");
    // Nothing close: the advice to define it.
    let text = error("x = 1;\ny = banana(x)\n");
    assert!(text.contains("define it before the main program"), "{text}");
}

#[test]
fn the_caret_stands_under_the_error_on_a_line_with_tabs() {
    let text = error("x = 1;\n\ty =\t;\n");
    assert!(text.contains(" --> test.imp:2:6\n"), "{text}");
    assert!(text.contains("2 |     y = ;\n  |         ^\n"), "{text}");
}

#[test]
fn an_assumption_names_only_inputs() {
    let mut sources = Sources::new();
    let program = sources.add(SourceMap::new("p.imp", "r = 0;\nassert r <= count\n"));
    let assume = sources.add(SourceMap::new("--assume", "cuont > 0"));
    let d = compile_files(&sources, program, Some(assume)).unwrap_err();
    let text = sources.render(&d);
    assert!(
        text.starts_with("error: the program has no input `cuont`\n --> --assume:1:1\n"),
        "{text}"
    );
    assert!(text.contains("did you mean `count`?"), "{text}");
    let assume = sources.add(SourceMap::new("--assume", "r > 100"));
    let d = compile_files(&sources, program, Some(assume)).unwrap_err();
    assert!(d.message.contains("`r` is not an input"), "{}", d.message);
    let assume = sources.add(SourceMap::new("--assume", "count > 100"));
    assert!(compile_files(&sources, program, Some(assume)).is_ok());
}
