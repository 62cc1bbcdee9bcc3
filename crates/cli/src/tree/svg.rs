//! The tree as SVG, written by hand: boxes, lines and text are all it
//! takes, and a crate for it would add a dependency for a `format!`.

use super::layout::{Layout, BOX_H, CHAR_W, FONT, MARGIN};
use super::model::{escape_xml as esc, Edge, NodeKind, Outcome, Tree};
use crate::sites::SiteKind;
use std::fmt::Write;

/// Fill and stroke of an outcome.
pub fn colours(o: Outcome) -> (&'static str, &'static str) {
    match o {
        Outcome::Bug => ("#f9d0d0", "#c62828"),
        Outcome::Halted => ("#d5efd9", "#2e7d32"),
        Outcome::Pruned => ("#f0f0f0", "#9e9e9e"),
        Outcome::Cut => ("#ffe3bf", "#e65100"),
        Outcome::Merged => ("#d3e5f8", "#1565c0"),
        Outcome::Outside => ("#eadbf3", "#6a1b9a"),
    }
}

const DECISION: (&str, &str) = ("#ffffff", "#37474f");
const SUMMARY: (&str, &str) = ("#eceff1", "#37474f");

/// The SVG document; `interactive` adds what the HTML page's script uses
/// (a pointer cursor on nodes).
pub fn svg(tree: &Tree, l: &Layout, interactive: bool) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0}" height="{h:.0}" viewBox="0 0 {w:.0} {h:.0}" font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" font-size="{FONT}">"#,
        w = l.width,
        h = l.height
    );
    let _ = writeln!(
        out,
        r##"<rect x="0" y="0" width="{:.0}" height="{:.0}" fill="#ffffff"/>"##,
        l.width, l.height
    );
    if interactive {
        out.push_str("<style>.node{cursor:pointer}.node:hover rect{stroke-width:2.5}.node.selected rect{stroke-width:3.5}</style>\n");
    }
    header(&mut out, tree);
    // Edges first, so boxes are drawn over them.
    for (i, n) in tree.nodes.iter().enumerate() {
        for &(e, c) in &n.children {
            edge(&mut out, tree, l, i, e, c);
        }
    }
    for i in 0..tree.nodes.len() {
        node(&mut out, tree, l, i);
    }
    out.push_str("</svg>\n");
    out
}

fn header(out: &mut String, tree: &Tree) {
    let mut title = format!(
        "symbolic execution tree of {}: {} path{}",
        tree.title,
        tree.paths,
        if tree.paths == 1 { "" } else { "s" }
    );
    if tree.dropped > 0 {
        let _ = write!(title, " ({} more not recorded)", tree.dropped);
    }
    let _ = writeln!(
        out,
        r##"<text x="{MARGIN}" y="{:.0}" font-size="13" font-weight="bold" fill="#263238">{}</text>"##,
        MARGIN + 8.0,
        esc(&title)
    );
    let mut x = MARGIN;
    let y = MARGIN + 22.0;
    for o in Outcome::ALL {
        let (fill, stroke) = colours(o);
        let dash = if o == Outcome::Pruned {
            r#" stroke-dasharray="4 3""#
        } else {
            ""
        };
        let _ = writeln!(
            out,
            r##"<rect x="{x:.1}" y="{y:.1}" width="16" height="12" rx="3" fill="{fill}" stroke="{stroke}"{dash}/><text x="{:.1}" y="{:.1}" fill="#263238">{}</text>"##,
            x + 21.0,
            y + 10.5,
            esc(o.legend())
        );
        x += o.legend().len() as f64 * CHAR_W + 34.0;
    }
}

