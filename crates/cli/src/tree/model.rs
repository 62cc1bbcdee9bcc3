//! The drawn symbolic execution tree: its nodes, edges and outcomes, as
//! the tree is built (`mod.rs`) and drawn (`svg`, `html`, `dot`).

use crate::sites::SiteKind;
use wiser_engine::PathEndKind;

/// Beyond this many nodes, subtrees are summarised.
pub const MAX_NODES: usize = 300;

/// Below this many rows, subtrees are summarised too: a deep loop's tree
/// is a comb, drawn as a diagonal as wide as it is deep.
pub const MAX_ROWS: usize = 40;

/// How a leaf ended, for its colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Outcome {
    /// A bug (red).
    Bug,
    /// A normal end (green).
    Halted,
    /// A side no path took: infeasible (grey, dashed).
    Pruned,
    /// Cut by a limit (orange).
    Cut,
    /// Merged into another state (blue).
    Merged,
    /// An error outside the property (purple).
    Outside,
}

impl Outcome {
    /// Every outcome, in the legend's order.
    pub const ALL: [Outcome; 6] = [
        Outcome::Bug,
        Outcome::Halted,
        Outcome::Pruned,
        Outcome::Cut,
        Outcome::Merged,
        Outcome::Outside,
    ];

    /// The legend's words.
    pub fn legend(self) -> &'static str {
        match self {
            Outcome::Bug => "bug",
            Outcome::Halted => "normal end",
            Outcome::Pruned => "infeasible side (pruned)",
            Outcome::Cut => "cut by a limit",
            Outcome::Merged => "merged",
            Outcome::Outside => "outside the property",
        }
    }

    /// A short word for counts.
    pub fn short(self) -> &'static str {
        match self {
            Outcome::Bug => "bug",
            Outcome::Halted => "end",
            Outcome::Pruned => "pruned",
            Outcome::Cut => "cut",
            Outcome::Merged => "merged",
            Outcome::Outside => "outside",
        }
    }

    pub(super) fn of(end: PathEndKind) -> Outcome {
        match end {
            PathEndKind::Halted => Outcome::Halted,
            PathEndKind::Error { .. } => Outcome::Bug,
            PathEndKind::Cut(_) => Outcome::Cut,
            PathEndKind::Merged => Outcome::Merged,
            PathEndKind::OutsideProperty { .. } => Outcome::Outside,
        }
    }
}

/// What a node is.
#[derive(Clone, Debug, PartialEq)]
pub enum NodeKind {
    /// A decision with two sides.
    Decision(SiteKind),
    /// A path end, or a pruned side.
    Leaf(Outcome),
    /// A collapsed subtree: paths per outcome.
    Summary(Vec<(Outcome, usize)>),
    /// Paths that end here and paths that go on (after a merge).
    Join,
}

/// What an edge says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edge {
    /// The side of the decision above.
    Side(bool),
    /// From a merge point to the paths that were merged there.
    Merged,
    /// From a merge point to where the merged path goes on.
    AfterMerge,
}

impl Edge {
    /// The edge's label.
    pub fn label(self) -> &'static str {
        match self {
            Edge::Side(true) => "true",
            Edge::Side(false) => "false",
            Edge::Merged => "merged",
            Edge::AfterMerge => "goes on",
        }
    }
}

/// One node of the drawn tree.
#[derive(Clone, Debug)]
pub struct Node {
    pub kind: NodeKind,
    /// First line of its label.
    pub label: String,
    /// Second line (where, or a detail); may be empty.
    pub sub: String,
    /// Children, with what leads there.
    pub children: Vec<(Edge, usize)>,
    /// What a click shows (HTML): a title and lines per section.
    pub details: Details,
}

/// What the HTML picture shows for a node.
#[derive(Clone, Debug, Default)]
pub struct Details {
    pub title: String,
    /// The decisions from the root to here, as the program wrote them.
    pub decisions: Vec<String>,
    /// The path condition (for a leaf: the path's; else the conjunction
    /// of the decisions so far).
    pub path_condition: Vec<String>,
    /// A witness input, for a path end that has one.
    pub input: Option<String>,
    /// The trace of a bug's witness, pre-rendered, one line each.
    pub trace: Vec<String>,
}

/// The drawn tree.
pub struct Tree {
    /// Nodes; the root is node 0.
    pub nodes: Vec<Node>,
    /// How many paths it draws (summaries included).
    pub paths: usize,
    /// Paths the run ended but did not keep (over its cap).
    pub dropped: u64,
    /// The program's file, for the title.
    pub title: String,
}

/// Escapes text for XML (SVG, HTML) and for DOT's quoted strings alike.
pub(crate) fn escape_xml(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}
