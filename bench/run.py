#!/usr/bin/env python3
"""Benchmark wiser on the corpus in bench/programs/ and bench/wise/.

    python3 bench/run.py [--only NAME] [--repeat K]

Builds nothing: run `cargo build --release` first (the binary is looked
for under $CARGO_TARGET_DIR when that is set). Each program's header
line `# bench-args: ...` gives the command-line arguments (shell-quoted) to
pass to `target/release/wiser check FILE ... --format json`.

What is measured, per program (stdlib only, numbers from the OS and from
wiser's JSON; nothing is estimated):

  wall ms     whole-process wall time of `wiser check` (perf_counter around
              the child process; with --repeat K the median of K runs)
  states      stats.states
  states/s    states / wall time (whole process, so startup is included)
  Z3 q        stats.solver_queries (queries that reached Z3)
  Z3 %chk     solver_queries / feasibility_checks: the share of branch-side
              feasibility checks that needed Z3 ("-" when there were no
              checks). solver_queries counts every Z3 query, so this is an
              upper bound on that share.
  Z3 ms       stats.solver_ms (time in Z3; summed over worker threads, so
              it can exceed the wall time on a multi-core run)
  RSS MB      peak resident set size of the process: `/usr/bin/time -f
              '%e %M'` if present, else ru_maxrss of RUSAGE_CHILDREN in a
              fresh helper process per run (max over the K runs)
  B/state     stats.bytes_per_state: the process's peak resident memory
              above its start, over the most states that waited at once
              (the memory of a pending state; memory_bfs_21 measures it)

The total line sums these and gives the overall share of feasibility
checks answered without Z3 (by folding is not counted: folded branches
need no check at all; see the branches_folded stat).
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import header_args

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
# Where cargo put it: $CARGO_TARGET_DIR if set, as cargo itself reads it.
WISER = Path(os.environ.get("CARGO_TARGET_DIR") or ROOT / "target") / "release" / "wiser"
DIRS = [BENCH / "programs", BENCH / "wise"]
GNU_TIME = "/usr/bin/time"

# Run in a fresh helper process when /usr/bin/time is missing: its
# RUSAGE_CHILDREN then covers exactly one wiser run.
# It also times the child itself, so the helper's own start-up is not
# counted as wiser's wall time.
RUSAGE_HELPER = r"""
import resource, subprocess, sys, time
out = sys.argv[1]
t0 = time.perf_counter()
r = subprocess.run(sys.argv[2:])
wall = time.perf_counter() - t0
with open(out, "w") as f:
    f.write(f"{wall} {resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}")
