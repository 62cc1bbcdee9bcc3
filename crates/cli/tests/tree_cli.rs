//! `wiser check --tree FILE.svg|.html|.dot` end to end: the tree's shape
//! (DOT snapshots), its outcomes (bug, normal end, pruned, cut, merged),
//! summaries beyond the node limit, an SVG that `rsvg-convert` renders to
//! a picture, and an HTML page whose nodes show their details when
//! clicked (in headless Chromium).
//!
//! The rendering tests need `rsvg-convert` (Debian's `librsvg2-bin`) and
//! `chromium`, which `.ci/run` installs; they fail when a tool is missing,
//! or skip with a note off CI (see `wiser_testkit::external_tool`).

use expect_test::expect;
use std::path::{Path, PathBuf};
use std::process::Command;
use support::{example, skip_external, write};

mod support;

fn wiser(args: &[&str]) -> (i32, String, String) {
    support::run(args)
}

fn scratch(name: &str) -> PathBuf {
    support::scratch("tree", name)
}

/// Runs `check` with `--tree OUT` (plus `args`) on `program`, in `dir`
/// (so the file name in the picture is the plain name); returns the
/// picture.
fn tree_of(dir: &Path, program: &str, out: &str, args: &[&str]) -> String {
    let status = support::command()
        .current_dir(dir)
        .args(["check", program, "--tree", out, "-q"])
        .args(args)
        .output()
        .expect("cannot run the wiser binary");
    assert!(
        matches!(status.status.code(), Some(0 | 1 | 3)),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
    std::fs::read_to_string(dir.join(out)).expect("the picture")
}

/// The nodes and edges of a DOT picture, without the header.
fn body(dot: &str) -> String {
    dot.lines()
        .filter(|l| {
            l.strip_prefix("  n")
                .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit()))
        })
        .map(|l| format!("{}\n", l.trim()))
        .collect()
}

