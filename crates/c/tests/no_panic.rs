//! No input makes the C front end panic: a few C programs in the
//! supported subset, mutated about 200 ways (truncations, byte flips,
//! random tokens inserted, slices deleted or doubled), and inputs nested
//! 10,000 deep. `compile_file` must return `Ok` or `Err`; an error must
//! render (`Sources::render`), and so must every warning; a compiled
//! program must run on the concrete interpreter (a few thousand steps)
//! without panicking.
//!
//! The deeply nested inputs run in a child process (this test binary
//! again), so that a stack overflow, which aborts the process, is
//! reported as a failure of that input instead of killing every test; a
//! child that runs longer than a minute is killed and reported too.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};
use wiser_c::{DataModel, Options};
use wiser_testkit::Xorshift as Rng;

const SNIPPETS: [&str; 5] = [
    r#"extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "a.c", 3, __PRETTY_FUNCTION__); }
extern int __VERIFIER_nondet_int(void);
extern unsigned char __VERIFIER_nondet_uchar(void);
void __VERIFIER_assert(int cond) { if (!(cond)) { ERROR: {reach_error();abort();} } return; }
int main() {
  unsigned char n = __VERIFIER_nondet_uchar();
  unsigned char i, s = 0;
  for (i = 0; i < n; i++) { s += i; }
  __VERIFIER_assert(s >= 0);
  return 0;
}
"#,
    r#"int sum(int a[], int n) { int s = 0; for (int i = 0; i < n; ++i) s += a[i]; return s; }
int g[10];
static int counter;
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 10) return 0;
  int m[3][4] = {{1, 2}, {3}};
  long long x = (long long)n << 3;
  switch (n) { case 1: x++; case 2: x--; break; default: x = -x; }
  while (n-- > 0) { g[n] = n * 2; if (g[n] == 7) goto out; }
out:
  do { counter += 1; } while (counter < 3);
  return sum(g, 10) + m[1][0] + (int)(x ? x : 1) + (n, 2);
}
"#,
    r#"typedef unsigned int u32;
enum color { RED, GREEN = 5, BLUE };
int power(int b, u32 e) { return e == 0 ? 1 : b * power(b, e - 1); }
void reach_error(void);
int main() {
  const volatile short s = -3;
  _Bool f = s;
  u32 u = 4294967295u;
  char c = (char)u;
  if (sizeof(long) == 4 && c != -1) reach_error();
  if (power(2, 10) != 1024) reach_error();
  u %= 7; u ^= ~0u; u >>= 2; u <<= 1; u |= 3; u &= 0xff;
  enum color k = BLUE;
  return f + k + !u + -s;
}
"#,
    r#"int top(char input[4]) {
  int cnt = 0;
  if (input[0] == 'b') cnt++;
  if (input[1] == 'a') cnt++;
  if (input[2] == 'd') cnt++;
  if (input[3] == '!') cnt++;
  if (cnt >= 4) __VERIFIER_error();
  return cnt;
}
int main() { char in[4]; for (int i = 0; i < 4; i++) in[i] = __VERIFIER_nondet_char(); return top(in); }
"#,
    r#"int main() {
  int x = ({ int y = 3; y + 1; });
  __extension__ unsigned long long z = 1ULL << 40;
  int n = __VERIFIER_nondet_int();
  int vla[n > 0 && n < 100 ? n : 1];
  vla[0] = x;
  assume_abort_if_not(n != 5);
  __VERIFIER_assume(z > 0);
  if (n == 6) exit(0);
  float unsupported = 1.5;
  return vla[0];
}
"#,
];

/// Tokens to insert.
const TOKENS: [&str; 40] = [
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    ";",
    ",",
    "int",
    "unsigned",
    "long",
    "char",
    "_Bool",
    "*",
    "/",
    "%",
    "<<",
    ">>",
    "+=",
    "++",
    "--",
    "?",
    ":",
    "sizeof",
    "return",
    "if",
    "else",
    "while",
    "for",
    "goto",
    "case",
    "default:",
    "switch",
    "0",
    "-1",
    "4294967295u",
    "0x7fffffffffffffffLL",
    "\"str\"",
    "'c'",
    "__attribute__((noreturn))",
];

