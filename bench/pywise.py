#!/usr/bin/env python3
"""Compare wiser with PyWiSE (pip package `wise-se`) on bench/wise/*.imp.

    python3 bench/pywise.py [--only NAME] [--venv DIR] [--pywise-timeout SECS]
                            [--wiser-repeat K]

Creates a throwaway venv in a temporary directory, `pip install wise-se`
from PyPI into it, and deletes it at the end (--venv DIR reuses or creates
a venv at DIR and keeps it). Needs the release build of wiser
(`cargo build --release`). Stdlib only.

Each program has a header giving the PyWiSE assumption and node bound:

    # wise-assume: x >= 1 and x <= 12
    # wise-nodes: 2100

For each program this runs, each timed as a whole process:

1. `wise -n NODES -a ASSUMPTION FILE`, the PyWiSE command line, as is.
   Its output lists each "BUG FOUND" and ends with "No bug found at depth
   N." when there was none; it never says whether the search finished.
2. A counting driver in the same venv that makes the same calls as the
   command line (parse_imp, parse_bexpr, find_bugs_assuming) and pulls
   from the same stream, but stops at the `Finished` token, so it reports
   how many states PyWiSE explores and whether it exhausts the program
   within NODES. It runs with a raised recursion limit so that it can
   always count (and, when the CLI died of a RecursionError, once more at
   the default limit, to report where it died).
3. If (1) died of a Python RecursionError (PyWiSE's stream nests one
   generator per state, so its command line cannot go much beyond ~990
   nodes, even on a program it has already exhausted), the command line
   again with the recursion limit raised (`sys.setrecursionlimit`, on a
   thread with a large stack): same code, only the limit differs. Its
   time is reported separately and marked as such.
4. `wiser check FILE --assume ASSUMPTION --all --format json`, median
   wall time of --wiser-repeat runs.

It checks that both agree on bug / no bug (PyWiSE only counts as "no bug"
if it exhausted the program within NODES; wiser only if its verdict is
"safe"), and prints the wall times, the states, and the time ratio. The
two tools count states differently (PyWiSE: one per element of its task
stream; wiser: one per step of its machine), so the state counts are
reported, not compared.
"""

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
WISER = ROOT / "target" / "release" / "wiser"
PROGRAMS = BENCH / "wise"

# Mirrors wise.cli.main's loop (find_bugs_assuming / find_bugs over the
# parsed program, one next() per node), but stops at Finished.
COUNT_DRIVER = r"""
import json, sys, threading, time
if sys.argv[4] == "raise":
    sys.setrecursionlimit(1_000_000)
    threading.stack_size(1 << 29)
from wise.parser import parse_imp, parse_bexpr
from wise.bugfinder import find_bugs, find_bugs_assuming, BugFound, Finished

def go(path, assumption, nodes, out):
    prog = parse_imp(open(path, encoding="utf-8").read())
    stream = (find_bugs_assuming(prog, parse_bexpr(assumption))
              if assumption else find_bugs(prog))
    states = bugs = 0
    status = "not_finished"
    t0 = time.perf_counter()
    try:
        for _ in range(nodes):
            r = next(stream)
            if isinstance(r, Finished):
                status = "exhausted"
                break
            states += 1
            if isinstance(r, BugFound):
                bugs += 1
    except RecursionError:
        status = "recursion_error"
    out.update(status=status, states=states, bugs=bugs,
               seconds=time.perf_counter() - t0)

out = {}
t = threading.Thread(target=go, args=(sys.argv[1], sys.argv[2], int(sys.argv[3]), out))
t.start()
t.join()
print(json.dumps(out))
"""

# The PyWiSE command line, unchanged, with a raised recursion limit.
CLI_RAISED = r"""
import sys, threading
sys.setrecursionlimit(1_000_000)
threading.stack_size(1 << 29)
from wise.cli import main
sys.argv[0] = "wise"
t = threading.Thread(target=main)
t.start()
t.join()
"""


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def headers(path):
    h = {}
    for line in path.read_text().splitlines():
        m = re.match(r"#\s*(wise-assume|wise-nodes):\s*(.*?)\s*$", line)
        if m:
            h[m.group(1)] = m.group(2)
    if "wise-assume" not in h or "wise-nodes" not in h:
        raise SystemExit(f"{path}: needs '# wise-assume:' and '# wise-nodes:' header lines")
    return h["wise-assume"], int(h["wise-nodes"])


