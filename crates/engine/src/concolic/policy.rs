//! The concolic policy: decide every decision the way a given input does.
//!
//! Values are the symbolic algebra's terms; the input is a [`Model`] of
//! the input symbols. A condition that is not a constant is decided by
//! evaluating its term under that model, which gives the value the
//! concrete interpreter computes on the input (the model evaluator and
//! the interpreter share `wiser_num`'s operators), so a run takes exactly
//! the concrete run's path while the machine's trail collects its
//! symbolic path condition. Nothing here knows an operator or a check.

use crate::symbolic::Symbolic;
use std::sync::Arc;
use wiser_ir::Site;
use wiser_semantics::{Fork, Policy, Switch};
use wiser_smt::{Model, Term};

/// The last question a policy was asked: the machine records a decision
/// in the trail only when a path goes on, so a failed `assume` leaves it
/// here for the driver.
#[derive(Clone, Debug)]
pub struct Asked {
    /// Where.
    pub site: Site,
    /// The condition.
    pub cond: Term,
    /// Did it hold under the input?
    pub holds: bool,
}

/// Follows one input: every decision takes the side the input takes.
pub struct FollowInput {
    model: Arc<Model>,
    /// The input's schedule (sorted by point), for a program with threads.
    pub schedule: Vec<Switch>,
    /// The last decision asked (see [`Asked`]).
    pub last: Option<Asked>,
}

impl FollowInput {
    /// The policy that follows the input described by `model`.
    pub fn new(model: Arc<Model>) -> FollowInput {
        FollowInput {
            model,
            schedule: Vec::new(),
            last: None,
        }
    }

    /// The input's model.
    pub fn model(&self) -> &Model {
        &self.model
    }
}

impl Policy<Symbolic> for FollowInput {
    type Path = ();

    fn branch(&mut self, _path: &(), site: Site, cond: &Term) -> Fork<()> {
        let holds = self.model.holds(cond);
        self.last = Some(Asked {
            site,
            cond: cond.clone(),
            holds,
        });
        Fork::one(holds, ())
    }

    fn records_trail(&self) -> bool {
        true
    }

    fn schedule(&mut self, point: u32, candidates: &[u32], default: u32) -> Vec<u32> {
        vec![wiser_semantics::threads::follow(
            &self.schedule,
            point,
            candidates,
            default,
        )]
    }
}
