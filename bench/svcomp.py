#!/usr/bin/env python3
"""Run wiser on a folder of SV-COMP tasks and score it, per property.

    python3 bench/svcomp.py [DIR] [--timeout 60] [--jobs N] [--wiser PATH]
                            [--engine check|check:joins|check:auto|bmc|prove|verify]
                            [--filter SUBSTR] [--category PREFIX] [--check-harness] [--json OUT]
                            [--witness-dir DIR]

DIR (default: ../shared/svcomp-dev beside the repository) holds category
folders of SV-COMP tasks: `.yml` files, each naming one C input file
(`input_files`) and its properties. Every `*.yml` under DIR is a task, and
each property it lists that wiser checks -- `unreach-call.prp`,
`no-overflow.prp`, `valid-memsafety.prp` -- is one verification task (a
row), checked with `--property NAME` and scored with its
`expected_verdict` (`true` or `false`); a `false` answer to
valid-memsafety is correct only with the `subproperty` the yml names
(`valid-deref`, `valid-free`, `valid-memtrack`), as SV-COMP counts it.
`options.data_model` (ILP32 when absent) picks gcc's `-m32` or `-m64` for
harnesses. A task without such a property is one row, listed as skipped:
it is shown, not scored. Tasks with threads (`pthread_create`)
run like the others; gcc cannot follow a witness's schedule, so their
`false` answers are confirmed by wiser's own replay of the witness (with
its schedule) on the interpreter, and `--check-harness` marks them `n/a
(threads)`.

Each task runs as

    wiser check TASK.yml --property P --format json --timeout T --jobs J --quiet

one after the other, in its own process group, killed (the whole group)
at T + 10 s of wall time. The binary is target/release/wiser unless
--wiser is given; it is built with `cargo build --release` if missing.

One row per task and property:

  property   unreach-call, no-overflow or valid-memsafety
  expected   the yml's verdict for the property (with valid-memsafety's
             subproperty for `false`: `false(valid-free)`)
  answer     true (verdict safe), false (verdict bug; for valid-memsafety
             with the subproperty of the bug's kind), unknown, or
             error / crash / killed / bad-json (all scored as unknown)
  result     correct, wrong, unknown (or skipped)
  time       wall time of the wiser process, seconds
  states     stats.states
  Z3         stats.solver_ms / wall time: the share of the run spent in
             Z3. solver_ms is summed over worker threads, so with
             --jobs > 1 it can exceed 100%.
  gcc        with --check-harness, for a `false` answer: confirmed when the
             harness compiled with the task's input file by gcc exits 101
             ("error reached") for unreach-call; under gcc's
             UndefinedBehaviorSanitizer (-fsanitize=signed-integer-overflow)
             reports a signed overflow at the bug's line for no-overflow;
             under AddressSanitizer (and its LeakSanitizer) reports an
             error of the bug's subproperty for valid-memsafety (a
             double free, a use after free, a leak, ...), or for
             valid-free when ASan shows nothing, glibc's own checks do
             in a build without it ("confirmed (by glibc's checks ...)":
             a freed address reused); else NOT CONFIRMED
  reason     why an answer is unknown: the report's `incomplete` list, or
             the first line of stderr (e.g. "unsupported in C programs:
             ..."), or the signal of a crash

Totals per category and property, per property, and overall: correct true, correct false, wrong,
unknown and SV-COMP's score (+2 correct true, +1 correct false, -16 wrong
false, -32 wrong true, 0 unknown).

--check-harness adds `--harness H.c` to every run; for each `false`
answer, `gcc -m32 -w INPUT H.c` (or -m64 under LP64) is built and run with
a 10 s limit. The exit code of this script is 1 when an answer is wrong or
(with --check-harness) a `false` answer is not confirmed, 2 on a usage
error (no tasks, no binary), else 0. --json OUT writes the rows and totals.

--witness-dir DIR adds `--witness DIR/CATEGORY__TASK.yml` to every run
(`CATEGORY__TASK.PROPERTY.yml` for a task with several properties) and
validates each witness written against
docs/schemas/svcomp-witness-2.0.schema.json; each row's reason ends in
`witness valid (ENTRY TYPE)`, `witness invalid: FIRST ERROR` (also listed
at the end) or `witness none` (no witness: an unknown answer), and a line
counts them. This needs the
Python packages jsonschema and PyYAML (`pip install jsonschema pyyaml`).

Stdlib only otherwise; the yml files are read by a small parser of the
subset they use (block mappings and sequences, quoted or plain scalars,
flow lists).
"""

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
DEFAULT_DIR = ROOT.parent / "shared" / "svcomp-dev"
DEFAULT_WISER = ROOT / "target" / "release" / "wiser"
GRACE = 10.0  # seconds past --timeout before the process group is killed
HARNESS_LIMIT = 10.0  # seconds for a compiled harness to run
ERROR_EXIT = 101  # the harness's exit code for "error reached"
PROPERTIES = ("unreach-call", "no-overflow", "valid-memsafety")