def timed(cmd, timeout):
    t0 = time.perf_counter()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        return time.perf_counter() - t0, p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        return time.perf_counter() - t0, None, out, "timeout"


def setup_venv(venv):
    py = venv / "bin" / "python"
    if not (venv / "bin" / "wise").exists():
        log(f"creating venv {venv} and installing wise-se from PyPI ...")
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(py), "-m", "pip", "install", "--quiet", "wise-se"], check=True)
    ver = subprocess.run([str(venv / "bin" / "wise"), "--help"], capture_output=True,
                         text=True).stdout
    m = re.search(r"\(v([^)]*)\)", ver)
    return py, venv / "bin" / "wise", (m.group(1) if m else "?")


def parse_cli(wall, code, out, err):
    """What the PyWiSE command line said."""
    if code is None:
        return {"status": "timeout", "wall": wall, "bugs": None}
    if "RecursionError" in err:
        return {"status": "RecursionError", "wall": wall, "bugs": out.count("BUG FOUND")}
    if code != 0:
        last = (err.strip().splitlines() or [f"exit {code}"])[-1]
        return {"status": f"error: {last[:60]}", "wall": wall, "bugs": None}
    bugs = out.count("BUG FOUND")
    if bugs == 0 and "No bug found at depth" not in out:
        return {"status": "unrecognised output", "wall": wall, "bugs": None}
    return {"status": "ok", "wall": wall, "bugs": bugs}


def count_states(py, path, assumption, nodes, limit, opts):
    wall, code, out, err = timed([str(py), "-c", COUNT_DRIVER, str(path), assumption,
                                  str(nodes), limit], opts.pywise_timeout)
    try:
        count = json.loads(out.strip().splitlines()[-1])
    except (json.JSONDecodeError, IndexError):
        count = {"status": "timeout" if code is None else f"driver failed: {err[-200:]}",
                 "states": None, "bugs": None}
    count["wall"] = wall
    return count


def run_program(path, py, wise, opts):
    assumption, nodes = headers(path)
    name = path.stem
    res = {"name": name, "assume": assumption, "nodes": nodes}

    log(f"[{name}] wise -n {nodes} -a '{assumption}' ...")
    cli = parse_cli(*timed([str(wise), "-n", str(nodes), "-a", assumption, str(path)],
                           opts.pywise_timeout))
    res["cli"] = cli

    log(f"[{name}] counting PyWiSE states ...")
    res["count"] = count_states(py, path, assumption, nodes, "raise", opts)

    res["raised"] = None
    if cli["status"] == "RecursionError":
        log(f"[{name}] RecursionError: counting the states reached at the default limit ...")
        res["count_default"] = count_states(py, path, assumption, nodes, "default", opts)
        log(f"[{name}] RecursionError: re-running the CLI with a raised recursion limit ...")
        res["raised"] = parse_cli(*timed([str(py), "-c", CLI_RAISED, "-n", str(nodes),
                                          "-a", assumption, str(path)], opts.pywise_timeout))

    log(f"[{name}] wiser check --assume '{assumption}' --all ...")
    walls, report = [], None
    for _ in range(opts.wiser_repeat):
        w, code, out, err = timed([str(WISER), "check", str(path), "--assume", assumption,
                                   "--all", "--format", "json"], None)
        walls.append(w)
        try:
            report = json.loads(out)
        except json.JSONDecodeError:
            report = {"verdict": f"error: {(err.strip().splitlines() or ['?'])[-1][:60]}",
                      "stats": {"states": None}}
            break
    res["wiser"] = {"wall": statistics.median(walls), "verdict": report["verdict"],
                    "states": report["stats"].get("states"), "stats": report["stats"]}
    return res


