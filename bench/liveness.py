#!/usr/bin/env python3
"""How far past its limits a run goes: the cases of issue 8 (part 5).

    python3 bench/liveness.py [--repeat K]

Builds nothing: run `cargo build --release` first. Each case runs
`target/release/wiser check` on a small program that drives Z3 into the
ground (nonlinear queries it cannot decide, one that ignores interrupts
while allocating gigabytes, numbers that double in size every step) or
sends it SIGINT / SIGTERM mid-run, and prints, per case: the exit code,
the wall time, the overshoot past the limit (or past the signal), the
peak resident memory of wiser and its solver processes (/usr/bin/time's
%M: the largest of them), and the `incomplete` reasons and bug count of
the JSON report. The promise is an overshoot under 0.5 s, a peak under
`--max-memory`, and a report in every case (none lost to a signal).
"""

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WISER = ROOT / "target" / "release" / "wiser"
GNU_TIME = "/usr/bin/time"

FERMAT = """assume x > 1 and y > 1 and z > 1;
if x*x*x + y*y*y == z*z*z then fail else skip fi
"""
POLYNOMIAL = """x = y; i = 0;
while i < 30 do x = x * y + 1; i = i + 1 od;
assert x != 5
"""
FERMAT_ASSERT = """assume x > 0 and y > 0 and z > 0;
assert x*x*x + y*y*y != z*z*z
"""
SQUARING = """x = y; i = 0;
while i < 100 do x = x * x; i = i + 1 od;
assert x != 7
"""
EARLY_BUG = """assert a != 3;
x = y; i = 0;
while i < 30 do x = x * y + 1; i = i + 1 od;
assert x != 5
"""

# name, program, arguments, limit in seconds (the --timeout, or when the
# signal is sent), signal or None
CASES = [
    ("fermat", FERMAT, ["--solver-timeout", "1", "-j", "1", "--timeout", "20"], 20, None),
    ("polynomial", POLYNOMIAL, ["--timeout", "5", "--max-memory", "500"], 5, None),
    ("fermat_assert", FERMAT_ASSERT, ["--solver-timeout", "1", "--timeout", "3", "-j", "1"], 3, None),
    ("squaring", SQUARING, ["--timeout", "5"], 5, None),
    ("sigint_at_2s", EARLY_BUG, ["--all", "--timeout", "30"], 2, signal.SIGINT),
    ("sigterm_at_2s", EARLY_BUG, ["--all", "--timeout", "30"], 2, signal.SIGTERM),
]


def run(program, args, limit, sig, tmp):
    src = Path(tmp) / "case.imp"
    src.write_text(program)
    times = Path(tmp) / "time.txt"
    cmd = [GNU_TIME, "-o", str(times), "-f", "%M", str(WISER), "check", str(src),
           "--format", "json", "--quiet", *args]
    start = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    if sig is not None:
        time.sleep(limit)
        # /usr/bin/time passes no signal on: send it to wiser itself.
        for child in subprocess.run(["pgrep", "-P", str(p.pid)], capture_output=True,
                                    text=True).stdout.split():
            try:
                os.kill(int(child), sig)
            except ProcessLookupError:
                pass
    out, _ = p.communicate()
    wall = time.perf_counter() - start
    try:
        peak_mb = int(times.read_text().split()[-1]) / 1024
    except (OSError, ValueError, IndexError):
        peak_mb = float("nan")
    try:
        report = json.loads(out)
    except json.JSONDecodeError:
        report = None
    return p.returncode, wall, peak_mb, report


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=1, metavar="K")
    opts = ap.parse_args()
    if not WISER.exists():
        sys.exit(f"{WISER} not found: run `cargo build --release` first")
    print(f"{'case':14} {'exit':>4} {'wall s':>7} {'over s':>7} {'peak MB':>8}  report")
    worst = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        for name, program, args, limit, sig in CASES:
            for _ in range(opts.repeat):
                code, wall, peak, report = run(program, args, limit, sig, tmp)
                over = wall - limit
                worst = max(worst, over)
                if report is None:
                    what = "NO REPORT"
                else:
                    what = f"{report['verdict']}, {len(report['bugs'])} bug(s), " + \
                        ", ".join(report["incomplete"])
                print(f"{name:14} {code:4} {wall:7.2f} {over:7.2f} {peak:8.1f}  {what}")
    print(f"largest overshoot: {worst:.2f} s")


if __name__ == "__main__":
    main()