fn edge(out: &mut String, tree: &Tree, l: &Layout, p: usize, e: Edge, c: usize) {
    let (x1, y1) = (l.x[p], l.y[p] + BOX_H);
    let (x2, y2) = (l.x[c], l.y[c]);
    let pruned = tree.nodes[c].kind == NodeKind::Leaf(Outcome::Pruned);
    let (stroke, dash) = if pruned {
        ("#9e9e9e", r#" stroke-dasharray="5 4""#)
    } else {
        ("#607d8b", "")
    };
    let ym = (y1 + y2) / 2.0;
    let _ = writeln!(
        out,
        r#"<path d="M{x1:.1},{y1:.1} C{x1:.1},{ym:.1} {x2:.1},{ym:.1} {x2:.1},{y2:.1}" fill="none" stroke="{stroke}" stroke-width="1.3"{dash}/>"#
    );
    {
        let word = e.label();
        // On the curve, past its middle, where sibling edges have parted.
        let t: f64 = 0.6;
        let (a, b) = (
            (1.0 - t).powi(3) + 3.0 * (1.0 - t).powi(2) * t,
            3.0 * (1.0 - t) * t * t + t.powi(3),
        );
        let lx = a * x1 + b * x2;
        let ly = (1.0 - t).powi(3) * y1 + 3.0 * (1.0 - t) * t * ym + t.powi(3) * y2;
        let lw = word.len() as f64 * 6.4 + 6.0;
        let colour = match e {
            Edge::Side(true) => "#1b5e20",
            Edge::Side(false) => "#b71c1c",
            Edge::Merged | Edge::AfterMerge => "#1565c0",
        };
        let _ = writeln!(
            out,
            r##"<rect x="{:.1}" y="{:.1}" width="{lw:.1}" height="13" rx="3" fill="#ffffff" fill-opacity="0.9"/><text x="{lx:.1}" y="{:.1}" font-size="11" text-anchor="middle" fill="{colour}">{word}</text>"##,
            lx - lw / 2.0,
            ly - 8.0,
            ly + 2.5
        );
    }
}

fn node(out: &mut String, tree: &Tree, l: &Layout, i: usize) {
    let n = &tree.nodes[i];
    let (x, y, w) = (l.x[i], l.y[i], l.w[i]);
    let ((fill, stroke), rx, dash, width) = match &n.kind {
        NodeKind::Decision(SiteKind::Check) => (DECISION, 2.0, "", 1.3),
        NodeKind::Decision(_) => (DECISION, 4.0, "", 1.6),
        NodeKind::Leaf(o) => (
            colours(*o),
            14.0,
            if *o == Outcome::Pruned {
                r#" stroke-dasharray="4 3""#
            } else {
                ""
            },
            1.6,
        ),
        NodeKind::Summary(_) => (SUMMARY, 2.0, r#" stroke-dasharray="1 2""#, 2.0),
        NodeKind::Join => (colours(Outcome::Merged), 2.0, "", 1.3),
    };
    let class = match &n.kind {
        NodeKind::Decision(_) => "decision".to_string(),
        NodeKind::Leaf(o) => format!("leaf {}", o.short()),
        NodeKind::Summary(_) => "summary".to_string(),
        NodeKind::Join => "join".to_string(),
    };
    let _ = writeln!(
        out,
        r#"<g class="node {class}" id="n{i}" data-node="{i}"><title>{}</title>"#,
        esc(&n.details.title)
    );
    let _ = writeln!(
        out,
        r#"<rect x="{:.1}" y="{y:.1}" width="{w:.1}" height="{BOX_H}" rx="{rx}" fill="{fill}" stroke="{stroke}" stroke-width="{width}"{dash}/>"#,
        x - w / 2.0
    );
    let text_colour = if n.kind == NodeKind::Leaf(Outcome::Pruned) {
        "#757575"
    } else {
        "#212121"
    };
    if n.sub.is_empty() {
        let _ = writeln!(
            out,
            r#"<text x="{x:.1}" y="{:.1}" text-anchor="middle" fill="{text_colour}">{}</text>"#,
            y + BOX_H / 2.0 + 4.0,
            esc(&n.label)
        );
    } else {
        let bold = if matches!(n.kind, NodeKind::Decision(_)) {
            r#" font-weight="bold""#
        } else {
            ""
        };
        let _ = writeln!(
            out,
            r#"<text x="{x:.1}" y="{:.1}" text-anchor="middle" fill="{text_colour}"{bold}>{}</text>"#,
            y + 15.0,
            esc(&n.label)
        );
        let _ = writeln!(
            out,
            r##"<text x="{x:.1}" y="{:.1}" text-anchor="middle" font-size="10.5" fill="#546e7a">{}</text>"##,
            y + 29.0,
            esc(&n.sub)
        );
    }
    out.push_str("</g>\n");
}