sys.exit(r.returncode)
"""


def programs(only):
    found = []
    for d in DIRS:
        for f in sorted(d.glob("*.imp")):
            name = f.stem if d.name == "programs" else f"{d.name}/{f.stem}"
            found.append((name, f))
    if only:
        found = [(n, f) for n, f in found if n in only or f.stem in only]
    return found


def run_once(path, args):
    """One whole-process run. Returns (wall_s, rss_kb, exit code, stdout, stderr)."""
    cmd = [str(WISER), "check", str(path), *args, "--format", "json"]
    with tempfile.NamedTemporaryFile("r", suffix=".rss") as tmp:
        if os.access(GNU_TIME, os.X_OK):
            full = [GNU_TIME, "-f", "%e %M", "-o", tmp.name, *cmd]
        else:
            full = [sys.executable, "-c", RUSAGE_HELPER, tmp.name, *cmd]
        t0 = time.perf_counter()
        p = subprocess.run(full, capture_output=True, text=True)
        wall = time.perf_counter() - t0
        rss_kb = None
        try:
            text = Path(tmp.name).read_text().split()
            # GNU time writes "Command exited with non-zero status N" first.
            rss_kb = int(text[-1])
            if not full[0] == GNU_TIME:
                wall = float(text[-2])
        except (OSError, ValueError, IndexError):
            pass
    return wall, rss_kb, p.returncode, p.stdout, p.stderr


def measure(path, repeat):
    args = header_args(path, "bench-args")
    runs = []
    for _ in range(repeat):
        wall, rss, code, out, err = run_once(path, args)
        try:
            report = json.loads(out)
        except json.JSONDecodeError:
            msg = (err.strip().splitlines() or [f"exit {code}, no JSON"])[-1]
            return {"error": msg}
        runs.append((wall, rss, report))
    walls = [w for w, _, _ in runs]
    median_wall = statistics.median(walls)
    # Counters from the run whose wall time is the (lower) median.
    mid = sorted(runs, key=lambda r: r[0])[(len(runs) - 1) // 2]
    rsses = [r for _, r, _ in runs if r is not None]
    return {
        "wall": median_wall,
        "walls": walls,
        "rss_kb": max(rsses) if rsses else None,
        "report": mid[2],
    }


def fmt_int(n):
    return f"{n:,}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", action="append", metavar="NAME",
                    help="run only this program (file stem, or wise/STEM); repeatable")
    ap.add_argument("--repeat", type=int, default=1, metavar="K",
                    help="run each program K times and report the median wall time")
    opts = ap.parse_args()
    if opts.repeat < 1:
        ap.error("--repeat must be at least 1")
    if not os.access(WISER, os.X_OK):
        print(f"{WISER} not found: build it first with `cargo build --release` in {ROOT}",
              file=sys.stderr)
        return 2
    progs = programs(opts.only)
    if not progs:
        print("no matching programs", file=sys.stderr)
        return 2

    header = ["program", "verdict", "wall ms", "states", "states/s", "Z3 q",
              "Z3 %chk", "Z3 ms", "RSS MB", "B/state"]
    rows = []
    tot = {"wall": 0.0, "states": 0, "queries": 0, "checks": 0, "z3_ms": 0, "rss": 0}
    failed = False
    mem_note = "" if os.access(GNU_TIME, os.X_OK) else " (RSS via getrusage)"
    print(f"wiser: {WISER}  repeat: {opts.repeat}{mem_note}", flush=True)
    for name, path in progs:
        m = measure(path, opts.repeat)
        if "error" in m:
            failed = True
            rows.append([name, "ERROR", m["error"][:60], "", "", "", "", "", "", ""])
            continue
        r = m["report"]
        s = r["stats"]
        verdict = r["verdict"]
        if r.get("incomplete") and verdict != "bug":
            verdict += "(" + ",".join(r["incomplete"]) + ")"
        if r.get("internal_errors"):
            verdict += "!internal-error"
            failed = True
        states, queries, checks = s["states"], s["solver_queries"], s["feasibility_checks"]
        share = f"{100.0 * queries / checks:.1f}" if checks else "-"
        rss = m["rss_kb"]
        rows.append([
            name,
            verdict,
            f"{m['wall'] * 1000:.0f}",
            fmt_int(states),
            fmt_int(round(states / m["wall"])) if m["wall"] > 0 else "-",
            fmt_int(queries),
            share,
            fmt_int(s["solver_ms"]),
            f"{rss / 1024:.1f}" if rss is not None else "?",
            fmt_int(s["bytes_per_state"]) if s.get("bytes_per_state") is not None else "-",
        ])
        tot["wall"] += m["wall"]
        tot["states"] += states
        tot["queries"] += queries
        tot["checks"] += checks
        tot["z3_ms"] += s["solver_ms"]
        tot["rss"] = max(tot["rss"], rss or 0)
        if sys.stderr.isatty():
            print(f"  done {name}: {rows[-1][1]}, {rows[-1][2]} ms", file=sys.stderr, flush=True)

    total = [
        "TOTAL",
        "",
        f"{tot['wall'] * 1000:.0f}",
        fmt_int(tot["states"]),
        fmt_int(round(tot["states"] / tot["wall"])) if tot["wall"] > 0 else "-",
        fmt_int(tot["queries"]),
        f"{100.0 * tot['queries'] / tot['checks']:.1f}" if tot["checks"] else "-",
        fmt_int(tot["z3_ms"]),
        f"{tot['rss'] / 1024:.1f} max",
        "",
    ]
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows, total)]

    def line(cells):
        return "  ".join(str(c).ljust(w) if i < 2 else str(c).rjust(w)
                         for i, (c, w) in enumerate(zip(cells, widths)))

    print(line(header))
    print(line(["-" * w for w in widths]))
    for row in rows:
        print(line(row))
    print(line(["-" * w for w in widths]))
    print(line(total))
    if tot["checks"]:
        without = max(tot["checks"] - tot["queries"], 0)
        print(f"feasibility checks answered without Z3: {fmt_int(without)} of "
              f"{fmt_int(tot['checks'])} ({100.0 * without / tot['checks']:.1f}%)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
