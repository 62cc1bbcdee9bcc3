#!/usr/bin/env python3
"""Partial-order reduction: the states `wiser check` explores on the
programs with threads, with reduction (`--por on`, the default: sleep sets
and persistent sets) and without (`--por off`: every interleaving, each
state expanded once), with the verdicts and wall times.

    python3 bench/por.py [--timeout 120] [--wiser PATH] [FILES...]

Default programs: the examples that spawn threads (IMP and C), each with
the arguments of its `# args:` header. The binary is target/release/wiser;
build it first with `cargo build --release`.
"""

import argparse
import json
import pathlib
import re
import subprocess
import time

from common import ROOT, header_args


def threaded(path):
    text = path.read_text()
    return re.search(r"\bspawn\b", text) is not None or "pthread_create" in text


def run(wiser, path, por, timeout):
    cmd = [wiser, "check", str(path), "--por", por, "--format", "json",
           "--timeout", str(timeout), "--quiet"] + header_args(path, "args")
    start = time.monotonic()
    out = subprocess.run(cmd, capture_output=True, timeout=timeout + 30)
    secs = time.monotonic() - start
    try:
        report = json.loads(out.stdout.decode().splitlines()[0])
    except (ValueError, IndexError):
        return ("error", None, secs)
    return (report.get("verdict"), report.get("stats", {}).get("states"), secs)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="*")
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--wiser", default=str(ROOT / "target/release/wiser"))
    args = ap.parse_args()
    files = [pathlib.Path(f) for f in args.files] or sorted(
        p for p in list((ROOT / "examples").glob("*.imp")) + list((ROOT / "examples/c").glob("*.c"))
        if threaded(p))
    print(f"{'program':<28} {'verdict':>8} {'states (por on)':>16} {'ms':>7} "
          f"{'states (por off)':>17} {'ms':>8} {'ratio':>8}")
    for f in files:
        on = run(args.wiser, f, "on", args.timeout)
        off = run(args.wiser, f, "off", args.timeout)
        verdict = on[0] if on[0] == off[0] else f"{on[0]}/{off[0]}"
        ratio = f"{off[1] / on[1]:.1f}x" if on[1] and off[1] else "-"
        name = str(f.relative_to(ROOT)) if f.is_absolute() else str(f)
        print(f"{name:<28} {verdict:>8} {on[1] or '-':>16} {on[2] * 1000:>7.0f} "
              f"{off[1] or '-':>17} {off[2] * 1000:>8.0f} {ratio:>8}")


if __name__ == "__main__":
    main()