/// Mutant number `k` of `src`.
fn mutate(src: &[u8], k: usize, rng: &mut Rng) -> Vec<u8> {
    let mut v = src.to_vec();
    let at = |rng: &mut Rng, v: &Vec<u8>| rng.index(v.len() + 1);
    match k % 6 {
        0 => {
            let n = at(rng, &v);
            v.truncate(n);
        }
        1 => {
            for _ in 0..1 + rng.index(4) {
                if !v.is_empty() {
                    let i = rng.index(v.len());
                    v[i] = if rng.index(3) == 0 {
                        rng.index(256) as u8
                    } else {
                        b" (){}[];,*+-<>=!~?:0123456789abcxyz\"'\\#\n"[rng.index(40)]
                    };
                }
            }
        }
        2 => {
            for _ in 0..1 + rng.index(3) {
                let i = at(rng, &v);
                let t = format!(" {} ", TOKENS[rng.index(TOKENS.len())]);
                v.splice(i..i, t.into_bytes());
            }
        }
        3 => {
            let i = at(rng, &v);
            let j = (i + 1 + rng.index(40)).min(v.len());
            v.drain(i.min(j)..j);
        }
        4 => {
            let i = at(rng, &v);
            let j = (i + 1 + rng.index(80)).min(v.len());
            let piece: Vec<u8> = v[i.min(j)..j].to_vec();
            v.splice(j..j, piece);
        }
        _ => {
            // A whole line swapped with another.
            let mut lines: Vec<Vec<u8>> = v.split(|b| *b == b'\n').map(|l| l.to_vec()).collect();
            let (a, b) = (rng.index(lines.len()), rng.index(lines.len()));
            lines.swap(a, b);
            v = lines.join(&b'\n');
        }
    }
    v
}

