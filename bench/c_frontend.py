#!/usr/bin/env python3
"""Time of the C front end (preprocessing, parsing, checking, lowering).

    python3 bench/c_frontend.py [--runs 5] [FILE ...]

Without files it times a generated 30 KB `.i` file (functions with loops,
arrays, switches and nondeterministic inputs, the shapes of SV-COMP's
sequential tasks) and every sequential task input of ../shared/svcomp-dev.
Prints the best of --runs wall times per file, as measured inside the
process by `cargo run --release -p wiser-c --example lower FILE --quiet`.
The issue's target: a 30 KB `.i` file in under 50 ms.
"""
import argparse, pathlib, re, subprocess, sys, tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
LOWER = ROOT / "target" / "release" / "examples" / "lower"

FUNC = """
int f{k}(int a[], int n) {{
  int s = 0;
  for (int i = 0; i < n; i++) {{
    switch (a[i] % 4) {{
      case 0: s += a[i]; break;
      case 1: s -= 1;
      case 2: s ^= i; break;
      default: s = s > 100 ? s / 2 : s + 3;
    }}
    if (s > 1000 && i % 7 == 3) {{ s = (s << 1) & 0xffff; }}
  }}
  unsigned char c = (unsigned char)s;
  while (c > 10u) c -= 3;
  return s + c;
}}
"""

MAIN = """
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
void reach_error(void) {{}}
int data[64];
int main(void) {{
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 64) abort();
  int t = 0;
{calls}
  if (t == 123456789) reach_error();
  return 0;
}}
"""


def generated(size=30_000):
    parts, k = [], 0
    while sum(map(len, parts)) < size - 600:
        parts.append(FUNC.format(k=k))
        k += 1
    calls = "\n".join(f"  t += f{i}(data, n);" for i in range(k))
    return "".join(parts) + MAIN.format(calls=calls)


def best_ms(path, runs):
    best = None
    for _ in range(runs):
        out = subprocess.run([str(LOWER), str(path), "--quiet"], capture_output=True, text=True)
        m = re.search(r"in ([0-9.]+) ms", out.stderr)
        if not m:
            return None, out.stderr.strip().splitlines()[0] if out.stderr.strip() else "no output"
        ms = float(m.group(1))
        best = ms if best is None else min(best, ms)
    return best, "ok" if "instructions" in out.stderr else "refused"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="*")
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    subprocess.run(["cargo", "build", "--release", "-q", "-p", "wiser-c", "--example", "lower"], cwd=ROOT, check=True)
    files = [pathlib.Path(f) for f in args.files]
    if not files:
        tmp = pathlib.Path(tempfile.mkdtemp()) / "generated_30k.i"
        tmp.write_text(generated())
        files.append(tmp)
        dev = ROOT.parent / "shared" / "svcomp-dev"
        files += sorted(p for p in dev.glob("*/*") if p.suffix in (".c", ".i") and "pthread" not in p.parent.name)
    print(f"{'file':50} {'bytes':>7} {'best ms':>8}  status")
    worst = 0.0
    for f in files:
        ms, status = best_ms(f, args.runs)
        shown = f"{ms:8.2f}" if ms is not None else "       -"
        worst = max(worst, ms or 0.0)
        print(f"{f.name[:50]:50} {f.stat().st_size:7} {shown}  {status}")
    print(f"# slowest: {worst:.2f} ms")


if __name__ == "__main__":
    sys.exit(main())
