//! `check --tree FILE.svg|.html|.dot`: a picture of the symbolic
//! execution tree, drawn from the paths the engine recorded
//! ([`wiser_engine::Report::paths`]).
//!
//! The tree is the prefix tree of the paths' trails: a node per decision
//! (labelled with the condition as the program wrote it, and its line),
//! an edge per side taken (true or false), a leaf per path end (coloured
//! by outcome). A side that no path took is drawn as a pruned leaf: the
//! solver found it infeasible (or, for an `assume`, it is where paths
//! outside the assumption were dropped). After a merge (`--merge`) a
//! path goes on with the decisions its two halves share, so a node may
//! have paths that end there and paths that go on: such a node is drawn
//! as a join point.
//!
//! The tree is built breadth-first up to [`MAX_NODES`] nodes; the
//! subtrees below are drawn as summary nodes with the number of paths of
//! each outcome they hold.

mod dot;
mod html;
mod layout;
mod model;
mod svg;

pub use model::*;

use crate::error::CliError;
use crate::load::Program;
use crate::sites::{self, SiteKind, MAX_LABEL};
use std::path::Path;
use wiser_engine::{Incomplete, PathEnd, PathEndKind, Report};
use wiser_ir::Site;
use wiser_semantics::{Decision, Input};
use wiser_smt::Term;

/// The trace lines of a bug path, pre-rendered (empty when none).
pub type TraceOf<'a> = &'a dyn Fn(&PathEnd) -> Vec<String>;

/// A group of paths at the same node: indices into the report's paths.
struct Pending {
    node: usize,
    paths: Vec<usize>,
    depth: usize,
}

impl Tree {
    /// The tree of `report`'s paths (recorded with `Record::paths`).
    pub fn new(program: &Program, report: &Report, trace_of: TraceOf<'_>) -> Tree {
        let paths = &report.paths;
        let mut tree = Tree {
            nodes: Vec::new(),
            paths: paths.len(),
            dropped: report.paths_dropped,
            title: program.file.display().to_string(),
        };
        let builder = Builder {
            program,
            paths,
            trace_of,
        };
        tree.nodes.push(placeholder());
        let mut level = vec![Pending {
            node: 0,
            paths: (0..paths.len()).collect(),
            depth: 0,
        }];
        let mut row = 0;
        while !level.is_empty() {
            // Expand this level only if its children fit.
            let grown: usize = level.iter().map(|p| builder.children_count(p)).sum();
            let fits = tree.nodes.len() + grown <= MAX_NODES && row + 1 < MAX_ROWS;
            row += 1;
            let mut next = Vec::new();
            for p in level {
                if fits || builder.is_leaf(&p) {
                    builder.expand(&mut tree.nodes, p, &mut next);
                } else {
                    tree.nodes[p.node] = builder.summary(&p);
                }
            }
            level = next;
        }
        tree
    }
}

fn placeholder() -> Node {
    Node {
        kind: NodeKind::Join,
        label: String::new(),
        sub: String::new(),
        children: Vec::new(),
        details: Details::default(),
    }
}

struct Builder<'a> {
    program: &'a Program,
    paths: &'a [PathEnd],
    trace_of: TraceOf<'a>,
}

/// The site and side of the decision at `depth` of `p`'s trail.
fn step(p: &PathEnd, depth: usize) -> Option<(Site, bool)> {
    p.trail.get(depth).map(|d| (d.site, d.taken))
}