SCORE = {
    ("true", "true"): 2,
    ("false", "false"): 1,
    ("true", "false"): -16,  # expected true, answered false: a false alarm
    ("false", "true"): -32,  # expected false, answered true: a missed bug
}


# ---------------------------------------------------------------------------
# The yml subset


class YmlError(Exception):
    pass


def _strip_comment(line):
    """The line without a trailing `# comment` (outside quotes)."""
    quote = None
    for i, c in enumerate(line):
        if quote:
            if c == quote:
                quote = None
        elif c in "'\"":
            quote = c
        elif c == "#" and (i == 0 or line[i - 1] in " \t"):
            return line[:i]
    return line


def _scalar(text):
    """A scalar: quoted string, flow list, or plain text (true/false/null
    become Python values, everything else stays a string)."""
    t = text.strip()
    if not t:
        return None
    if t[0] == "[" and t.endswith("]"):
        inner = t[1:-1].strip()
        return [_scalar(p) for p in _split_flow(inner)] if inner else []
    if len(t) >= 2 and t[0] == t[-1] == "'":
        return t[1:-1].replace("''", "'")
    if len(t) >= 2 and t[0] == t[-1] == '"':
        return bytes(t[1:-1], "utf-8").decode("unicode_escape")
    low = t.lower()
    if low in ("true", "yes"):
        return True
    if low in ("false", "no"):
        return False
    if low in ("null", "~"):
        return None
    return t


def _split_flow(text):
    parts, cur, quote = [], "", None
    for c in text:
        if quote:
            cur += c
            if c == quote:
                quote = None
        elif c in "'\"":
            quote = c
            cur += c
        elif c == ",":
            parts.append(cur)
            cur = ""
        else:
            cur += c
    parts.append(cur)
    return [p for p in parts if p.strip()]


def _key_value(text):
    """`key: value` -> (key, value text), or None if `text` is no mapping
    entry."""
    m = re.match(r"""^(?:'([^']*)'|"([^"]*)"|([^'"\s:][^:]*?))\s*:(?:\s+(.*)|\s*$)""", text)
    if not m:
        return None
    key = next(g for g in m.groups()[:3] if g is not None)
    return key, (m.group(4) or "")


def parse_yml(text):
    """Parses the block-structured yml subset of SV-COMP task files."""
    lines = []
    for raw in text.splitlines():
        line = _strip_comment(raw).rstrip()
        if not line.strip() or line.strip() in ("---", "..."):
            continue
        if "\t" in line[: len(line) - len(line.lstrip())]:
            raise YmlError(f"tab in indentation: {raw!r}")
        lines.append((len(line) - len(line.lstrip(" ")), line.strip()))
    value, pos = _block(lines, 0, 0)
    if pos != len(lines):
        raise YmlError(f"unexpected line: {lines[pos][1]!r}")
    return value


def _block(lines, pos, indent):
    """The node starting at lines[pos], whose lines are indented by
    exactly `indent`."""
    if pos >= len(lines) or lines[pos][0] < indent:
        return None, pos
    indent = lines[pos][0]
    if lines[pos][1].startswith("- ") or lines[pos][1] == "-":
        return _sequence(lines, pos, indent)
    return _mapping(lines, pos, indent)


def _mapping(lines, pos, indent):
    out = {}
    while pos < len(lines) and lines[pos][0] == indent:
        text = lines[pos][1]
        kv = _key_value(text)
        if kv is None:
            raise YmlError(f"expected `key: value`: {text!r}")
        key, rest = kv
        pos += 1
        if rest.strip():
            out[key] = _scalar(rest)
        elif pos < len(lines) and (
            lines[pos][0] > indent
            or (lines[pos][0] == indent and lines[pos][1].startswith("-"))
        ):
            out[key], pos = _block(lines, pos, lines[pos][0])
        else:
            out[key] = None
    return out, pos


