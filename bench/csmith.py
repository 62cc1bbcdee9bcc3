#!/usr/bin/env python3
"""Csmith programs, made self-checking against gcc, through wiser.

For each seed, Csmith (Debian's `csmith` and `libcsmith-dev`) writes a
random C program with pointers, structures, arrays, unions, bit-fields
and packed structures (Csmith's defaults less floats and `argc`: see
--csmith-args) that prints a checksum of its globals. gcc (`-m32 -msse2 -mfpmath=sse`: the data
model wiser reads C in by default, with IEEE float arithmetic) compiles
and runs it (with `--float`, a float's bytes are hashed through a union,
see FLOAT_BYTES), and the program is rewritten to check its
own checksum: `platform_main_end(crc, ...)` becomes `if (crc != GCC's)
reach_error();`. Then:

* `wiser run` on it must end normally (a `reach_error` is a disagreement
  with gcc; any other error wiser reports is one too, as Csmith's
  programs have no undefined behaviour — except, with `--float`, a float
  constant converted to an integer type that cannot hold it: a
  `float_conversion` that gcc's `-fsanitize=float-cast-overflow` also
  reports is counted apart, as undefined behaviour both agree on);
* `wiser run` on its mutant, which expects a checksum one bit off, must
  reach `reach_error` (or the check above proves nothing);
* with --check, `wiser check --property unreach-call` on it must not
  report a bug (a deterministic program: `safe` once every path is run).

A program wiser refuses is counted by the first line of its error. The
script prints one line per program and the totals, and exits 1 on a
disagreement; `.ci/run` installs the two Debian packages and runs 30
programs with floats. Full runs:

    python3 bench/csmith.py --count 500            # seeds 1..500
    python3 bench/csmith.py --count 50 --check     # also wiser check
"""

import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tempfile
import time

from common import ROOT

CSMITH_INCLUDE = "/usr/include/csmith"
DEFAULT_ARGS = "--no-argc --no-float"


def sh(cmd, timeout, env=None, cwd=None):
    """Runs `cmd`: (exit code or 'timeout', stdout, stderr)."""
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env, cwd=cwd)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return "timeout", "", ""


# Csmith hashes a float global's bytes through a `char *`
# (`transparent_crc_bytes(&g, sizeof g, ...)`); wiser keeps a `char *` from
# pointing into a float, so the bytes are read through a union instead —
# the same bytes in the same order, in the program gcc computes the
# checksum of too.
FLOAT_BYTES = """
static void wiser_crc_f32(float x)
{
    union { float f; unsigned char b[4]; } u;
    int i;
    u.f = x;
    for (i = 0; i < 4; i++)
        crc32_byte(u.b[i]);
}
static void wiser_crc_f64(double x)
{
    union { double f; unsigned char b[8]; } u;
    int i;
    u.f = x;
    for (i = 0; i < 8; i++)
        crc32_byte(u.b[i]);
}
#define transparent_crc_bytes(p, n, name, flag) ((n) == 4 ? wiser_crc_f32(*(p)) : wiser_crc_f64(*(p)))
"""


def floats_hashed_through_unions(text):
    """The program with its floats' bytes hashed through unions."""
    include = '#include "csmith.h"\n'
    return text.replace(include, include + FLOAT_BYTES, 1)


def ubsan_confirms(report, gcc, src, work, seed):
    """Did `wiser run` (its JSON `report`) stop at a `float_conversion`
    that gcc's UndefinedBehaviorSanitizer also reports in the program?"""
    try:
        outcome = json.loads(report).get("outcome")
    except ValueError:
        return False
    if outcome != "float_conversion":
        return False
    exe = os.path.join(work, f"p{seed}_ubsan")
    flags = ["-fsanitize=float-cast-overflow", f"-I{CSMITH_INCLUDE}"]
    code, _, _ = sh([*gcc, *flags, src, "-o", exe, "-lm"], 60)
    if code != 0:
        return False
    _, _, err = sh([exe], 10)
    return "outside the range of representable values" in err