impl Builder<'_> {
    /// Paths that end at this node, and the sites the others decide next
    /// (in order of first appearance).
    fn split(&self, p: &Pending) -> (Vec<usize>, Vec<Site>) {
        let mut ending = Vec::new();
        let mut sites: Vec<Site> = Vec::new();
        for &i in &p.paths {
            match step(&self.paths[i], p.depth) {
                None => ending.push(i),
                Some((site, _)) => {
                    if !sites.contains(&site) {
                        sites.push(site);
                    }
                }
            }
        }
        (ending, sites)
    }

    fn is_leaf(&self, p: &Pending) -> bool {
        p.paths.len() <= 1 && self.split(p).1.is_empty()
    }

    /// How many nodes expanding `p` adds.
    fn children_count(&self, p: &Pending) -> usize {
        let (ending, sites) = self.split(p);
        match (ending.len(), sites.len()) {
            (_, 0) if ending.len() <= 1 => 0,
            (0, 1) => 2,
            (e, s) => e + s,
        }
    }

    /// Fills `p`'s node and queues its children.
    fn expand(&self, nodes: &mut Vec<Node>, p: Pending, next: &mut Vec<Pending>) {
        let (ending, sites) = self.split(&p);
        if sites.is_empty() && ending.len() <= 1 {
            nodes[p.node] = match ending.first() {
                Some(&i) => self.leaf(&self.paths[i], p.depth),
                // No path at all: the run recorded none (over the cap).
                None => Node {
                    kind: NodeKind::Summary(Vec::new()),
                    label: "no path recorded".into(),
                    sub: String::new(),
                    children: Vec::new(),
                    details: Details::default(),
                },
            };
            return;
        }
        if ending.is_empty() && sites.len() == 1 {
            let site = sites[0];
            let any = &self.paths[p.paths[0]];
            let decided = &any.trail[p.depth];
            let mut node = self.decision(site, any, p.depth);
            for side in [true, false] {
                let group: Vec<usize> = p
                    .paths
                    .iter()
                    .copied()
                    .filter(|&i| step(&self.paths[i], p.depth) == Some((site, side)))
                    .collect();
                let id = nodes.len();
                node.children.push((Edge::Side(side), id));
                if group.is_empty() {
                    nodes.push(self.pruned(any, p.depth, decided, side));
                } else {
                    nodes.push(placeholder());
                    next.push(Pending {
                        node: id,
                        paths: group,
                        depth: p.depth + 1,
                    });
                }
            }
            nodes[p.node] = node;
            return;
        }
        // A merge point: the halves of a merge share these decisions;
        // they end (merged) below, and the merged path goes on here.
        let any = &self.paths[p.paths[0]];
        let mut node = Node {
            kind: NodeKind::Join,
            label: "merge point".into(),
            sub: format!("{} paths", p.paths.len()),
            children: Vec::new(),
            details: Details {
                title: "states merged below go on from here as one (state merging)".into(),
                decisions: self.decisions(any, p.depth),
                path_condition: self.prefix_condition(any, p.depth),
                ..Details::default()
            },
        };
        let merged = |i: &usize| self.paths[*i].end == PathEndKind::Merged;
        for &i in &ending {
            let id = nodes.len();
            let edge = if merged(&i) {
                Edge::Merged
            } else {
                Edge::AfterMerge
            };
            node.children.push((edge, id));
            nodes.push(placeholder());
            next.push(Pending {
                node: id,
                paths: vec![i],
                depth: p.depth,
            });
        }
        for site in sites {
            let group: Vec<usize> = p
                .paths
                .iter()
                .copied()
                .filter(|&i| step(&self.paths[i], p.depth).is_some_and(|(s, _)| s == site))
                .collect();
            let id = nodes.len();
            let edge = if group.iter().any(merged) {
                Edge::Merged
            } else {
                Edge::AfterMerge
            };
            node.children.push((edge, id));
            nodes.push(placeholder());
            next.push(Pending {
                node: id,
                paths: group,
                depth: p.depth,
            });
        }
        nodes[p.node] = node;
    }

    /// The decisions of `p` above `depth`, as the program wrote them.
    fn decisions(&self, p: &PathEnd, depth: usize) -> Vec<String> {
        p.trail[..depth.min(p.trail.len())]
            .iter()
            .map(|d| {
                let info = sites::site_info(self.program, d.site);
                format!("{}: {}  ({})", info.at, info.label, d.taken)
            })
            .collect()
    }

    /// The conjunction of the decisions above `depth`.
    fn prefix_condition(&self, p: &PathEnd, depth: usize) -> Vec<String> {
        p.trail[..depth.min(p.trail.len())]
            .iter()
            .map(|d| readable(&side_term(d, d.taken)))
            .collect()
    }

    fn decision(&self, site: Site, any: &PathEnd, depth: usize) -> Node {
        let info = sites::site_info(self.program, site);
        let kind = match info.kind {
            SiteKind::Assert => "assertion",
            SiteKind::Assume => "assumption",
            SiteKind::Check => "runtime check",
            SiteKind::Branch => "branch",
        };
        Node {
            kind: NodeKind::Decision(info.kind),
            label: sites::shorten(&info.label, MAX_LABEL),
            sub: format!("line {}", info.at.line),
            children: Vec::new(),
            details: Details {
                title: format!("{kind} at {}: {}", info.at, info.label),
                decisions: self.decisions(any, depth),
                path_condition: self.prefix_condition(any, depth),
                ..Details::default()
            },
        }
    }

    fn pruned(&self, any: &PathEnd, depth: usize, d: &Decision<Term>, side: bool) -> Node {
        let info = sites::site_info(self.program, d.site);
        let why = if info.kind == SiteKind::Assume && !side {
            "outside the assumption"
        } else {
            "infeasible"
        };
        let mut path_condition = self.prefix_condition(any, depth);
        path_condition.push(readable(&side_term(d, side)));
        Node {
            kind: NodeKind::Leaf(Outcome::Pruned),
            label: why.into(),
            sub: String::new(),
            children: Vec::new(),
            details: Details {
                title: format!(
                    "pruned: the {side} side of {} at {} ({why})",
                    info.label, info.at
                ),
                decisions: self.decisions(any, depth),
                path_condition,
                ..Details::default()
            },
        }
    }

    fn leaf(&self, p: &PathEnd, depth: usize) -> Node {
        let outcome = Outcome::of(p.end);
        let input = p.input.as_ref().map(input_text);
        let (label, sub, title) = match p.end {
            PathEndKind::Halted => (
                "end".to_string(),
                input.clone().unwrap_or_default(),
                "the program ends normally".to_string(),
            ),
            PathEndKind::Error { kind, span } | PathEndKind::OutsideProperty { kind, span } => {
                let at = self.program.line_col(span);
                let outside = if outcome == Outcome::Outside {
                    " (outside the property)"
                } else {
                    ""
                };
                (
                    self.program.describe(kind).to_string(),
                    format!("line {}", at.line),
                    format!(
                        "{}{outside} at {}",
                        self.program.describe(kind),
                        self.program.location(span)
                    ),
                )
            }
            PathEndKind::Cut(why) => (
                "cut".to_string(),
                cut_text(why).to_string(),
                format!("not followed further: {}", cut_text(why)),
            ),
            PathEndKind::Merged => (
                "merged".to_string(),
                String::new(),
                "merged with another state; the merged path goes on with the decisions both share"
                    .to_string(),
            ),
        };
        let trace = if outcome == Outcome::Bug {
            (self.trace_of)(p)
        } else {
            Vec::new()
        };
        Node {
            kind: NodeKind::Leaf(outcome),
            label,
            sub: sites::shorten(&sub, MAX_LABEL),
            children: Vec::new(),
            details: Details {
                title,
                decisions: self.decisions(p, depth),
                path_condition: p.path_condition.iter().map(|t| t.to_string()).collect(),
                input,
                trace,
            },
        }
    }

    fn summary(&self, p: &Pending) -> Node {
        let mut counts: Vec<(Outcome, usize)> = Vec::new();
        for &i in &p.paths {
            let o = Outcome::of(self.paths[i].end);
            match counts.iter_mut().find(|(k, _)| *k == o) {
                Some((_, n)) => *n += 1,
                None => counts.push((o, 1)),
            }
        }
        counts.sort();
        let any = &self.paths[p.paths[0]];
        let text: Vec<String> = counts
            .iter()
            .map(|(o, n)| format!("{n} {}", o.short()))
            .collect();
        Node {
            kind: NodeKind::Summary(counts),
            label: format!(
                "{} path{}",
                p.paths.len(),
                if p.paths.len() == 1 { "" } else { "s" }
            ),
            sub: text.join(", "),
            children: Vec::new(),
            details: Details {
                title: format!("a subtree of {} paths, not drawn", p.paths.len()),
                decisions: self.decisions(any, p.depth),
                path_condition: self.prefix_condition(any, p.depth),
                ..Details::default()
            },
        }
    }
}