def _sequence(lines, pos, indent):
    out = []
    while pos < len(lines) and lines[pos][0] == indent and lines[pos][1].startswith("-"):
        item = lines[pos][1][1:]
        if not item.strip():
            pos += 1
            value, pos = _block(lines, pos, indent + 1)
            out.append(value)
            continue
        # `- key: value` starts a mapping whose further keys are indented
        # to the column after "- ".
        inner_indent = indent + 1 + (len(item) - len(item.lstrip(" ")))
        if _key_value(item.strip()) is not None:
            rest = [(inner_indent, item.strip())]
            end = pos + 1
            while end < len(lines) and lines[end][0] >= inner_indent:
                rest.append(lines[end])
                end += 1
            value, used = _mapping(rest, 0, inner_indent)
            if used != len(rest):
                raise YmlError(f"unexpected line: {rest[used][1]!r}")
            out.append(value)
            pos = end
        else:
            out.append(_scalar(item))
            pos += 1
    return out, pos


class Task:
    """One `.yml` task, read for what this script needs."""

    def __init__(self, yml, root):
        self.yml = yml
        rel = yml.relative_to(root)
        self.category = str(rel.parent) if str(rel.parent) != "." else root.name
        self.name = yml.stem
        # (property, expected "true"/"false"/None, subproperty or None)
        self.properties = []
        self.data_model = "ILP32"
        self.input = None
        self.problem = None  # why the task cannot be run at all
        try:
            doc = parse_yml(yml.read_text(encoding="utf-8", errors="replace"))
        except (OSError, YmlError) as e:
            self.problem = f"unreadable task: {e}"
            return
        if not isinstance(doc, dict):
            self.problem = "unreadable task: not a mapping"
            return
        files = doc.get("input_files")
        if isinstance(files, str):
            files = [files]
        if not isinstance(files, list) or len(files) != 1 or not isinstance(files[0], str):
            self.problem = f"input_files is not one file: {files!r}"
        else:
            self.input = (yml.parent / files[0]).resolve()
        for prop in doc.get("properties") or []:
            if not isinstance(prop, dict):
                continue
            pf = str(prop.get("property_file") or "")
            name = Path(pf).stem
            if name not in PROPERTIES or any(p[0] == name for p in self.properties):
                continue
            v = prop.get("expected_verdict")
            expected = None
            if isinstance(v, bool):
                expected = "true" if v else "false"
            elif isinstance(v, str) and v.lower() in ("true", "false"):
                expected = v.lower()
            sub = prop.get("subproperty")
            self.properties.append((name, expected, sub if isinstance(sub, str) else None))
        options = doc.get("options")
        if isinstance(options, dict) and isinstance(options.get("data_model"), str):
            self.data_model = options["data_model"].upper()

    @property
    def label(self):
        return f"{self.category}/{self.name}"

    def uses_threads(self):
        try:
            return b"pthread_create" in self.input.read_bytes()
        except OSError:
            return False


# ---------------------------------------------------------------------------
# Running


def first_line(data):
    for line in data.decode("utf-8", errors="replace").splitlines():
        line = line.strip()
        if line:
            return line
    return ""


def signal_name(sig):
    try:
        return signal.Signals(sig).name
    except ValueError:
        return f"signal {sig}"


