//! The tree as one self-contained HTML page: the SVG inline, the details
//! of every node as JSON, and a few lines of script that show a node's
//! details when it is clicked (its decisions, path condition, and for a
//! path end its witness input and, for a bug, the witness's trace). No
//! network, no external file.

use super::layout::Layout;
use super::model::{escape_xml as esc, Tree};
use super::svg;
use serde_json::json;

const STYLE: &str = r#"
body { margin: 0; font-family: system-ui, sans-serif; color: #263238; }
#wrap { display: flex; height: 100vh; }
#tree { flex: 1; overflow: auto; border-right: 1px solid #cfd8dc; }
#panel { width: 34em; overflow: auto; padding: 0.8em 1em; background: #fafafa; }
#panel h2 { font-size: 1.05em; margin: 0.2em 0 0.6em; }
#panel h3 { font-size: 0.9em; margin: 1em 0 0.3em; color: #546e7a; text-transform: uppercase; }
#panel pre { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 12px;
             white-space: pre-wrap; margin: 0; background: #fff; border: 1px solid #eceff1; padding: 0.4em; }
#panel .none { color: #90a4ae; font-style: italic; }
"#;

/// Shows the clicked node's details; `DETAILS[i]` is node i's.
const SCRIPT: &str = r#"
function section(title, lines, none) {
  var h = document.createElement('h3'); h.textContent = title;
  var body;
  if (lines && lines.length) { body = document.createElement('pre'); body.textContent = lines.join('\n'); }
  else { body = document.createElement('div'); body.className = 'none'; body.textContent = none; }
  return [h, body];
}
function show(i) {
  var d = DETAILS[i], panel = document.getElementById('panel');
  panel.textContent = '';
  var h = document.createElement('h2'); h.textContent = d.title; panel.appendChild(h);
  var parts = section('decisions from the root', d.decisions, 'none (the root)')
    .concat(section('path condition', d.path_condition, 'true'));
  if (d.leaf) {
    parts = parts.concat(section('input', d.input ? [d.input] : [], 'none recorded'));
  }
  if (d.bug) {
    // The witness's trace: pre-rendered lines, filled by the report.
    parts = parts.concat(section('trace', d.trace, 'no trace recorded'));
  }
  parts.forEach(function (e) { panel.appendChild(e); });
  document.querySelectorAll('.node.selected').forEach(function (e) { e.classList.remove('selected'); });
  var g = document.getElementById('n' + i); if (g) g.classList.add('selected');
}
document.querySelectorAll('.node').forEach(function (g) {
  g.addEventListener('click', function () {
    var i = Number(g.getAttribute('data-node'));
    show(i);
    history.replaceState(null, '', '#n' + i);
  });
});
// `page.html#n7` opens with node 7 shown (links to a node), in view.
var linked = /^#n(\d+)$/.exec(location.hash);
var first = linked && DETAILS[Number(linked[1])] ? Number(linked[1]) : 0;
show(first);
var pane = document.getElementById('tree'), shown = document.getElementById('n' + first);
if (shown) {
  var b = shown.getBBox();
  pane.scrollLeft = b.x + b.width / 2 - pane.clientWidth / 2;
  pane.scrollTop = b.y - 80;
}
"#;

/// The page.
pub fn html(tree: &Tree, l: &Layout) -> String {
    let details: Vec<serde_json::Value> = tree
        .nodes
        .iter()
        .map(|n| {
            let leaf = matches!(n.kind, super::model::NodeKind::Leaf(_));
            let bug = n.kind == super::model::NodeKind::Leaf(super::model::Outcome::Bug);
            json!({
                "title": n.details.title,
                "decisions": n.details.decisions,
                "path_condition": n.details.path_condition,
                "input": n.details.input,
                "leaf": leaf,
                "bug": bug,
                // The place for a bug's trace: pre-rendered lines.
                "trace": n.details.trace,
            })
        })
        .collect();
    // `</` cannot end the script early once escaped.
    let data = serde_json::Value::Array(details)
        .to_string()
        .replace("</", "<\\/");
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<div id=\"wrap\">\n<div id=\"tree\">\n{}</div>\n<div id=\"panel\"></div>\n</div>\n<script>\nvar DETAILS = {data};\n{SCRIPT}</script>\n</body>\n</html>\n",
        esc(&format!("symbolic execution tree of {}", tree.title)),
        svg::svg(tree, l, true)
    )
}
