//! The process's memory use, for `--max-memory` and the benchmarks.

/// The resident set size of this process in bytes, read from
/// `/proc/self/status` (`None` where that file does not exist).
pub fn resident_bytes() -> Option<u64> {
    status_field("VmRSS:")
}

/// The largest resident set size of this process so far, in bytes.
pub fn peak_resident_bytes() -> Option<u64> {
    status_field("VmHWM:")
}

fn status_field(name: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(name))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

#[cfg(test)]
mod tests {
    #[test]
    fn resident_memory_is_readable_on_linux() {
        if cfg!(target_os = "linux") {
            assert!(super::resident_bytes().is_some_and(|b| b > 0));
            // The kernel updates the peak lazily, so it may briefly read
            // below the current value: only check that it is there.
            assert!(super::peak_resident_bytes().is_some_and(|b| b > 0));
        }
    }
}