def run_group(cmd, limit, cwd=None):
    """Runs `cmd` in a new process group with a wall limit: (returncode or
    None if killed, stdout, stderr, seconds)."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        cmd,
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        out, err = proc.communicate(timeout=limit)
        code = proc.returncode
    except subprocess.TimeoutExpired:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        out, err = proc.communicate()
        code = None
    except BaseException:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait()
        raise
    return code, out, err, time.perf_counter() - t0


def run_task(task, prop, args, wiser, workdir):
    """One row: `task` checked for `prop` (a (name, expected, subproperty)
    of task.properties, or None for a task without a property wiser
    checks)."""
    name, expected, subproperty = prop or ("-", None, None)
    if expected == "false" and subproperty:
        expected = f"false({subproperty})"
    row = {
        "category": task.category,
        "task": task.name,
        "property": name,
        "expected": expected or "?",
        "answer": "",
        "result": "",
        "time": None,
        "states": None,
        "solver_ms": None,
        "z3_share": None,
        "gcc": "",
        "reason": "",
        "bug": None,
        "engine": None,
        "proof_method": None,
    }
    if task.problem:
        row.update(answer="error", result="skipped", reason=task.problem)
        return row
    if prop is None:
        row.update(result="skipped", reason="no property wiser checks (unreach-call, no-overflow, valid-memsafety)")
        return row
    if not task.input.is_file():
        row.update(answer="error", result="skipped", reason=f"missing input file {task.input.name}")
        return row
    cmd = [
        str(wiser), args.engine.split(":")[0], str(task.yml),
        "--property", name,
        "--format", "json",
        "--timeout", f"{args.timeout:g}",
        "--quiet",
    ]  # fmt: skip
    if args.solver_timeout is not None:
        cmd += ["--solver-timeout", str(args.solver_timeout)]
    if args.engine.startswith("check"):
        # The time limit bounds a task; the state limit must not cut it
        # short (a loop of 10^6 concrete iterations is tens of millions
        # of states, a few seconds).
        cmd += ["--jobs", str(args.jobs), "--max-states", str(10**15)]
        if ":" in args.engine:
            cmd += ["--merge", args.engine.split(":")[1]]
    elif args.engine.startswith("prove"):
        # Invariants or nothing: no bounds to set; `prove:METHOD` picks
        # the methods after Houdini (auto, spacer, k-induction).
        if ":" in args.engine:
            cmd += ["--method", args.engine.split(":")[1]]
    elif args.engine == "verify":
        # The portfolio: check, deepening bmc and prove share the workers.
        cmd += ["--jobs", str(args.jobs)]
    else:
        # bmc: deepen the bound with unwinding assertions, so `safe` is
        # possible and a bug comes at the smallest bound.
        cmd += ["--unwind", "1", "--unwind-max", "1000", "--unwinding-assertions"]
    witness = None
    if args.witness_dir:
        suffix = f".{name}" if len(task.properties) > 1 else ""
        witness = Path(args.witness_dir) / f"{task.category.replace('/', '_')}__{task.name}{suffix}.yml"
        if witness.exists():
            witness.unlink()
        cmd += ["--witness", str(witness)]
    harness = None
    if args.check_harness and not task.uses_threads():
        harness = workdir / f"{task.category.replace('/', '_')}__{task.name}.harness.c"
        if harness.exists():
            harness.unlink()
        cmd += ["--harness", str(harness)]
    code, out, err, secs = run_group(cmd, args.timeout + GRACE)
    row["time"] = secs
    answer, reason = interpret(code, out, err, row)
    row["answer"] = answer
    row["reason"] = reason
    if secs > 0 and row["solver_ms"] is not None:
        row["z3_share"] = row["solver_ms"] / 1000.0 / secs
    if answer == "false" and name == "valid-memsafety":
        bug = row["bug"] or {}
        answer = f"false({bug.get('subproperty') or '?'})"
        row["answer"] = answer
    if answer in ("true",) or answer.startswith("false"):
        if expected is None:
            row["result"] = "n/a"
        else:
            row["result"] = "correct" if answer == expected else "wrong"
    elif expected is None:
        row["result"] = "n/a"
    else:
        row["result"] = "unknown"
    if witness is not None:
        row["witness"] = check_witness(witness, args.witness_schema)
    if args.check_harness and answer.startswith("false"):
        if task.uses_threads():
            row["gcc"] = "n/a (threads)"
        else:
            row["gcc"] = confirm(task, harness, workdir, name, row["bug"])
            if row["result"] == "wrong" and row["gcc"].startswith("confirmed"):
                # Scored as SV-COMP scores it; the reason says that gcc
                # itself reaches the error the task says is unreachable.
                row["reason"] = "the expected verdict is contradicted: gcc's build of the witness reaches the error"
    return row


def check_witness(path, validator):
    """`valid`, `invalid: FIRST ERROR` or `none` (no file written)."""
    import yaml  # checked in main()

    if not path.is_file():
        return "none"
    try:
        doc = yaml.safe_load(path.read_text())
    except (yaml.YAMLError, UnicodeDecodeError) as e:
        return f"invalid: not YAML: {first_line(str(e))}"
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
    if errors:
        e = errors[0]
        where = "/".join(str(p) for p in e.absolute_path)
        return f"invalid: {first_line(e.message)[:120]} at /{where}"
    kind = doc[0].get("entry_type", "?") if isinstance(doc, list) and doc else "?"
    return f"valid ({kind})"


def witness_validator():
    """The validator of docs/schemas/svcomp-witness-2.0.schema.json, or an
    exit with how to install what it needs."""
    try:
        import jsonschema
        import yaml  # noqa: F401  (check_witness reads the witnesses)
    except ImportError as e:
        die(f"--witness-dir needs the Python packages jsonschema and PyYAML ({e}): pip install jsonschema pyyaml")
    schema_path = Path(__file__).resolve().parent.parent / "docs" / "schemas" / "svcomp-witness-2.0.schema.json"
    schema = json.loads(schema_path.read_text())
    return jsonschema.Draft202012Validator(schema)


def interpret(code, out, err, row):
    """(answer, reason) from a finished wiser process; fills the stats of
    `row` from its JSON."""
    stderr_line = first_line(err)
    if code is None:
        return "killed", f"killed at the wall limit (timeout + {GRACE:g} s)"
    if code < 0:
        why = f"crash: {signal_name(-code)}"
        return "crash", f"{why}: {stderr_line}" if stderr_line else why
    report = None
    if out.strip():
        try:
            report = json.loads(out)
        except ValueError as e:
            return "bad-json", f"malformed JSON (exit {code}): {e}"
        if not isinstance(report, dict):
            return "bad-json", f"malformed JSON (exit {code}): not an object"
    if report is None:
        if code == 2:
            return "error", stderr_line or "error (exit 2, no message)"
        why = f"no report (exit {code})"
        return "crash", f"{why}: {stderr_line}" if stderr_line else why
    stats = report.get("stats") if isinstance(report.get("stats"), dict) else {}
    row["states"] = stats.get("states")
    row["solver_ms"] = stats.get("solver_ms")
    # `verify`: the engine of the portfolio that answered.
    portfolio = report.get("portfolio") if isinstance(report.get("portfolio"), dict) else {}
    row["engine"] = portfolio.get("answered_by") or report.get("engine")
    proof = report.get("proof") if isinstance(report.get("proof"), dict) else {}
    row["proof_method"] = proof.get("method")
    bugs = report.get("bugs") if isinstance(report.get("bugs"), list) else []
    if bugs and isinstance(bugs[0], dict):
        b = bugs[0]
        row["bug"] = {k: b.get(k) for k in ("kind", "subproperty", "line", "column", "reads")}
    verdict = report.get("verdict")
    incomplete = report.get("incomplete") if isinstance(report.get("incomplete"), list) else []
    internal = report.get("internal_errors") or []
    expected_code = {"safe": 0, "bug": 1, "unknown": 3}.get(verdict)
    if expected_code is None:
        return "bad-json", f"unexpected verdict {verdict!r} (exit {code})"
    if code != expected_code:
        return "bad-json", f"verdict {verdict} but exit {code}: {stderr_line}"
    if verdict == "safe":
        return "true", ""
    if verdict == "bug":
        return "false", ""
    reasons = [str(r) for r in incomplete]
    # Undefined behaviour outside the property: say which and where.
    outside = report.get("outside_property")
    if isinstance(outside, list) and outside and "outside_property" in reasons:
        where = [
            f"{o.get('kind')} at {o.get('line')}:{o.get('column')}"
            for o in outside[:2]
            if isinstance(o, dict)
        ]
        more = f", +{len(outside) - 2}" if len(outside) > 2 else ""
        i = reasons.index("outside_property")
        reasons[i] = f"outside_property ({', '.join(where)}{more})"
    if internal:
        reasons.append(f"{len(internal)} internal error(s)")
    # A refused or partly supported program explains itself on stderr.
    if stderr_line and (not reasons or "unsupported" in stderr_line):
        reasons.append(stderr_line)
    return "unknown", ", ".join(reasons) or "unknown (no reason given)"


# What gcc's sanitizers print for each valid-memsafety subproperty.
SANITIZED = {
    "valid-deref": ("heap-buffer-overflow", "heap-use-after-free", "stack-use-after-return",
                    "stack-buffer-overflow", "global-buffer-overflow", "SEGV"),
    "valid-free": ("double-free", "bad-free", "not malloc()-ed"),
    "valid-memtrack": ("LeakSanitizer",),
}

# What glibc's own allocator checks print, tried when AddressSanitizer
# shows nothing: a bug that needs a freed block's address reused (a
# witness read `a freed object's address is reused at 12:9`) never
# happens under its quarantine, and glibc's malloc reuses a block at once.
GLIBC_CHECKED = {
    "valid-free": ("double free detected", "free(): invalid pointer", "munmap_chunk(): invalid pointer"),
}


def confirm(task, harness, workdir, prop="unreach-call", bug=None):
    """Compiles the task's input with the harness and runs it. For
    unreach-call, `confirmed` when it exits 101; for no-overflow, when
    gcc's UndefinedBehaviorSanitizer reports a signed overflow at the
    bug's line; for valid-memsafety, when AddressSanitizer (with
    LeakSanitizer) reports an error of the bug's subproperty."""
    if harness is None or not harness.is_file():
        return "NOT CONFIRMED (no harness written)"
    gcc = shutil.which("gcc")
    if gcc is None:
        return "NOT CONFIRMED (no gcc)"
    flag = "-m64" if task.data_model == "LP64" else "-m32"
    exe = harness.with_suffix(".exe")
    sanitize = {
        "no-overflow": ["-fsanitize=signed-integer-overflow", "-fno-sanitize-recover=all"],
        "valid-memsafety": ["-fsanitize=address", "-g"],
    }.get(prop, [])
    # IEEE binary32/64 without x87 excess precision, as wiser computes.
    fp = ["-msse2", "-mfpmath=sse"] if flag == "-m32" else []
    cmd = [gcc, flag, *fp, "-w", *sanitize, str(task.input), str(harness), "-o", str(exe)]
    code, _out, err, _secs = run_group(cmd, 120.0, cwd=workdir)
    if code != 0:
        return f"NOT CONFIRMED (gcc failed: {first_line(err)})"
    code, _out, err, _secs = run_group([str(exe)], HARNESS_LIMIT, cwd=workdir)
    text = err.decode("utf-8", errors="replace")
    bug = bug or {}
    if prop == "no-overflow":
        at = f"{task.input.name}:{bug.get('line')}:"
        if "runtime error" in text and at in text:
            return "confirmed"
        return f"NOT CONFIRMED (no sanitizer report at {at})"
    if prop == "valid-memsafety":
        marks = SANITIZED.get(bug.get("subproperty") or "", ())
        if any(m in text for m in marks):
            return "confirmed"
        glibc = GLIBC_CHECKED.get(bug.get("subproperty") or "", ())
        if glibc:
            plain = harness.with_suffix(".glibc.exe")
            cmd = [gcc, flag, "-w", str(task.input), str(harness), "-o", str(plain)]
            code, _out, gerr, _secs = run_group(cmd, 120.0, cwd=workdir)
            if code == 0:
                code, _out, gerr, _secs = run_group([str(plain)], HARNESS_LIMIT, cwd=workdir)
                if any(m in gerr.decode("utf-8", errors="replace") for m in glibc):
                    return "confirmed (by glibc's checks: AddressSanitizer never reuses an address)"
        return f"NOT CONFIRMED (AddressSanitizer: {first_line(err) or 'nothing'})"
    if code == ERROR_EXIT:
        return "confirmed"
    if code is None:
        return f"NOT CONFIRMED (still running after {HARNESS_LIMIT:g} s)"
    if code < 0:
        return f"NOT CONFIRMED ({signal_name(-code)})"
    return f"NOT CONFIRMED (exit {code})"