/// The condition of `d`'s side `side`.
fn side_term(d: &Decision<Term>, side: bool) -> Term {
    if side {
        d.cond.clone()
    } else {
        Term::not(&d.cond)
    }
}

fn cut_text(why: Incomplete) -> &'static str {
    match why {
        Incomplete::MaxStates => "state limit",
        Incomplete::Timeout => "time limit",
        Incomplete::MaxMemory => "memory limit",
        Incomplete::Interrupted => "interrupted",
        Incomplete::StoppedAtFirstBug => "first bug found",
        Incomplete::SolverUnknown => "solver unknown",
        Incomplete::InternalError => "internal error",
        Incomplete::OutsideProperty => "outside the property",
        Incomplete::UnwindBound => "unwind bound",
        Incomplete::HeapBound => "heap bound",
        Incomplete::ThreadBound => "thread bound",
        Incomplete::SwitchBound => "switch bound",
        Incomplete::MaxRuns => "run limit",
        Incomplete::WorkListEmpty => "work list empty",
        Incomplete::Unchecked => "unchecked errors",
        Incomplete::UncheckedPlace => "unchecked place",
        Incomplete::NoInvariant => "no invariant",
        Incomplete::NotEncoded => "not encoded",
    }
}

/// An input on one line: `x = 3, y = 2, reads 1, 0, a = [0] = 5, others 0`.
fn input_text(input: &Input) -> String {
    let mut parts: Vec<String> = input
        .vars
        .iter()
        .map(|(n, v)| format!("{n} = {v}"))
        .collect();
    if !input.reads.is_empty() {
        let reads: Vec<String> = input.reads.iter().map(|v| v.to_string()).collect();
        parts.push(format!("reads {}", reads.join(", ")));
    }
    for (name, a) in &input.arrays {
        parts.push(format!("{name}: {}", crate::render::array_text(a)));
    }
    if parts.is_empty() {
        "no input".into()
    } else {
        parts.join(", ")
    }
}