def self_checking(text, crc):
    """The program, checking that its checksum is `crc` instead of
    printing it; None when Csmith's closing call is not there."""
    call = re.compile(r"platform_main_end\(crc32_context \^ 0xFFFFFFFFUL, print_hash_value\);")
    if not call.search(text):
        return None
    check = f"if ((crc32_context ^ 0xFFFFFFFFUL) != 0x{crc:08X}UL) reach_error();"
    text = call.sub(check, text)
    return "extern void reach_error(void);\n" + text


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=100, help="how many programs (default 100)")
    ap.add_argument("--first-seed", type=int, default=1, help="the first Csmith seed (default 1)")
    ap.add_argument("--timeout", type=float, default=20, help="seconds for each wiser command (default 20)")
    ap.add_argument("--check", action="store_true", help="also run `wiser check` on each program")
    ap.add_argument("--csmith-args", default=DEFAULT_ARGS, help=f"Csmith's options (default: {DEFAULT_ARGS})")
    ap.add_argument("--wiser", default=str(ROOT / "target/release/wiser"), help="the wiser binary")
    ap.add_argument("--keep", help="a folder to keep the programs in")
    args = ap.parse_args()
    if not os.path.exists(args.wiser):
        subprocess.run(["cargo", "build", "--release", "-q"], cwd=ROOT, check=True)
    env = dict(os.environ, CPATH=CSMITH_INCLUDE)
    work = args.keep or tempfile.mkdtemp(prefix="wiser-csmith-")
    os.makedirs(work, exist_ok=True)
    totals = collections.Counter()
    refused = collections.Counter()
    disagreements = []
    start = time.time()
    for seed in range(args.first_seed, args.first_seed + args.count):
        src = os.path.join(work, f"p{seed}.c")
        # (Csmith writes `platform.info` where it runs.)
        code, _, err = sh(["csmith", "--seed", str(seed), *args.csmith_args.split(), "-o", src], 60, cwd=work)
        if code != 0:
            totals["csmith failed"] += 1
            continue
        exe = os.path.join(work, f"p{seed}")
        text = open(src).read()
        if "--float" in args.csmith_args.split():
            text = floats_hashed_through_unions(text)
            open(src, "w").write(text)
        # SSE arithmetic: IEEE binary32/64 as wiser computes, not x87's.
        gcc = ["gcc", "-m32", "-msse2", "-mfpmath=sse", "-w", "-O0"]
        code, _, err = sh([*gcc, f"-I{CSMITH_INCLUDE}", src, "-o", exe, "-lm"], 60)
        if code != 0:
            totals["gcc failed"] += 1
            continue
        code, out, _ = sh([exe], 10)
        m = re.search(r"checksum = ([0-9A-F]+)", out)
        if code != 0 or not m:
            totals["no gcc checksum (its run timed out or failed)"] += 1
            continue
        crc = int(m.group(1), 16)
        checked = self_checking(text, crc)
        if checked is None:
            totals["no checksum call"] += 1
            continue
        prog = os.path.join(work, f"p{seed}_check.c")
        mutant = os.path.join(work, f"p{seed}_mutant.c")
        open(prog, "w").write(checked)
        open(mutant, "w").write(self_checking(text, crc ^ 1))
        totals["programs"] += 1
        code, out, err = sh([args.wiser, "run", prog, "--format", "json"], args.timeout, env)
        verdict = ""
        if code == "timeout":
            verdict = "timeout"
            totals["run timeout"] += 1
        elif code == 2:
            reason = next((line for line in err.splitlines() if line.startswith("error")), err.strip()[:120])
            reason = re.sub(r"`[^`]*`", "`…`", reason) if "is used as" in reason else reason
            refused[reason] += 1
            totals["refused"] += 1
            verdict = "refused"
        elif code == 0:
            totals["accepted"] += 1
            totals["run agrees"] += 1
            verdict = "agrees"
        elif ubsan_confirms(out, gcc, src, work, seed):
            # Csmith's programs avoid undefined behaviour except in
            # conversions of float constants to integers; gcc's own
            # sanitizer then reports what wiser does.
            totals["accepted"] += 1
            totals["undefined behaviour (float_conversion; gcc's UBSan agrees)"] += 1
            verdict = "UB (UBSan)"
        else:
            totals["accepted"] += 1
            totals["run disagrees"] += 1
            verdict = "DISAGREES"
            disagreements.append((seed, "run", out[-400:] + err[-400:]))
        mutant_verdict = "-"
        if verdict == "agrees":
            code, out, err = sh([args.wiser, "run", mutant], args.timeout, env)
            if code == 1 and "error function called" in out:
                totals["mutant found"] += 1
                mutant_verdict = "found"
            elif code == "timeout":
                totals["mutant timeout"] += 1
                mutant_verdict = "timeout"
            else:
                totals["mutant missed"] += 1
                mutant_verdict = "MISSED"
                disagreements.append((seed, "mutant", out[-400:] + err[-400:]))
        check_verdict = "-"
        if args.check and verdict == "agrees":
            code, out, err = sh([args.wiser, "check", prog, "--property", "unreach-call", "-j", "1", "--timeout", str(int(args.timeout))], args.timeout + 10, env)
            if code == 1:
                totals["check disagrees"] += 1
                check_verdict = "DISAGREES"
                disagreements.append((seed, "check", out[-400:] + err[-400:]))
            elif code in (0, 3):
                totals["check agrees" if code == 0 else "check unknown"] += 1
                check_verdict = "safe" if code == 0 else "unknown"
            else:
                totals["check other"] += 1
                check_verdict = f"exit {code}"
        print(f"seed {seed:5d}  run {verdict:9s}  mutant {mutant_verdict:7s}  check {check_verdict}", flush=True)
    elapsed = time.time() - start
    print()
    print(f"# {totals['programs']} programs with a gcc checksum in {elapsed:.0f} s (seeds {args.first_seed}..{args.first_seed + args.count - 1}; {args.csmith_args})")
    for key in sorted(totals):
        print(f"{key:45s} {totals[key]}")
    n = totals["programs"]
    if n:
        print(f"accepted: {100.0 * totals['accepted'] / n:.1f}%")
    if refused:
        print("\n# refusals by reason")
        for reason, k in refused.most_common():
            print(f"{k:5d}  {reason}")
    if disagreements:
        print("\n# disagreements")
        for seed, what, tail in disagreements:
            print(f"seed {seed} ({what}):\n{tail}\n")
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