def die(message):
    print(f"svcomp.py: {message}", file=sys.stderr)
    sys.exit(2)


def find_wiser(path):
    if path is not None:
        p = Path(path)
        if not (p.is_file() and os.access(p, os.X_OK)):
            die(f"{p} is not an executable file")
        return p.resolve()
    if not DEFAULT_WISER.is_file():
        print(f"svcomp.py: {DEFAULT_WISER} missing; cargo build --release", file=sys.stderr)
        r = subprocess.run(["cargo", "build", "--release"], cwd=ROOT)
        if r.returncode != 0 or not DEFAULT_WISER.is_file():
            die("cargo build --release failed")
    return DEFAULT_WISER


# ---------------------------------------------------------------------------
# Output


def fmt_row(r, show_gcc):
    time_s = "-" if r["time"] is None else f"{r['time']:.2f}"
    states = "-" if r["states"] is None else str(r["states"])
    z3 = "-" if r["z3_share"] is None else f"{100 * r['z3_share']:.0f}%"
    cols = [
        f"{r['category'][:18]:<18}",
        f"{r['task'][:36]:<36}",
        f"{r['property'][:15]:<15}",
        f"{r['expected']:<21}",
        f"{r['answer']:<21}",
        f"{r['result']:<8}",
        f"{time_s:>7}",
        f"{states:>9}",
        f"{z3:>5}",
    ]
    if show_gcc:
        cols.append(f"{(r['gcc'].split(' (')[0] if r['gcc'] else '-'):<13}")
    reason = r["reason"]
    if r.get("witness"):
        reason = (reason + "; " if reason else "") + "witness " + r["witness"]
    if r["gcc"].startswith("NOT") and "(" in r["gcc"]:
        reason = (reason + "; " if reason else "") + "gcc: " + r["gcc"].split(" (", 1)[1].rstrip(")")
    cols.append(reason)
    return " ".join(cols).rstrip()