#[test]
fn a_bug_and_two_normal_ends() {
    let dir = scratch("small");
    write(
        &dir,
        "small.imp",
        "if x > 0 then\n  assert x != 5\nelse\n  skip\nfi\n",
    );
    let dot = tree_of(&dir, "small.imp", "t.dot", &["--all"]);
    assert!(
        dot.starts_with("digraph symbolic_execution_tree {"),
        "{dot}"
    );
    assert!(
        dot.contains("symbolic execution tree of small.imp: 3 paths"),
        "{dot}"
    );
    // Inputs of normal ends are whatever the solver gave: masked.
    let masked = dot
        .lines()
        .map(|l| match l.find("end\\nx = ") {
            Some(i) => format!(
                "{}end\\nx = N{}\n",
                &l[..i],
                &l[l.find("\", tooltip").unwrap()..]
            ),
            None => format!("{l}\n"),
        })
        .collect::<String>();
    expect![[r##"
        n0 [label="x > 0\nline 1", tooltip="branch at 1:1: x > 0"];
        n1 [label="assert x != 5\nline 2", tooltip="assertion at 2:3: assert x != 5"];
        n2 [label="end\nx = N", tooltip="the program ends normally", style="rounded,filled", fillcolor="#d5efd9", color="#2e7d32"];
        n3 [label="end\nx = N", tooltip="the program ends normally", style="rounded,filled", fillcolor="#d5efd9", color="#2e7d32"];
        n4 [label="assertion failed\nline 2", tooltip="assertion failed at small.imp:2:3", style="rounded,filled", fillcolor="#f9d0d0", color="#c62828"];
        n0 -> n1 [label="true"];
        n0 -> n2 [label="false"];
        n1 -> n3 [label="true"];
        n1 -> n4 [label="false"];
    "##]]
    .assert_eq(&body(&masked));
}

#[test]
fn min3_has_pruned_sides_and_its_two_bugs() {
    let dir = scratch("min3");
    let min3 = example("min3.imp");
    let dot = tree_of(&dir, min3.to_str().unwrap(), "t.dot", &["--all"]);
    let count = |what: &str| dot.matches(what).count();
    // Four feasible combinations of the `if`s, each checked by the three
    // assertions (those that fold to true are no decisions).
    assert_eq!(count("label=\"assertion failed"), 2, "{dot}");
    assert_eq!(count("label=\"end\\n"), 3, "{dot}");
    assert_eq!(count("label=\"infeasible\""), 7, "{dot}");
    assert_eq!(count("label=\"a <= b\\nline 7\""), 1, "{dot}");
    assert!(dot.contains("5 paths"), "{dot}");
    // Every pruned side is drawn dashed.
    assert_eq!(count("style=dashed"), 7, "{dot}");
}

#[test]
fn a_run_cut_at_its_first_bug_has_cut_leaves() {
    let dir = scratch("cut");
    let nested = example("nested_loops.imp");
    // One worker: with several, another worker may end a second error path
    // of the bug's level before the run stops (both are real leaves; the
    // report names the least bug), so the count would depend on timing.
    let dot = tree_of(&dir, nested.to_str().unwrap(), "t.dot", &["--jobs", "1"]);
    assert_eq!(dot.matches("label=\"assertion failed").count(), 1, "{dot}");
    assert!(
        dot.matches("label=\"cut\\nfirst bug found\"").count() >= 10,
        "{dot}"
    );
    assert!(dot.contains("fillcolor=\"#ffe3bf\""), "orange: {dot}");
    // A cut run ends at its state limit.
    let dot = tree_of(
        &dir,
        nested.to_str().unwrap(),
        "t.dot",
        &["--max-states", "20"],
    );
    assert!(dot.contains("label=\"cut\\nstate limit\""), "{dot}");
}

#[test]
fn merged_halves_end_blue_and_the_merged_path_goes_on() {
    let dir = scratch("merge");
    write(
        &dir,
        "m.imp",
        "if x > 0 then y = 1 else y = 2 fi;\nassert y > 0\n",
    );
    // One worker: with two, the halves may be taken by different workers
    // and one ends before the other reaches the join (no merge to draw).
    let dot = tree_of(&dir, "m.imp", "t.dot", &["--merge", "joins", "--jobs", "1"]);
    let masked = dot.replace("x = 0", "x = N").replace("x = 1", "x = N");
    expect![[r##"
        n0 [label="merge point\n3 paths", tooltip="states merged below go on from here as one (state merging)", fillcolor="#d3e5f8", color="#1565c0"];
        n1 [label="x > 0\nline 1", tooltip="branch at 1:1: x > 0"];
        n2 [label="assert y > 0\nline 2", tooltip="assertion at 2:1: assert y > 0"];
        n3 [label="merged", tooltip="merged with another state; the merged path goes on with the decisions both share", style="rounded,filled", fillcolor="#d3e5f8", color="#1565c0"];
        n4 [label="merged", tooltip="merged with another state; the merged path goes on with the decisions both share", style="rounded,filled", fillcolor="#d3e5f8", color="#1565c0"];
        n5 [label="end\nx = N", tooltip="the program ends normally", style="rounded,filled", fillcolor="#d5efd9", color="#2e7d32"];
        n6 [label="infeasible", tooltip="pruned: the false side of assert y > 0 at 2:1 (infeasible)", style="rounded,filled,dashed", fillcolor="#f0f0f0", color="#9e9e9e"];
        n0 -> n1 [label="merged"];
        n0 -> n2 [label="goes on"];
        n1 -> n3 [label="true"];
        n1 -> n4 [label="false"];
        n2 -> n5 [label="true"];
        n2 -> n6 [label="false", style=dashed, color="#9e9e9e"];
    "##]]
    .assert_eq(&body(&masked));
}

#[test]
fn a_big_tree_is_summarised() {
    let dir = scratch("big");
    // 2^10 paths.
    let src: String = (0..10)
        .map(|k| format!("if x{k} > 0 then y = y + 1 else skip fi;\n"))
        .chain(["skip\n".to_string()])
        .collect();
    write(&dir, "big.imp", &src);
    let dot = tree_of(&dir, "big.imp", "t.dot", &[]);
    let nodes = dot.lines().filter(|l| l.contains(" [label=")).count()
        - dot.lines().filter(|l| l.contains(" -> ")).count();
    assert!(nodes <= 300, "{nodes} nodes");
    assert!(nodes >= 100, "{nodes} nodes");
    assert!(dot.contains("1024 paths"), "{dot}");
    // Seven levels of decisions drawn (127 nodes), then their 128 subtrees
    // of 8 paths each as summaries: the next level would make 511 nodes.
    assert_eq!(nodes, 255);
    assert_eq!(
        dot.matches("label=\"8 paths\\n8 end\"").count(),
        128,
        "{dot}"
    );
    let svg = tree_of(&dir, "big.imp", "t.svg", &[]);
    assert_eq!(svg.matches("<g class=\"node summary\"").count(), 128);
}

#[test]
fn the_svg_renders_to_a_picture() {
    let dir = scratch("svg");
    let min3 = example("min3.imp");
    let svg = tree_of(&dir, min3.to_str().unwrap(), "t.svg", &["--all"]);
    assert!(
        svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""),
        "{svg}"
    );
    for o in [
        "bug",
        "normal end",
        "infeasible side (pruned)",
        "cut by a limit",
        "merged",
    ] {
        assert!(svg.contains(&format!(">{o}</text>")), "the legend has {o}");
    }
    if skip_external("rsvg-convert") {
        return;
    }
    let png = dir.join("t.png");
    let out = Command::new("rsvg-convert")
        .arg(dir.join("t.svg"))
        .arg("-o")
        .arg(&png)
        .output()
        .expect("rsvg-convert (Debian's librsvg2-bin; .ci/run installs it) must be installed");
    assert!(
        out.status.success(),
        "rsvg-convert refused the SVG: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bytes = std::fs::read(&png).expect("the PNG");
    assert_eq!(&bytes[1..4], b"PNG");
    let width = u32::from_be_bytes(bytes[16..20].try_into().unwrap());
    let height = u32::from_be_bytes(bytes[20..24].try_into().unwrap());
    assert!(width >= 800 && height >= 300, "{width} x {height}");
    assert!(
        bytes.len() > 20_000,
        "a picture with content: {} bytes",
        bytes.len()
    );
}

#[test]
fn the_html_page_is_self_contained_and_shows_a_clicked_bug() {
    let dir = scratch("html");
    write(
        &dir,
        "small.imp",
        "if x > 0 then\n  assert x != 5\nelse\n  skip\nfi\n",
    );
    let html = tree_of(&dir, "small.imp", "t.html", &["--all"]);
    // Nothing from the network: the only URL is SVG's namespace.
    let urls: Vec<&str> = html.matches("http").collect();
    assert_eq!(urls.len(), 1, "{html}");
    assert!(!html.contains(" src="), "{html}");
    let data = html
        .split("var DETAILS = ")
        .nth(1)
        .and_then(|d| d.split(";\n").next())
        .expect("the details");
    let details: serde_json::Value = serde_json::from_str(data).expect("JSON details");
    let bug = &details[4];
    assert_eq!(bug["bug"], true, "{bug}");
    assert_eq!(bug["input"], "x = 5", "{bug}");
    assert_eq!(bug["path_condition"][0], "x == 5", "{bug}");
    // The witness's trace, as `--trace` shows it.
    assert_eq!(
        bug["trace"],
        serde_json::json!(["1:1  if x > 0: true", "2:3  error: assertion failed"]),
        "{bug}"
    );
    if skip_external("chromium") {
        return;
    }
    // Click the bug leaf (node 4) and read the page back.
    let page = html.replace(
        "</body>",
        "<script>document.getElementById('n4').dispatchEvent(new MouseEvent('click', {bubbles: true}));</script></body>",
    );
    let clicked = write(&dir, "clicked.html", &page);
    let out = Command::new("chromium")
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
        ])
        .arg(format!("--user-data-dir={}", dir.join("profile").display()))
        .arg("--dump-dom")
        .arg(format!("file://{}", clicked.display()))
        .output()
        .expect("chromium (Debian's chromium; .ci/run installs it) must be installed");
    let dom = String::from_utf8_lossy(&out.stdout);
    let panel = dom
        .split("<div id=\"panel\">")
        .nth(1)
        .unwrap_or_else(|| panic!("no panel: {dom}"));
    assert!(
        panel.starts_with("<h2>assertion failed at small.imp:2:3</h2>"),
        "{panel}"
    );
    assert!(panel.contains("<h3>input</h3><pre>x = 5</pre>"), "{panel}");
    assert!(panel.contains("<pre>x == 5</pre>"), "{panel}");
    assert!(panel.contains("<h3>trace</h3>"), "{panel}");
    assert!(dom.contains("class=\"node leaf bug selected\""), "{dom}");
}

#[test]
fn a_tree_file_needs_a_known_extension() {
    let min3 = example("min3.imp");
    let (code, out, err) = wiser(&["check", min3.to_str().unwrap(), "--tree", "t.png"]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains("end the file name in .svg, .html or .dot"),
        "{err}"
    );
    assert!(out.is_empty(), "{out}");
}