def pywise_verdict(res):
    """'bug', 'no bug' (exhausted within the node bound, no bug) or why not."""
    c = res["count"]
    exhausted = c["status"] == "exhausted" and c["states"] <= res["nodes"]
    # The bug count of the run that finished: the CLI, or its raised-limit rerun.
    run = res["cli"] if res["cli"]["status"] == "ok" else res["raised"]
    bugs = run["bugs"] if run and run["status"] == "ok" else c.get("bugs")
    if bugs:
        return "bug"
    if bugs == 0 and exhausted:
        return "no bug"
    return "inconclusive"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", action="append", metavar="NAME", help="program stem; repeatable")
    ap.add_argument("--venv", metavar="DIR", help="reuse (or create and keep) this venv")
    ap.add_argument("--pywise-timeout", type=float, default=1800, metavar="SECS",
                    help="per PyWiSE process (default 1800)")
    ap.add_argument("--wiser-repeat", type=int, default=5, metavar="K",
                    help="median of K wiser runs (default 5)")
    opts = ap.parse_args()
    if not os.access(WISER, os.X_OK):
        log(f"{WISER} not found: build it first with `cargo build --release` in {ROOT}")
        return 2
    progs = sorted(PROGRAMS.glob("*.imp"))
    if opts.only:
        progs = [p for p in progs if p.stem in opts.only]
    if not progs:
        log("no matching programs")
        return 2

    tmp = None
    if opts.venv:
        venv = Path(opts.venv).resolve()
    else:
        tmp = tempfile.mkdtemp(prefix="pywise-bench-")
        venv = Path(tmp) / "venv"
    try:
        py, wise, version = setup_venv(venv)
        results = [run_program(p, py, wise, opts) for p in progs]
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)

    print(f"PyWiSE (wise-se {version}) vs wiser ({WISER}); wall times are whole processes.")
    header = ["program", "assumption", "-n", "PyWiSE CLI", "PyWiSE states", "PyWiSE s",
              "wiser", "wiser states", "wiser ms", "ratio", "agree"]
    rows = []
    all_agree = True
    notes = []
    for r in results:
        c, cli, w = r["count"], r["cli"], r["wiser"]
        pv = pywise_verdict(r)
        wv = {"bug": "bug", "safe": "no bug"}.get(w["verdict"], "inconclusive")
        agree = "yes" if pv == wv and pv != "inconclusive" else "NO"
        all_agree &= agree == "yes"
        if c["status"] == "exhausted":
            states = f"{c['states']:,}" + ("" if c["states"] <= r["nodes"] else " (> -n)")
        else:
            states = f">{c['states']:,} ({c['status']})" if c["states"] is not None else c["status"]
        cli_status = {"ok": f"{cli['bugs']} bug(s)" if cli["bugs"] else "no bug"}.get(
            cli["status"], cli["status"])
        ratio = f"{cli['wall'] / w['wall']:,.0f}x" if cli["status"] == "ok" else "-"
        rows.append([r["name"], r["assume"], str(r["nodes"]), cli_status, states,
                     f"{cli['wall']:.2f}", w["verdict"],
                     f"{w['states']:,}" if w["states"] is not None else "?",
                     f"{w['wall'] * 1000:.0f}", ratio, agree])
        if r["raised"]:
            rs = r["raised"]
            rstatus = {"ok": f"{rs['bugs']} bug(s)" if rs["bugs"] else "no bug"}.get(
                rs["status"], rs["status"])
            rratio = f"{rs['wall'] / w['wall']:,.0f}x" if rs["status"] == "ok" else "-"
            rows.append(["  (same, limit raised)", "", "", rstatus, "", f"{rs['wall']:.2f}",
                         "", "", "", rratio, ""])
            cd = r.get("count_default", {})
            at = (f" at state {cd['states']:,} of {c['states']:,}"
                  if cd.get("status") == "recursion_error" else "")
            notes.append(f"{r['name']}: the PyWiSE CLI died of a RecursionError{at} after "
                         f"{cli['wall']:.1f} s; with sys.setrecursionlimit raised it "
                         f"{'finished' if rs['status'] == 'ok' else 'ended: ' + rs['status']} "
                         f"in {rs['wall']:.1f} s ({rstatus}).")
    widths = [max(len(x) for x in col) for col in zip(header, *rows)]
    left = {0, 1, 3, 6, 10}

    def line(cells):
        return "  ".join(c.ljust(wd) if i in left else c.rjust(wd)
                         for i, (c, wd) in enumerate(zip(cells, widths)))

    print(line(header))
    print(line(["-" * wd for wd in widths]))
    for row in rows:
        print(line(row))
    print()
    print("PyWiSE states: elements of its task stream before Finished (counting driver, "
          "same calls as the CLI); ratio: PyWiSE CLI wall / wiser wall.")
    for n in notes:
        print("note: " + n)
    print("all agree on bug / no bug" if all_agree else "DISAGREEMENT (see the agree column)")
    return 0 if all_agree else 1


if __name__ == "__main__":
    sys.exit(main())
