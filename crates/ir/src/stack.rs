//! Running recursive tree walks on a stack of their own.

/// Stack size for [`with_deep_stack`]: room for recursion over syntax
/// trees as deep as the front ends accept (IMP's `MAX_NESTING`), even in
/// unoptimised builds, whose frames are large (up to about 16 KiB per
/// level of nesting). It is only
/// reserved address space; pages are committed as they are touched.
pub const DEEP_STACK_SIZE: usize = 256 << 20;

/// Runs `f` on a fresh thread with a [`DEEP_STACK_SIZE`] stack and returns
/// its result (re-raising its panic, if any).
///
/// Parsers, checkers and lowerings use this so that deeply nested input
/// never overflows the caller's stack, whatever its size (test threads
/// get 2 MiB). If no thread can be created, `f` runs on the current
/// thread.
pub fn with_deep_stack<R: Send>(f: impl FnOnce() -> R + Send) -> R {
    let job = std::sync::Mutex::new(Some(f));
    let run = || {
        let f = job.lock().ok().and_then(|mut j| j.take());
        f.map(|f| f())
    };
    let result = std::thread::scope(|s| {
        let spawned = std::thread::Builder::new()
            .name("wiser-deep-stack".into())
            .stack_size(DEEP_STACK_SIZE)
            .spawn_scoped(s, run);
        match spawned {
            Ok(handle) => match handle.join() {
                Ok(r) => r,
                Err(panic) => std::panic::resume_unwind(panic),
            },
            Err(_) => None,
        }
    });
    match result {
        Some(r) => r,
        // The thread could not be created, so `f` is still in `job`.
        None => match job.into_inner() {
            Ok(Some(f)) => f(),
            _ => unreachable!("the job ran but returned nothing"),
        },
    }
}
