#!/usr/bin/env python3
"""Compare wiser's engines on the same programs: `check` without state
merging, with `--merge joins` and `--merge auto`, `bmc` (bound deepened
from 1 to 64 with unwinding assertions), and `fuzz` (from the all-zero
input). Prints one row per program: verdict, states (runs for fuzz) and
wall time of each.

    python3 bench/engines.py [--timeout 30] [--wiser PATH] [FILES...]

Default programs: bench/programs/*.imp and the examples without an
`# args:` line. Each program's `# bench-args:` line (if any) is passed to
`check` (without its own --timeout). The binary is target/release/wiser;
build it first with `cargo build --release`.
"""

import argparse
import json
import pathlib
import subprocess
import time

from common import ROOT, header_args


def bench_args(path):
    """The program's `# bench-args:` without `--timeout` and its value:
    every run here has the script's own."""
    out = []
    args = iter(header_args(path, "bench-args"))
    for a in args:
        if a == "--timeout":
            next(args, None)
        else:
            out.append(a)
    return out


def run(wiser, args, timeout):
    t0 = time.monotonic()
    try:
        p = subprocess.run([wiser] + args + ["--format", "json", "--quiet", "--timeout", str(timeout)],
                           capture_output=True, text=True, timeout=timeout + 30)
    except subprocess.TimeoutExpired:
        return ("hung", "-", timeout + 30)
    secs = time.monotonic() - t0
    try:
        j = json.loads(p.stdout)
    except json.JSONDecodeError:
        return ("error", "-", secs)
    verdict = j.get("verdict", "?")
    if "runs" in j:
        verdict = "bug" if j.get("bugs") else ("none" if j.get("end") == "exhausted" else "unknown")
        size = j["runs"]
    else:
        size = j.get("stats", {}).get("states", "-")
    return (verdict, size, secs)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="*")
    ap.add_argument("--timeout", type=float, default=30.0, help="seconds per run (default 30)")
    ap.add_argument("--wiser", default=str(ROOT / "target" / "release" / "wiser"))
    args = ap.parse_args()
    files = [pathlib.Path(f) for f in args.files]
    if not files:
        files = sorted((ROOT / "bench" / "programs").glob("*.imp"))
        files += [f for f in sorted((ROOT / "examples").glob("*.imp")) if "# args:" not in f.read_text()]
    engines = [
        ("check", lambda f: ["check", str(f), "--jobs", "1"] + bench_args(f)),
        ("joins", lambda f: ["check", str(f), "--jobs", "1", "--merge", "joins"] + bench_args(f)),
        ("auto", lambda f: ["check", str(f), "--jobs", "1", "--merge", "auto"] + bench_args(f)),
        ("bmc", lambda f: ["bmc", str(f), "--unwind", "1", "--unwind-max", "64", "--unwinding-assertions", "--all"]),
        ("fuzz", lambda f: ["fuzz", str(f), "--all", "--jobs", "1"]),
    ]
    header = f"{'program':26}" + "".join(f" | {name:>26}" for name, _ in engines)
    print(header)
    print("-" * len(header))
    for f in files:
        cells = []
        for _, make in engines:
            verdict, size, secs = run(args.wiser, make(f), args.timeout)
            cells.append(f"{verdict:>7} {str(size):>9} {secs:7.2f}s")
        print(f"{f.stem[:26]:26}" + "".join(f" | {c:>26}" for c in cells), flush=True)


if __name__ == "__main__":
    main()
