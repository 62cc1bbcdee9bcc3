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

/// The resident memory of this process's descendants (solver processes
/// and what they start), in bytes: 0 where `/proc` cannot tell. A run
/// of several engines side by side counts them all, as no one engine's
/// solver chain knows the others'.
pub fn descendants_resident_bytes() -> u64 {
    let mut total = 0;
    let mut todo = children("self");
    // A process tree of solvers is shallow; the bound guards a cycle of
    // reused pids.
    let mut budget = 1024;
    while let Some(pid) = todo.pop() {
        budget -= 1;
        if budget == 0 {
            break;
        }
        total += field(&format!("/proc/{pid}/status"), "VmRSS:").unwrap_or(0);
        todo.extend(children(&pid));
    }
    total
}

/// The children of process `pid` (`self` or a number), from each of its
/// threads' `children` list.
fn children(pid: &str) -> Vec<String> {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return Vec::new();
    };
    tasks
        .flatten()
        .filter_map(|t| std::fs::read_to_string(t.path().join("children")).ok())
        .flat_map(|list| {
            list.split_whitespace()
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .collect()
}

fn status_field(name: &str) -> Option<u64> {
    field("/proc/self/status", name)
}

fn field(status: &str, name: &str) -> Option<u64> {
    let status = std::fs::read_to_string(status).ok()?;
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

    #[test]
    fn a_child_process_is_counted() {
        if !cfg!(target_os = "linux") {
            return;
        }
        let mut child = std::process::Command::new("sleep")
            .arg("5")
            .spawn()
            .expect("sleep runs");
        // Its memory shows once it has started.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(2);
        let mut seen = 0;
        while seen == 0 && std::time::Instant::now() < deadline {
            seen = super::descendants_resident_bytes();
        }
        let _ = child.kill();
        let _ = child.wait();
        assert!(seen > 0);
    }
}
