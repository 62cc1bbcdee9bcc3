//! What a run covered: instructions reached and sides of decisions taken
//! (kept when [`crate::Record::coverage`] asks).

use std::collections::BTreeSet;
use wiser_ir::{Ir, Pc, Site};

/// What a run covered.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Coverage {
    /// Per instruction (by pc): was a state there expanded?
    pub reached: Vec<bool>,
    /// The sides of decisions taken: a branch's, assertion's or
    /// assumption's condition (`true`: it held), or a check's (`true`: it
    /// faulted); decisions whose condition folded to a constant included.
    pub sides: BTreeSet<(Site, bool)>,
}

impl Coverage {
    /// Nothing covered yet, for `ir`.
    pub fn new(ir: &Ir) -> Coverage {
        Coverage {
            reached: vec![false; ir.code.len()],
            sides: BTreeSet::new(),
        }
    }

    /// Marks instruction `pc` reached.
    pub fn reach(&mut self, pc: Pc) {
        if let Some(r) = self.reached.get_mut(pc as usize) {
            *r = true;
        }
    }

    /// Marks a side of the decision at `site` taken.
    pub fn take(&mut self, site: Site, side: bool) {
        self.sides.insert((site, side));
    }

    /// Was that side taken?
    pub fn taken(&self, site: Site, side: bool) -> bool {
        self.sides.contains(&(site, side))
    }

    /// Adds what `other` covered.
    pub fn add(&mut self, other: &Coverage) {
        if self.reached.len() < other.reached.len() {
            self.reached.resize(other.reached.len(), false);
        }
        for (r, o) in self.reached.iter_mut().zip(&other.reached) {
            *r |= *o;
        }
        self.sides.extend(other.sides.iter().copied());
    }
}
