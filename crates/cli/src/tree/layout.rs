//! A tidy layout of the tree, computed here (no Graphviz at run time):
//! each node gets a box sized to its label, every level of the tree is one
//! row, siblings keep their order (true side left), subtrees never
//! overlap, and a parent is centred over its children.

use super::model::{NodeKind, Tree};

/// Font size of labels, in pixels.
pub const FONT: f64 = 12.0;
/// Width of one character of the (monospace) font.
pub const CHAR_W: f64 = 7.3;
/// Horizontal space between neighbouring subtrees.
pub const GAP: f64 = 14.0;
/// Vertical distance between rows.
pub const ROW: f64 = 78.0;
/// Height of a node's box.
pub const BOX_H: f64 = 36.0;
/// Margin around the drawing.
pub const MARGIN: f64 = 16.0;
/// Height of the legend and title band above the tree.
pub const HEADER: f64 = 58.0;

/// Where each node is drawn.
pub struct Layout {
    /// Centre x of each node's box.
    pub x: Vec<f64>,
    /// Top y of each node's box.
    pub y: Vec<f64>,
    /// Width of each node's box.
    pub w: Vec<f64>,
    /// The drawing's size.
    pub width: f64,
    pub height: f64,
}

/// The width of a box holding `tree.nodes[i]`'s labels.
fn box_width(tree: &Tree, i: usize) -> f64 {
    let n = &tree.nodes[i];
    let chars = n.label.chars().count().max(n.sub.chars().count()).max(3);
    let w = chars as f64 * CHAR_W + 18.0;
    match n.kind {
        NodeKind::Decision(_) => w.max(60.0),
        _ => w.max(44.0),
    }
}

/// Lays `tree` out, Reingold–Tilford style: each subtree is laid out on
/// its own, then its children's subtrees are set side by side, each moved
/// right only as far as its contour (the extent of each of its rows) must
/// to clear the ones before it, and the parent is centred over its first
/// and last child. A shallow subtree may so sit above a deep neighbour's
/// lower rows: much narrower than one column per leaf.
pub fn layout(tree: &Tree) -> Layout {
    let n = tree.nodes.len();
    let w: Vec<f64> = (0..n).map(|i| box_width(tree, i)).collect();
    // Depth and a pre-order (parents before children), without recursion.
    let mut depth = vec![0usize; n];
    let mut order = Vec::with_capacity(n);
    let mut stack = vec![0usize];
    while let Some(i) = stack.pop() {
        order.push(i);
        for &(_, c) in tree.nodes[i].children.iter().rev() {
            depth[c] = depth[i] + 1;
            stack.push(c);
        }
    }
    // Bottom-up: each subtree's contour (left and right extent of each
    // row, relative to its root's centre) and each child's offset from its
    // parent.
    let mut contour: Vec<Vec<(f64, f64)>> = vec![Vec::new(); n];
    let mut offset = vec![0.0f64; n];
    for &i in order.iter().rev() {
        let kids = &tree.nodes[i].children;
        let own = (-w[i] / 2.0, w[i] / 2.0);
        if kids.is_empty() {
            contour[i] = vec![own];
            continue;
        }
        let mut acc: Vec<(f64, f64)> = Vec::new();
        let mut at = Vec::with_capacity(kids.len());
        for &(_, c) in kids {
            let cont = std::mem::take(&mut contour[c]);
            let shift = if acc.is_empty() {
                0.0
            } else {
                acc.iter()
                    .zip(&cont)
                    .map(|(a, b)| a.1 - b.0 + GAP)
                    .fold(f64::MIN, f64::max)
            };
            for (k, &(l, r)) in cont.iter().enumerate() {
                match acc.get_mut(k) {
                    Some(a) => *a = (a.0.min(l + shift), a.1.max(r + shift)),
                    None => acc.push((l + shift, r + shift)),
                }
            }
            at.push(shift);
        }
        let centre = (at[0] + at[at.len() - 1]) / 2.0;
        for (&(_, c), &a) in kids.iter().zip(&at) {
            offset[c] = a - centre;
        }
        let mut mine = Vec::with_capacity(acc.len() + 1);
        mine.push(own);
        mine.extend(acc.into_iter().map(|(l, r)| (l - centre, r - centre)));
        contour[i] = mine;
    }
    let mut x = vec![0.0f64; n];
    for &i in &order {
        for &(_, c) in &tree.nodes[i].children {
            x[c] = x[i] + offset[c];
        }
    }
    let left = contour[0].iter().map(|c| c.0).fold(0.0, f64::min);
    let right = contour[0].iter().map(|c| c.1).fold(0.0, f64::max);
    let legend_w = super::model::Outcome::ALL
        .iter()
        .map(|o| o.legend().len() as f64 * CHAR_W + 34.0)
        .sum::<f64>();
    let width = (right - left + 2.0 * MARGIN).max(legend_w + 2.0 * MARGIN);
    // Centre the tree in the drawing.
    let dx = (width - (right - left)) / 2.0 - left;
    for v in &mut x {
        *v += dx;
    }
    let y: Vec<f64> = depth
        .iter()
        .map(|&d| HEADER + MARGIN + d as f64 * ROW)
        .collect();
    let max_depth = depth.iter().copied().max().unwrap_or(0);
    Layout {
        width,
        height: HEADER + 2.0 * MARGIN + max_depth as f64 * ROW + BOX_H,
        x,
        y,
        w,
    }
}