def header(show_gcc):
    cols = [
        f"{'category':<18}", f"{'task':<36}", f"{'property':<15}", f"{'exp':<21}", f"{'answer':<21}",
        f"{'result':<8}", f"{'time s':>7}", f"{'states':>9}", f"{'Z3':>5}",
    ]  # fmt: skip
    if show_gcc:
        cols.append(f"{'gcc':<13}")
    cols.append("reason")
    return " ".join(cols)


def totals(rows):
    t = {"tasks": 0, "correct_true": 0, "correct_false": 0, "wrong_true": 0,
         "wrong_false": 0, "unknown": 0, "skipped": 0, "score": 0,
         "not_confirmed": 0, "crashes": 0}  # fmt: skip
    for r in rows:
        if r["result"] in ("skipped", "n/a"):
            t["skipped"] += 1
            continue
        t["tasks"] += 1
        if r["answer"] in ("crash", "bad-json"):
            t["crashes"] += 1
        if r["gcc"].startswith("NOT"):
            t["not_confirmed"] += 1
        # `false(valid-free)` scores as `false`; a wrong subproperty is
        # a wrong `false`.
        answer = r["answer"].split("(")[0]
        expected = r["expected"].split("(")[0]
        if r["result"] == "correct":
            t["correct_" + answer] += 1
            t["score"] += SCORE[(expected, answer)]
        elif r["result"] == "wrong":
            t["wrong_" + answer] += 1
            t["score"] += SCORE.get((expected, answer), -16)
        else:
            t["unknown"] += 1
    t["wrong"] = t["wrong_true"] + t["wrong_false"]
    return t


