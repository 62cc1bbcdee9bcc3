//! The `wiser` executable: the command line ([`wiser::main_with`]) with
//! the IMP and C front ends.

use std::process::ExitCode;

// Exploration allocates and frees many small shared nodes, often on
// another thread than the one that allocated them (work stealing);
// mimalloc handles that pattern markedly better than the system allocator.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The languages `wiser` reads: IMP first (it reads any file whose
/// extension no other front end lists), then C (`.c`, `.i`).
static FRONTENDS: wiser::Frontends = &[&wiser_imp::FRONTEND, &wiser_c::FRONTEND];

fn main() -> ExitCode {
    wiser::main_with(FRONTENDS)
}
