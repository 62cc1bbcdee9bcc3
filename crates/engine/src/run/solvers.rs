//! The solver chain of each worker, assembled in one place from the
//! configuration (KLEE's chain of decorators): a query cache, then a
//! counterexample cache, long chains of bit-vector comparisons rewritten
//! over the integers, then Z3, in this process or in a child process.

use crate::config::{Backend, Config};
use std::time::Instant;
use wiser_smt::{
    CexCache, Command, OrderAsIntegers, ProcessSolver, QueryCache, Solver, SolverProcesses,
    Z3Solver,
};

/// Makes the solvers of one run and can stop all of them at once.
pub(crate) struct Solvers {
    config: Config,
    deadline: Option<Instant>,
    processes: SolverProcesses,
}

impl Solvers {
    /// The solvers of a run whose deadline is `deadline`.
    pub fn new(config: &Config, deadline: Option<Instant>) -> Solvers {
        Solvers {
            config: config.clone(),
            deadline,
            processes: SolverProcesses::new(),
        }
    }

    /// A bare solver: Z3 in this process or in a child, with the query
    /// limit and the run's deadline.
    pub fn bare(&self) -> Box<dyn Solver> {
        let timeout = self.config.solver_timeout;
        let mut solver: Box<dyn Solver> = match &self.config.backend {
            Backend::InProcess => Box::new(Z3Solver::new(timeout)),
            Backend::Process { program, args } => {
                let command = Command {
                    program: program.clone(),
                    args: args.clone(),
                    memory_limit: self.config.max_memory,
                };
                Box::new(ProcessSolver::new(command, timeout, &self.processes))
            }
        };
        solver.set_deadline(self.deadline);
        solver
    }

    /// The chain of one worker: query cache, counterexample cache, long
    /// chains of comparisons over the integers, Z3.
    pub fn chain(&self) -> Box<dyn Solver> {
        Box::new(QueryCache::new(
            CexCache::new(OrderAsIntegers::new(self.bare()), 16),
            100_000,
        ))
    }

    /// Ends every solver process at once: a worker waiting for one gets
    /// `unknown` and sees that the run is over.
    pub fn stop_all(&self) {
        self.processes.kill_all();
    }

    /// The resident memory of the solver processes, in bytes.
    pub fn resident_bytes(&self) -> u64 {
        self.processes.resident_bytes()
    }
}