/// The picture formats, by the file's extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Svg,
    Html,
    Dot,
}

impl Format {
    /// The format a file name asks for.
    pub fn of(path: &Path) -> Option<Format> {
        match path
            .extension()
            .and_then(|e| e.to_str())
            .map(|e| e.to_ascii_lowercase())
            .as_deref()
        {
            Some("svg") => Some(Format::Svg),
            Some("html" | "htm") => Some(Format::Html),
            Some("dot" | "gv") => Some(Format::Dot),
            _ => None,
        }
    }
}

/// Checks `--tree`'s file name before the run.
pub fn check_path(path: &Path) -> Result<Format, CliError> {
    Format::of(path).ok_or_else(|| {
        CliError::usage(format!(
            "--tree `{}`: the picture's format is chosen by the file's extension",
            path.display()
        ))
        .help("end the file name in .svg, .html or .dot")
    })
}

/// The picture of `tree` in `format`.
pub fn render(tree: &Tree, format: Format) -> String {
    match format {
        Format::Svg => svg::svg(tree, &layout::layout(tree), false),
        Format::Html => html::html(tree, &layout::layout(tree)),
        Format::Dot => dot::dot(tree),
    }
}

/// Draws the tree of `report` into `out`.
pub fn write(
    program: &Program,
    report: &Report,
    semantics: wiser_semantics::Options,
    out: &Path,
) -> Result<(), CliError> {
    let format = check_path(out)?;
    // A bug's witness replayed with the trace recorder, as `--trace` shows it.
    let trace_of = |p: &PathEnd| match (&p.end, &p.input) {
        (PathEndKind::Error { .. }, Some(input)) => {
            let trace = crate::trace_render::witness_trace(program, input, semantics);
            crate::trace_render::trace_text(program, &trace)
                .lines()
                .skip(1)
                .map(|l| l.trim_start().to_string())
                .collect()
        }
        _ => Vec::new(),
    };
    let tree = Tree::new(program, report, &trace_of);
    std::fs::write(out, render(&tree, format))
        .map_err(|e| CliError::cannot_write("the tree", out, &e))
}

/// A decision's condition as reports print path conditions (simplified,
/// no internal notation).
fn readable(t: &Term) -> String {
    wiser_engine::readable::path_text(
        std::slice::from_ref(t),
        &wiser_engine::readable::Names::PLAIN,
    )
}