fn scratch(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("wiser-c-no-panic-{}-{tag}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

/// Compiles `bytes` as a file with extension `ext`; `Err` says what
/// panicked.
fn exercise(dir: &Path, name: &str, bytes: &[u8], ext: &str) -> Result<(), String> {
    let path = dir.join(format!("{name}.{ext}"));
    std::fs::write(&path, bytes).map_err(|e| e.to_string())?;
    let result = catch_unwind(AssertUnwindSafe(|| {
        let mut sources = wiser_ir::Sources::new();
        for model in [DataModel::Ilp32, DataModel::Lp64] {
            let options = Options {
                data_model: model,
                ..Default::default()
            };
            match wiser_c::compile_file(&mut sources, &path, &options) {
                Err(d) => {
                    let text = sources.render(&d);
                    assert!(!text.is_empty(), "an error renders as nothing");
                }
                Ok(c) => {
                    for w in &c.warnings {
                        let _ = sources.render_warning(w);
                    }
                    let _ = wiser_semantics::concrete::run_with(
                        &c.ir,
                        &wiser_semantics::Input::default(),
                        5_000,
                        wiser_semantics::Options::default(),
                    );
                }
            }
        }
    }));
    result.map_err(|p| {
        p.downcast_ref::<String>()
            .cloned()
            .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "a panic".into())
    })
}

#[test]
fn mutated_programs_do_not_panic() {
    let dir = scratch("mutants");
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let mut failures = Vec::new();
    let mut n = 0;
    for (s, src) in SNIPPETS.iter().enumerate() {
        if let Err(p) = exercise(&dir, &format!("s{s}"), src.as_bytes(), "i") {
            failures.push(format!("snippet {s} itself: {p}"));
        }
        for k in 0..40 {
            let m = mutate(src.as_bytes(), k, &mut rng);
            // Most through `.i` (no preprocessor); every tenth as `.c`.
            let ext = if k % 10 == 9 { "c" } else { "i" };
            let name = format!("s{s}_m{k}");
            n += 1;
            if let Err(p) = exercise(&dir, &name, &m, ext) {
                let kept = dir.join(format!("{name}.{ext}"));
                failures.push(format!("{}: {p}", kept.display()));
            }
        }
    }
    if failures.is_empty() {
        let _ = std::fs::remove_dir_all(&dir);
    }
    assert!(
        failures.is_empty(),
        "{} of {n} mutants panicked (inputs kept):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Inputs nested 10,000 deep (or long), by name.
fn deep_inputs() -> Vec<(&'static str, String)> {
    let n = 10_000;
    vec![
        (
            "open parentheses",
            format!("int main() {{ return {}", "(".repeat(n)),
        ),
        (
            "balanced parentheses",
            format!(
                "int main() {{ return {}1{}; }}",
                "(".repeat(n),
                ")".repeat(n)
            ),
        ),
        ("open braces", format!("int main() {}", "{".repeat(n))),
        (
            "nested blocks",
            format!(
                "int main() {{ {}return 0;{} }}",
                "{".repeat(n),
                "}".repeat(n)
            ),
        ),
        (
            "nested ifs",
            format!(
                "int main() {{ int x = 0; {} x = 1; return x; }}",
                "if (x) ".repeat(n)
            ),
        ),
        (
            "unary chain",
            format!(
                "int main() {{ int x = 1; return {}x; }}",
                "- ~ !".repeat(n / 3)
            ),
        ),
        (
            "long sum",
            format!(
                "int main() {{ int x = 1; return x{}; }}",
                " + x".repeat(n * 5)
            ),
        ),
        (
            "nested casts",
            format!(
                "int main() {{ int x = 1; return {}x; }}",
                "(long)".repeat(n)
            ),
        ),
        (
            "nested array declarators",
            format!("int a{}; int main() {{ return 0; }}", "[1]".repeat(n)),
        ),
    ]
}

const CHILD_ENV: &str = "WISER_C_NO_PANIC_DEEP";

/// Run by [`deeply_nested_inputs_do_not_crash`] in a child process: the
/// input named by the environment variable.
#[test]
#[ignore = "run by deeply_nested_inputs_do_not_crash in a child process"]
fn deep_child() {
    let Ok(name) = std::env::var(CHILD_ENV) else {
        return;
    };
    let (_, text) = deep_inputs()
        .into_iter()
        .find(|(n, _)| *n == name)
        .expect("a known input");
    let dir = scratch("deep-child");
    // The stack of a program's main thread (8 MiB), where `wiser` runs
    // the front end.
    let r = std::thread::Builder::new()
        .stack_size(8 << 20)
        .spawn({
            let dir = dir.clone();
            move || exercise(&dir, "deep", text.as_bytes(), "i")
        })
        .expect("a thread")
        .join()
        .expect("exercise catches panics");
    let _ = std::fs::remove_dir_all(&dir);
    if let Err(p) = r {
        panic!("panicked: {p}");
    }
}

/// The longest a child may take (a debug build parses 10,000 levels in
/// well under a second when it is linear).
const CHILD_LIMIT: Duration = Duration::from_secs(60);

#[test]
fn deeply_nested_inputs_do_not_crash() {
    let exe = std::env::current_exe().expect("the test binary");
    let mut failures = Vec::new();
    for (name, _) in deep_inputs() {
        let dir = scratch("deep-out");
        let out_path = dir.join("stderr");
        let mut child = Command::new(&exe)
            .args([
                "--exact",
                "deep_child",
                "--ignored",
                "--nocapture",
                "--test-threads=1",
            ])
            .env(CHILD_ENV, name)
            .stdout(std::process::Stdio::null())
            .stderr(std::fs::File::create(&out_path).expect("a file for stderr"))
            .spawn()
            .expect("the test binary runs");
        let start = Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().expect("wait for the child") {
                break Some(status);
            }
            if start.elapsed() > CHILD_LIMIT {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        let stderr = std::fs::read_to_string(&out_path).unwrap_or_default();
        let _ = std::fs::remove_dir_all(&dir);
        let last: Vec<&str> = stderr.lines().rev().take(6).collect();
        let last: Vec<&str> = last.into_iter().rev().collect();
        match status {
            Some(s) if s.success() => {}
            Some(s) => failures.push(format!("{name}: {s}\n    {}", last.join("\n    "))),
            None => failures.push(format!(
                "{name}: still running after {} s (killed)",
                CHILD_LIMIT.as_secs()
            )),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Inputs the `c_frontend` fuzz target found, minimised.
#[test]
fn fuzz_found_inputs_do_not_panic() {
    let inputs = [
        // `*` applied to an array element (cargo fuzz, first campaign).
        "int main() { int a[1]; return *a[0]; }\n",
    ];
    let dir = scratch("fuzz-found");
    let mut failures = Vec::new();
    for (k, text) in inputs.iter().enumerate() {
        if let Err(p) = exercise(&dir, &format!("f{k}"), text.as_bytes(), "i") {
            failures.push(format!("{text:?}: {p}"));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
