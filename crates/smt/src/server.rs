//! The solver process: reads the protocol's frames (see
//! [`crate::protocol`]), keeps the table of term nodes the parent has sent,
//! and answers each query with one in-process [`Z3Solver`], so Z3's
//! incremental stack is kept from query to query exactly as it would be
//! in the parent.

use crate::protocol::{self, Query};
use crate::solver::{Answer, Solver, SolverStats};
use crate::term::Term;
use crate::z3_backend::Z3Solver;
use std::io::{self, BufReader, Read, Write};
use std::time::Instant;

/// Serves the solver protocol: reads requests from `input` and writes
/// answers to `output` (each frame with one `write_all`, then a flush),
/// until the end of `input`, which returns `Ok`. Malformed input is
/// answered with an error frame and ends the loop with an error.
///
/// First of all it makes its Z3 context and says it is ready: the parent
/// starts a query's clock only then, so the cost of starting a process is
/// not charged to the first query's time limit.
pub fn serve(input: impl Read, mut output: impl Write) -> io::Result<()> {
    let mut input = BufReader::with_capacity(1 << 16, input);
    let mut solver = Z3Solver::new(None);
    solver.warm_up();
    let mut out = Vec::new();
    protocol::put_ready(&mut out)?;
    output.write_all(&out)?;
    output.flush()?;
    let mut table: Vec<Term> = Vec::new();
    let mut frame = Vec::new();
    while protocol::read_frame(&mut input, &mut frame)? {
        let query = match protocol::read_request(&frame, &mut table) {
            Ok(None) => continue,
            Ok(Some(q)) => q,
            Err(e) => {
                out.clear();
                // Best effort: the parent may be gone already.
                if protocol::put_error(&mut out, &e.0).is_ok() {
                    let _ = output.write_all(&out).and_then(|()| output.flush());
                }
                return Err(e.into());
            }
        };
        let (answer, delta) = answer(&mut solver, &query);
        out.clear();
        if let Err(e) = protocol::put_answer(&mut out, &answer, &delta) {
            // A model too large for a frame: the query stays undecided.
            out.clear();
            protocol::put_answer(&mut out, &Answer::Unknown(e.to_string()), &delta)?;
        }
        output.write_all(&out)?;
        output.flush()?;
    }
    Ok(())
}

/// [`serve`] on the process's standard input and output, unbuffered by
/// the standard library (its `stdout` is line-buffered, which would split
/// binary frames at newline bytes into several writes).
pub fn serve_stdio() -> io::Result<()> {
    use std::os::fd::AsFd;
    let input = std::fs::File::from(io::stdin().as_fd().try_clone_to_owned()?);
    let output = std::fs::File::from(io::stdout().as_fd().try_clone_to_owned()?);
    serve(input, output)
}

/// Answers one query; returns the answer and the solver's work on it.
fn answer(solver: &mut Z3Solver, query: &Query) -> (Answer, SolverStats) {
    let mut before = SolverStats::default();
    solver.stats(&mut before);
    // The budget starts now; a budget too large for the clock is none.
    let deadline = query.budget.and_then(|b| Instant::now().checked_add(b));
    solver.set_deadline(deadline);
    let answer = solver.solve(&query.constraints);
    let mut after = SolverStats::default();
    solver.stats(&mut after);
    (answer, protocol::stats_delta(&after, &before))
}
