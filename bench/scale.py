#!/usr/bin/env python3
"""How wiser scales: speedup against worker threads (`-j N`) and against
worker processes through the distributed path (`check --broker` with N
`wiser worker`s on a Redis server this script starts), and the memory per
pending state.

    python3 bench/scale.py [--max N] [--seconds S] [--no-dist] [--only W]

Builds nothing: run `cargo build --release` first (uses target/release/wiser;
`--wiser PATH` for another). Needs `redis-server` for the distributed rows.

Workloads (programs written to a scratch folder):
  cheap    22 independent branches, no solver, breadth-first: states per second
  cheap-dfs  the same program depth-first: states per second with a frontier
           that stays small, so no page is touched for the first time
           (what is left is what the workers share)
  solver   20 branches on chained nonlinear conditions, depth-first: Z3
           queries per second (every side needs the solver)
  comb     a loop over a symbolic bound whose every exit (a tooth) holds 64
           solver-bound paths, depth-first: states per second

Each run is cut by `--timeout S` (4 s by default) and reports its states and
queries; throughput is that over the run's own elapsed time. A distributed
row also gives the smallest worker's share of the states (how evenly the
work spread; a test only asserts that every worker had some). Speedup is
against the 1-worker row of the same kind. The memory per pending state is
`stats.bytes_per_state` of a breadth-first run of 21 independent branches
(a frontier of 2,097,152 states: bench/programs/memory_bfs_21.imp).
"""

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def cheap():
    lines = ["c = 0;"] + [f"if x{i} > 0 then c = c + 1 else c = c - 1 fi;" for i in range(22)]
    return "\n".join(lines + ["assert c != 100"]) + "\n", ["--strategy", "bfs"], "states"


def cheap_dfs():
    text, _, measure = cheap()
    return text, ["--strategy", "dfs"], measure


def solver():
    lines = ["c = 0;"] + [
        f"if x{i} * x{i + 1} > {i + 1} then c = c + 1 else c = c - 1 fi;" for i in range(20)
    ]
    return "\n".join(lines + ["assert c != 100"]) + "\n", ["--strategy", "dfs"], "queries"


def comb():
    lines = ["assume n >= 0 and n <= 400;", "i = 0;", "while i < n do", "  i = i + 1", "od;", "c = 0;"]
    lines += [f"if x{i} * x{i + 1} > n + {i + 1} then c = c + 1 else c = c - 1 fi;" for i in range(6)]
    return "\n".join(lines + ["assert c != 100"]) + "\n", ["--strategy", "dfs"], "states"


WORKLOADS = {"cheap": cheap, "cheap-dfs": cheap_dfs, "solver": solver, "comb": comb}


def run_check(wiser, path, args, seconds, broker=None):
    cmd = [wiser, "check", str(path), "--all", "--format", "json", "--timeout", str(seconds)]
    cmd += args
    if broker:
        # Not quiet: the distribution note gives each worker's states.
        cmd += ["--broker", broker, "-j", "1"]
    else:
        cmd += ["-q"]
    out = subprocess.run(cmd, capture_output=True, text=True)
    report = json.loads(out.stdout)
    stats = report["stats"]
    elapsed = max(stats["elapsed_ms"], 1) / 1000.0
    return {
        "states": stats["states"] / elapsed,
        "queries": stats.get("solver_queries", 0) / elapsed,
        "verdict": report["verdict"],
        "share": smallest_share(out.stderr),
    }


def smallest_share(stderr):
    """The smallest worker's part of the states, from the coordinator's
    `note: run ID explored N items on K workers (states: a 12, b 30)`."""
    for line in stderr.splitlines():
        if "workers (states: " in line:
            parts = line.split("(states: ")[1].split(")")[0].split(", ")
            states = [int(p.rsplit(" ", 1)[1]) for p in parts]
            total = sum(states)
            return f"smallest share {100 * min(states) / total:.0f}%" if total else None
    return None


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def distributed(wiser, path, args, seconds, n):
    port = free_port()
    redis = subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"redis://127.0.0.1:{port}"
    workers = []
    try:
        for _ in range(50):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
                break
            except OSError:
                time.sleep(0.05)
        workers = [
            subprocess.Popen(
                [wiser, "worker", "--broker", url, "-q", "--name", f"w{i}"],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            for i in range(n)
        ]
        time.sleep(0.3)
        return run_check(wiser, path, args, seconds, broker=url)
    finally:
        for w in workers:
            w.kill()
        redis.kill()
        for p in workers + [redis]:
            p.wait()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--max", type=int, default=os.cpu_count(), help="most workers (default: the cores)")
    ap.add_argument("--seconds", type=float, default=4.0)
    ap.add_argument("--no-dist", action="store_true", help="threads only")
    ap.add_argument("--no-memory", action="store_true")
    ap.add_argument("--only", choices=sorted(WORKLOADS), action="append")
    ap.add_argument("--wiser", default=str(ROOT / "target" / "release" / "wiser"))
    a = ap.parse_args()
    counts = sorted({1, a.max} | {n for n in (2, 4, 8, 16, 32) if n < a.max})
    scratch = Path(tempfile.mkdtemp(prefix="wiser-scale-"))
    print(f"{'workload':9} {'kind':8} {'N':>3} {'per second':>12} {'speedup':>8}  verdict")
    for name in a.only or sorted(WORKLOADS):
        text, args, measure = WORKLOADS[name]()
        path = scratch / f"{name}.imp"
        path.write_text(text)
        kinds = [("threads", lambda n: run_check(a.wiser, path, args + ["-j", str(n)], a.seconds))]
        if not a.no_dist:
            kinds.append(("procs", lambda n: distributed(a.wiser, path, args, a.seconds, n)))
        for kind, run in kinds:
            base = None
            for n in counts:
                r = run(n)
                rate = r[measure]
                base = base or rate
                speedup = f"{rate / base:>7.2f}x" if base else "      -"
                share = f" ({r['share']})" if r.get("share") else ""
                print(f"{name:9} {kind:8} {n:>3} {rate:>12.0f} {speedup}  {r['verdict']}{share}")
                sys.stdout.flush()
    if not a.no_memory:
        mem = ROOT / "bench" / "programs" / "memory_bfs_21.imp"
        out = subprocess.run(
            [a.wiser, "check", str(mem), "--all", "-j", "1", "--strategy", "bfs", "--max-states",
             "20000000", "--timeout", "600", "--format", "json", "-q"],
            capture_output=True, text=True,
        )
        stats = json.loads(out.stdout)["stats"]
        print(f"memory per pending state (memory_bfs_21): {stats.get('bytes_per_state')} bytes "
              f"(frontier {stats['max_frontier']})")


if __name__ == "__main__":
    main()
