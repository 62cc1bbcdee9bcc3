//! Running every input of a heap or thread program on the concrete
//! interpreter: every input heap of objects `1..=N` times the `int`
//! inputs, or every `int` input times every schedule.

use super::{OProgram, CLASS, FIELD, NEXT};
use crate::domain::to_int;
use crate::enumerate::Invalid;
use std::sync::Arc;
use wiser_ir::{ErrorKind, Ir, Site, Span};
use wiser_num::Int;
use wiser_semantics::concrete::{self, Concrete, Follow, Outcome};
use wiser_semantics::{ArrayInput, Fork, Input, Machine, Options, Policy, State, Status};

/// An error place: its kind and, except for a deadlock, its span (which
/// thread's statement a deadlock is reported at depends on the
/// interleaving, so deadlocks compare by kind).
pub type Place = (ErrorKind, Option<Span>);

/// Error places, each with the first input that reaches it.
pub type Places = std::collections::BTreeMap<Place, Input>;

/// The place of an error.
pub fn place(kind: ErrorKind, span: Span) -> Place {
    (kind, (kind != ErrorKind::Deadlock).then_some(span))
}

/// The points of the `int` inputs' domains.
fn int_points(p: &OProgram, ir: &Ir) -> Vec<Vec<(Arc<str>, Int)>> {
    let mut points = vec![Vec::new()];
    for (n, d) in &p.inputs {
        if !ir.inputs.iter().any(|i| i.name == *n) {
            continue;
        }
        let mut next = Vec::new();
        for pt in &points {
            for v in d.values() {
                let mut q: Vec<(Arc<str>, Int)> = pt.clone();
                q.push((n.clone(), to_int(v)));
                next.push(q);
            }
        }
        points = next;
    }
    points
}

/// Every input heap of `p` times its `int` inputs: the input references
/// and each object's `next` over `null` (0) and `1..=N`, each object's `f`
/// over the field domain (fields as the arrays `C.f` and `C.next`).
pub fn heap_inputs(p: &OProgram, ir: &Ir) -> Vec<Input> {
    let n = i64::from(p.objects);
    let refs: Vec<&Arc<str>> = p
        .refs
        .iter()
        .filter(|r| ir.inputs.iter().any(|i| i.name == **r))
        .collect();
    let fields: Vec<i128> = p.fields.values().collect();
    let per_object = fields.len() as u64 * (n as u64 + 1);
    let heaps = per_object.saturating_pow(p.objects);
    let ref_points = (n as u64 + 1).saturating_pow(refs.len() as u32);
    let mut out = Vec::new();
    for ints in int_points(p, ir) {
        for rcode in 0..ref_points {
            let mut vars = ints.clone();
            let mut c = rcode;
            for r in &refs {
                vars.push(((*r).clone(), Int::from((c % (n as u64 + 1)) as i64)));
                c /= n as u64 + 1;
            }
            for hcode in 0..heaps {
                let mut c = hcode;
                let (mut fs, mut nexts) = (Vec::new(), Vec::new());
                for id in 1..=n {
                    let cell = c % per_object;
                    c /= per_object;
                    let f = fields[(cell % fields.len() as u64) as usize];
                    fs.push((Int::from(id), to_int(f)));
                    nexts.push((
                        Int::from(id),
                        Int::from((cell / fields.len() as u64) as i64),
                    ));
                }
                let array = |entries| ArrayInput {
                    default: Int::ZERO,
                    entries,
                };
                out.push(Input {
                    vars: vars.clone(),
                    arrays: vec![
                        (format!("{CLASS}.{FIELD}").into(), array(fs)),
                        (format!("{CLASS}.{NEXT}").into(), array(nexts)),
                    ],
                    ..Input::default()
                });
            }
        }
    }
    out
}

/// Runs every input heap (see [`heap_inputs`]); returns the number of runs,
/// how many failed, and the error places. More than `max_runs` runs, or a
/// run out of steps, is [`Invalid`].
pub fn enumerate_heaps(
    p: &OProgram,
    ir: &Ir,
    max_runs: u64,
    max_steps: u64,
) -> Result<(u64, u64, Places), Invalid> {
    let inputs = heap_inputs(p, ir);
    if inputs.len() as u64 > max_runs {
        return Err(Invalid::TooManyRuns);
    }
    let mut places = Places::new();
    let mut failing = 0;
    for input in &inputs {
        let run = concrete::run_with(ir, input, max_steps, Options::default());
        match run.outcome {
            Outcome::Error { kind, span, .. } => {
                failing += 1;
                places
                    .entry(place(kind, span))
                    .or_insert_with(|| input.clone());
            }
            Outcome::OutOfSteps => {
                return Err(Invalid::OutOfSteps(crate::show_input(input)));
            }
            _ => {}
        }
    }
    Ok((inputs.len() as u64, failing, places))
}

/// Takes every thread at every scheduling point; follows values
/// otherwise.
struct EverySchedule(Follow);

impl<'i> Policy<Concrete<'i>> for EverySchedule {
    type Path = ();

    fn branch(&mut self, path: &(), site: Site, cond: &Int) -> Fork<()> {
        self.0.branch(path, site, cond)
    }
}

/// What [`enumerate_schedules`] found.
#[derive(Clone, Debug, Default)]
pub struct Schedules {
    /// Complete runs (final, failed or blocked states reached).
    pub runs: u64,
    /// Of them, runs that end in an error.
    pub failing: u64,
    /// The error places (with the `int` input of the first run reaching
    /// each; the schedule is not recorded).
    pub places: Places,
}

/// Runs every `int` input of `p` on every schedule: a depth-first walk of
/// the concrete interpreter's states where every thread that may run is
/// taken at every scheduling point, without reduction. `None` when more
/// than `max_states` states would be needed (the program is too big to
/// enumerate).
pub fn enumerate_schedules(p: &OProgram, ir: &Ir, max_states: u64) -> Option<Schedules> {
    let options = Options {
        por_off: true,
        ..Options::default()
    };
    let mut found = Schedules::default();
    let mut states = 0u64;
    for vars in int_points(p, ir) {
        let input = Input {
            vars,
            ..Input::default()
        };
        let mut alg = Concrete::new(&input);
        let mut pol = EverySchedule(Follow::default());
        let mut machine = Machine::with_options(ir, options);
        let mut stack: Vec<State<Concrete<'_>, ()>> = vec![State::initial(ir, &mut alg, ())];
        let mut out = Vec::new();
        while let Some(s) = stack.pop() {
            states += 1;
            if states > max_states {
                return None;
            }
            if let Status::Error { kind, span } = s.status {
                found.runs += 1;
                found.failing += 1;
                found
                    .places
                    .entry(place(kind, span))
                    .or_insert_with(|| input.clone());
                continue;
            }
            if s.is_final(ir) {
                found.runs += 1;
                continue;
            }
            machine.step(&mut alg, &mut pol, s, &mut out);
            if out.is_empty() {
                // An `assume` that does not hold.
                found.runs += 1;
            }
            stack.append(&mut out);
        }
    }
    Some(found)
}
