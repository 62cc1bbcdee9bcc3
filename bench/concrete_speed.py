#!/usr/bin/env python3
"""How much slower `wiser run` (the concrete interpreter) is than gcc -O0.

For each seed, Csmith writes a program (`--csmith-args`, by default
Csmith's defaults less floats: `argc`, unions, bit-fields and packed
structures included), gcc compiles it (`-O0`, with
bench/csmith.py's flags: `-m32`, the data model wiser reads C in), and
both gcc's binary and `wiser run FILE` are timed as whole processes
(median of `--repeat` runs each; wiser's time includes reading the C
file). A program gcc cannot compile or run in 10 s is skipped and
counted; so is one wiser refuses or does not finish in `--timeout`
seconds. The two must print the same checksum, else the program is
reported as a disagreement (and left out of the ratio). Prints one line
per program and the median ratio wiser/gcc:

    python3 bench/concrete_speed.py                 # seeds 1..20
    python3 bench/concrete_speed.py --count 5 --repeat 1
"""

import argparse
import collections
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

from common import ROOT
from csmith import CSMITH_INCLUDE, sh

# Csmith's defaults less floats (the measure part 14 sets).
DEFAULT_ARGS = "--no-float"
GCC = ["gcc", "-m32", "-msse2", "-mfpmath=sse", "-w", "-O0"]
CHECKSUM = re.compile(r"checksum = ([0-9A-Fa-f]+)")


def timed(cmd, timeout, env=None):
    """Runs `cmd`: (seconds, exit code or 'timeout', stdout)."""
    start = time.perf_counter()
    code, out, _ = sh(cmd, timeout, env)
    return time.perf_counter() - start, code, out


def median_time(cmd, repeat, timeout, env=None):
    """The median wall time of `repeat` runs of `cmd` and the first run's
    (exit code, stdout); stops at the first run that times out."""
    times, first = [], None
    for _ in range(repeat):
        t, code, out = timed(cmd, timeout, env)
        if first is None:
            first = (code, out)
        if code == "timeout":
            return None, first
        times.append(t)
    return statistics.median(times), first


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=20, help="how many programs (default 20)")
    ap.add_argument("--first-seed", type=int, default=1, help="the first Csmith seed (default 1)")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each binary, the median is kept (default 3)")
    ap.add_argument("--timeout", type=float, default=300, help="seconds for one wiser run (default 300)")
    ap.add_argument("--csmith-args", default=DEFAULT_ARGS, help=f"Csmith's options (default: {DEFAULT_ARGS})")
    target = os.environ.get("CARGO_TARGET_DIR", str(ROOT / "target"))
    ap.add_argument("--wiser", default=os.path.join(target, "release/wiser"), help="the wiser binary (default: $CARGO_TARGET_DIR/release/wiser, else target/release/wiser)")
    ap.add_argument("--keep", help="a folder to keep the programs in")
    args = ap.parse_args()
    if not os.path.exists(args.wiser):
        sys.exit(f"{args.wiser} is missing: build it first (cargo build --release)")
    env = dict(os.environ, CPATH=CSMITH_INCLUDE)
    work = args.keep or tempfile.mkdtemp(prefix="wiser-speed-")
    os.makedirs(work, exist_ok=True)
    skipped = collections.Counter()
    ratios = []
    print(f"{'seed':>5} {'gcc s':>9} {'wiser s':>9} {'ratio':>8}")
    for seed in range(args.first_seed, args.first_seed + args.count):
        src = os.path.join(work, f"p{seed}.c")
        exe = os.path.join(work, f"p{seed}")
        code, _, _ = sh(["csmith", "--seed", str(seed), *args.csmith_args.split(), "-o", src], 60, cwd=work)
        if code != 0:
            skipped["csmith failed"] += 1
            continue
        code, _, _ = sh([*GCC, f"-I{CSMITH_INCLUDE}", src, "-o", exe], 60)
        if code != 0:
            skipped["gcc failed"] += 1
            continue
        gcc_t, (code, out) = median_time([exe], args.repeat, 10)
        m = CHECKSUM.search(out)
        if gcc_t is None or code != 0 or not m:
            skipped["gcc's binary timed out (10 s) or failed"] += 1
            print(f"{seed:5d} {'-':>9} {'-':>9} {'-':>8}  skipped: gcc's binary timed out or failed", flush=True)
            continue
        wiser_t, (code, wout) = median_time([args.wiser, "run", src], args.repeat, args.timeout, env)
        if wiser_t is None:
            skipped[f"wiser timed out ({args.timeout:g} s)"] += 1
            print(f"{seed:5d} {gcc_t:9.4f} {'>' + format(args.timeout, 'g'):>9} {'-':>8}  timeout", flush=True)
            continue
        w = CHECKSUM.search(wout)
        if code != 0 or not w:
            skipped["wiser refused or failed"] += 1
            print(f"{seed:5d} {gcc_t:9.4f} {wiser_t:9.3f} {'-':>8}  wiser exit {code}", flush=True)
            continue
        if int(w.group(1), 16) != int(m.group(1), 16):
            skipped["DISAGREES with gcc's checksum"] += 1
            print(f"{seed:5d} {gcc_t:9.4f} {wiser_t:9.3f} {'-':>8}  DISAGREES", flush=True)
            continue
        ratio = wiser_t / gcc_t
        ratios.append(ratio)
        print(f"{seed:5d} {gcc_t:9.4f} {wiser_t:9.3f} {ratio:8.1f}", flush=True)
    print()
    print(f"# seeds {args.first_seed}..{args.first_seed + args.count - 1}, csmith {args.csmith_args}, median of {args.repeat} runs each")
    for why, k in sorted(skipped.items()):
        print(f"skipped: {why}: {k}")
    if ratios:
        print(f"programs timed: {len(ratios)}")
        print(f"median ratio wiser/gcc: {statistics.median(ratios):.1f}")
    return 1 if skipped["DISAGREES with gcc's checksum"] else 0


if __name__ == "__main__":
    sys.exit(main())
