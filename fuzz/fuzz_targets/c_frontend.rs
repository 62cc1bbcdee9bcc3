//! Arbitrary bytes as a preprocessed C file (`.i`) through the C front
//! end: `wiser_c::compile_file` under both data models.
//!
//! Properties:
//! * nothing panics (or overflows the stack of a program's main thread,
//!   8 MiB, where `wiser` runs the front end);
//! * an error is a `Diagnostic` that `Sources::render` renders, and so is
//!   every warning;
//! * a compiled program runs on the concrete interpreter (a few thousand
//!   steps) without panicking.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::path::PathBuf;
use std::sync::OnceLock;
use wiser_c::{DataModel, Options};

/// The stack the front end runs on.
const MAIN_STACK: usize = 8 << 20;

/// One file per fuzzing process, rewritten for every input.
fn path() -> &'static PathBuf {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| std::env::temp_dir().join(format!("wiser-fuzz-c-{}.i", std::process::id())))
}

fn exercise(data: &[u8]) {
    let path = path();
    std::fs::write(path, data).expect("write the input file");
    for data_model in [DataModel::Ilp32, DataModel::Lp64] {
        let mut sources = wiser_ir::Sources::new();
        match wiser_c::compile_file(&mut sources, path, &Options { data_model }) {
            Err(d) => assert!(!sources.render(&d).is_empty(), "an empty error: {d:?}"),
            Ok(c) => {
                for w in &c.warnings {
                    let _ = sources.render_warning(w);
                }
                let _ = wiser_semantics::concrete::run_with(
                    &c.ir,
                    &wiser_semantics::Input::default(),
                    5_000,
                    wiser_semantics::Options::default(),
                );
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let data = data.to_vec();
    std::thread::Builder::new()
        .stack_size(MAIN_STACK)
        .spawn(move || exercise(&data))
        .expect("a thread")
        .join()
        .expect("the C front end does not panic");
});
