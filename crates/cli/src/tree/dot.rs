//! The tree in Graphviz's DOT language, for those who lay it out with
//! Graphviz (`dot -Tpdf tree.dot -o tree.pdf`): the same nodes, colours
//! and edge labels as the SVG.

use super::model::{NodeKind, Outcome, Tree};
use super::svg::colours;
use std::fmt::Write;

/// A DOT quoted string's contents.
fn quote(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The DOT document.
pub fn dot(tree: &Tree) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "digraph symbolic_execution_tree {{");
    let _ = writeln!(
        out,
        "  label=\"symbolic execution tree of {}: {} paths\"; labelloc=t;",
        quote(&tree.title),
        tree.paths
    );
    let _ = writeln!(
        out,
        "  node [shape=box, style=\"rounded,filled\", fontname=\"monospace\", fontsize=11, fillcolor=\"#ffffff\", color=\"#37474f\"];"
    );
    let _ = writeln!(out, "  edge [fontname=\"monospace\", fontsize=10];");
    for (i, n) in tree.nodes.iter().enumerate() {
        let label = if n.sub.is_empty() {
            quote(&n.label)
        } else {
            format!("{}\\n{}", quote(&n.label), quote(&n.sub))
        };
        let style = match &n.kind {
            NodeKind::Decision(_) => String::new(),
            NodeKind::Leaf(o) => {
                let (fill, stroke) = colours(*o);
                let dashed = if *o == Outcome::Pruned {
                    "rounded,filled,dashed"
                } else {
                    "rounded,filled"
                };
                format!(", style=\"{dashed}\", fillcolor=\"{fill}\", color=\"{stroke}\"")
            }
            NodeKind::Summary(_) => ", style=\"filled,dotted\", fillcolor=\"#eceff1\"".into(),
            NodeKind::Join => {
                let (fill, stroke) = colours(Outcome::Merged);
                format!(", fillcolor=\"{fill}\", color=\"{stroke}\"")
            }
        };
        let _ = writeln!(
            out,
            "  n{i} [label=\"{label}\", tooltip=\"{}\"{style}];",
            quote(&n.details.title)
        );
    }
    for (i, n) in tree.nodes.iter().enumerate() {
        for &(e, c) in &n.children {
            let pruned = tree.nodes[c].kind == NodeKind::Leaf(Outcome::Pruned);
            let mut attrs = vec![format!("label=\"{}\"", e.label())];
            if pruned {
                attrs.push("style=dashed, color=\"#9e9e9e\"".into());
            }
            let attrs = format!(" [{}]", attrs.join(", "));
            let _ = writeln!(out, "  n{i} -> n{c}{attrs};");
        }
    }
    out.push_str("}\n");
    out
}