def totals_line(name, t):
    return (
        f"{name[:44]:<44} {t['tasks']:>5} {t['correct_true']:>7} {t['correct_false']:>8}"
        f" {t['wrong']:>6} {t['unknown']:>8} {t['skipped']:>8} {t['score']:>6}"
    )


def main():
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ap.add_argument("dir", nargs="?", default=str(DEFAULT_DIR), help="folder of tasks (default: %(default)s)")
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds per task (default 60)")
    ap.add_argument("--jobs", type=int, default=min(os.cpu_count() or 1, 64), help="wiser --jobs (default: the number of cores)")
    ap.add_argument("--wiser", default=None, help="the wiser binary (default: target/release/wiser, built if missing)")
    ap.add_argument("--filter", action="append", default=[], help="only tasks whose CATEGORY/NAME contains this (repeatable)")
    ap.add_argument("--category", action="append", default=[], metavar="PREFIX",
                    help="only tasks whose category starts with this (repeatable; with --filter, tasks that match both)")
    ap.add_argument("--engine", default="check", help="check, check:joins, check:auto (state merging), bmc, prove, prove:METHOD (auto, spacer, k-induction), or verify (the portfolio of check, bmc and prove) (default: check)")
    ap.add_argument("--solver-timeout", type=int, default=None, metavar="MS", help="wiser --solver-timeout: milliseconds per solver query (default: wiser's, 10000); floating-point queries can need more")
    ap.add_argument("--check-harness", action="store_true", help="confirm each `false` answer by compiling its harness with gcc")
    ap.add_argument("--json", metavar="OUT", default=None, help="write rows and totals as JSON")
    ap.add_argument("--witness-dir", metavar="DIR", default=None, help="write each run's SV-COMP witness into DIR and validate it against the witness schema")
    args = ap.parse_args()
    args.witness_schema = None
    if args.witness_dir:
        args.witness_schema = witness_validator()
        Path(args.witness_dir).mkdir(parents=True, exist_ok=True)
    if args.timeout <= 0:
        ap.error("--timeout must be positive")
    if args.jobs < 1:
        ap.error("--jobs must be at least 1")
    if args.solver_timeout is not None and args.solver_timeout < 1:
        ap.error("--solver-timeout must be positive")

    root = Path(args.dir).resolve()
    if not root.is_dir():
        die(f"{root} is not a folder")
    ymls = sorted(root.rglob("*.yml"))
    tasks = [Task(y, root) for y in ymls]
    if args.filter:
        tasks = [t for t in tasks if any(f in t.label for f in args.filter)]
    if args.category:
        tasks = [t for t in tasks if t.label.split("/")[0].startswith(tuple(args.category))]
    if not tasks:
        die(f"no tasks (*.yml) under {root}" + (" matching the filter" if args.filter or args.category else ""))
    wiser = find_wiser(args.wiser)

    print(f"# {len(tasks)} tasks under {root}; {wiser} --timeout {args.timeout:g} --jobs {args.jobs}")
    print(header(args.check_harness))
    rows = []
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="svcomp-") as tmp:
        workdir = Path(tmp)
        try:
            for task in tasks:
                for prop in task.properties or [None]:
                    row = run_task(task, prop, args, wiser, workdir)
                    rows.append(row)
                    print(fmt_row(row, args.check_harness), flush=True)
        except KeyboardInterrupt:
            print(f"# interrupted after {len(rows)} of {len(tasks)} tasks", flush=True)
    wall = time.perf_counter() - t0

    print()
    print(f"{'category property':<44} {'tasks':>5} {'ok true':>7} {'ok false':>8} {'wrong':>6} {'unknown':>8} {'skipped':>8} {'score':>6}")
    cats = {}
    props = {}
    for r in rows:
        cats.setdefault(f"{r['category']} {r['property']}", []).append(r)
        props.setdefault(r["property"], []).append(r)
    per_cat = {c: totals(rs) for c, rs in sorted(cats.items())}
    for c, t in per_cat.items():
        print(totals_line(c, t))
    per_prop = {p: totals(rs) for p, rs in sorted(props.items()) if p != "-"}
    for p, t in per_prop.items():
        print(totals_line(f"all {p}", t))
    overall = totals(rows)
    print(totals_line("overall", overall))
    print(
        f"# {wall:.0f} s; score {overall['score']}; wrong: {overall['wrong_false']} false alarm(s),"
        f" {overall['wrong_true']} missed bug(s)"
        + (f"; harnesses not confirmed: {overall['not_confirmed']}" if args.check_harness else "")
        + (f"; crashes or bad output: {overall['crashes']}" if overall["crashes"] else "")
    )
    methods = {}
    for r in rows:
        if r["answer"] == "true" and r["proof_method"]:
            methods[r["proof_method"]] = methods.get(r["proof_method"], 0) + 1
    if methods:
        print("# proved by: " + ", ".join(f"{m} {n}" for m, n in sorted(methods.items())))
    by_engine = {}
    for r in rows:
        if r["result"] == "correct" and r["engine"]:
            key = (r["engine"], r["answer"].split("(")[0])
            by_engine[key] = by_engine.get(key, 0) + 1
    if by_engine:
        print("# correct answers by engine: " + ", ".join(f"{e} {a} {n}" for (e, a), n in sorted(by_engine.items())))
    if args.witness_dir:
        ws = [r.get("witness", "") for r in rows if "witness" in r]
        valid = [w for w in ws if w.startswith("valid")]
        print(
            f"# witnesses in {args.witness_dir}: {len(valid)} valid"
            f" ({sum('violation' in w for w in valid)} violation, {sum('invariant_set' in w for w in valid)} correctness),"
            f" {sum(w.startswith('invalid') for w in ws)} invalid, {sum(w == 'none' for w in ws)} not written"
        )
        for r in rows:
            if r.get("witness", "").startswith("invalid"):
                print(f"#   {r['category']}/{r['task']} ({r['property']}): {r['witness']}")
    unknowns = [r for r in rows if r["result"] == "unknown"]
    if unknowns:
        print("# unknown:")
        for r in unknowns:
            print(f"#   {r['category']}/{r['task']} ({r['property']}): {r['reason']}")

    if args.json:
        data = {
            "dir": str(root),
            "wiser": str(wiser),
            "timeout": args.timeout,
            "jobs": args.jobs,
            "wall_seconds": wall,
            "rows": rows,
            "categories": per_cat,
            "properties": per_prop,
            "overall": overall,
        }
        Path(args.json).write_text(json.dumps(data, indent=1) + "\n")
    bad = overall["wrong"] > 0 or (args.check_harness and overall["not_confirmed"] > 0)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
