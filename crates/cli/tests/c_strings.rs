//! Strings: literals as `char` objects, `char` arrays initialised from
//! strings, `char *` walks, the `unsigned char` view of the same bytes,
//! and the C library's string functions. Every bug is confirmed by gcc's
//! build of the program.

mod support;

use serde_json::Value;
use support::c::{assert_gcc_confirms, check, check_json, first_reads, folder, PREAMBLE};
use support::write;

#[test]
fn string_literals_and_char_arrays_are_objects_of_chars() {
    let dir = folder("strings-literals");
    let prog = write(
        &dir,
        "literals.c",
        &format!(
            "{PREAMBLE}
int length(const char *s) {{ int n = 0; while (s[n]) n++; return n; }}
char greeting[] = \"hi\\tthere\";
int main(void) {{
    char *s = \"HELLO\";
    char buf[8] = \"ab\";
    unsigned char *u = (unsigned char *)s;
    const char *esc = \"\\x41\\101\\n\" \"Z\";
    buf[2] = s[1];
    if (length(s) != 5 || length(buf) != 3 || buf[2] != 'E' || u[4] != 'O') reach_error();
    if (length(greeting) != 8 || greeting[2] != '\\t' || sizeof(greeting) != 9) reach_error();
    if (esc[0] != 'A' || esc[1] != 'A' || esc[2] != '\\n' || esc[3] != 'Z' || esc[4]) reach_error();
    int i = __VERIFIER_nondet_int();
    if (i >= 0 && i < 6 && s[i] == 'L' && buf[7] == 0 && i != 2) reach_error();
    return 0;
}}
"
        ),
    );
    let (code, json) = check_json(&prog, &[]);
    assert_eq!(code, 1, "{json}");
    assert_eq!(json["bugs"].as_array().unwrap().len(), 1, "{json}");
    assert_eq!(json["bugs"][0]["reads"], Value::from(vec![3]), "{json}");
    assert_gcc_confirms(&dir, &prog);
    // Reading past a literal's terminating 0 is out of bounds.
    let past = write(
        &dir,
        "past.c",
        &format!(
            "{PREAMBLE}
int main(void) {{
    const char *s = \"abc\";
    int i = __VERIFIER_nondet_int();
    if (i >= 0 && s[i] == 'z') reach_error();
    return 0;
}}
"
        ),
    );
    let (code, json) = check_json(&past, &["--property", "valid-memsafety"]);
    assert_eq!(code, 1, "{json}");
    assert_eq!(json["bugs"][0]["kind"], "out_of_bounds", "{json}");
    assert_eq!(json["bugs"][0]["reads"], Value::from(vec![4]), "{json}");
    // Under `unreach-call` the out-of-bounds read is outside the property:
    // no bug, and no `safe` either (paths through it were not followed).
    let (code, out, err) = check(&past, &["--property", "unreach-call"]);
    assert_ne!(code, 1, "{out}\n{err}");
    assert!(out.contains("outside the property"), "{out}");
    assert!(out.contains("verdict: unknown"), "{out}");
}

/// Checks that gcc's build of `prog` (with `reach_error` defined to exit
/// with 101) runs to its end, where gcc can build 32-bit programs.
fn gcc_runs_clean(dir: &std::path::Path, prog: &std::path::Path) {
    if !support::c::gcc_links("-m32", dir) {
        return;
    }
    let main = write(
        dir,
        "reach_error.c",
        "#include <stdlib.h>\nvoid reach_error(void) { exit(101); }\nint __VERIFIER_nondet_int(void) { return 0; }\n",
    );
    let exe = dir.join("clean");
    let built = std::process::Command::new("gcc")
        .args(["-m32", "-w", "-o"])
        .arg(&exe)
        .arg(prog)
        .arg(&main)
        .status()
        .unwrap();
    assert!(built.success());
    let status = std::process::Command::new(&exe).status().unwrap();
    assert_eq!(status.code(), Some(0), "gcc's build reached the error");
}

#[test]
fn the_c_library_agrees_with_glibc() {
    // Each line is a fact glibc's functions make true; wiser, running its
    // own C library, must find the program safe, and gcc's build of it
    // (with glibc) runs to the end.
    let dir = folder("strings-libc");
    let facts = [
        r#"strlen("") == 0 && strlen("abc") == 3"#,
        r#"strcmp("abc", "abd") < 0 && strcmp("b", "a") > 0 && strcmp("x", "x") == 0"#,
        r#"strcmp("ab", "abc") < 0 && strcmp("\xff", "a") > 0"#,
        r#"strncmp("abcd", "abzz", 2) == 0 && strncmp("abcd", "abzz", 3) < 0"#,
        r#"strchr("hello", 'l') - "hello" >= 0 && *strchr("hello", 'l') == 'l' && !strchr("hello", 'z')"#,
        r#"strrchr("hello", 'l')[1] == 'o' && strchr("abc", 0)[0] == 0"#,
        r#"strstr("haystack", "st")[2] == 'a' && !strstr("abc", "cd") && *strstr("abc", "") == 'a'"#,
        r#"strspn("aabbc", "ab") == 4 && strcspn("hello", "lo") == 2"#,
        r#"atoi("  -42x") == -42 && atoi("+7") == 7 && atoi("x") == 0"#,
        r#"strtol("0x1F", 0, 0) == 31 && strtol("017", 0, 0) == 15 && strtol("z", 0, 36) == 35"#,
        r#"strtol("99999999999999999999", 0, 10) == 2147483647L"#,
        r#"isdigit('7') && !isdigit('a') && isalpha('Q') && isspace('\t') && !isspace('x')"#,
        r#"toupper('a') == 'A' && tolower('Z') == 'z' && toupper('1') == '1' && isxdigit('f')"#,
        r#"abs(-5) == 5 && labs(-6L) == 6"#,
    ];
    let body: String = facts
        .iter()
        .map(|f| format!("    if (!({f})) reach_error();\n"))
        .collect();
    let prog = write(
        &dir,
        "facts.c",
        &format!(
            "#include <string.h>
#include <stdlib.h>
#include <ctype.h>
extern void reach_error(void);
int main(void) {{
    char buf[16];
    strcpy(buf, \"ab\");
    strcat(buf, \"cd\");
    strncat(buf, \"efgh\", 2);
    if (strcmp(buf, \"abcdef\") != 0) reach_error();
    strncpy(buf, \"xy\", 5);
    if (buf[1] != 'y' || buf[2] != 0 || buf[4] != 0 || buf[5] != 'f') reach_error();
{body}    return 0;
}}
"
        ),
    );
    let (code, out, err) = check(&prog, &["--data-model", "ilp32"]);
    assert_eq!(code, 0, "{out}\n{err}");
    gcc_runs_clean(&dir, &prog);
}

#[test]
fn a_symbolic_string_through_the_c_library() {
    // KLEE's first example in spirit: a password check over input bytes.
    let dir = folder("strings-symbolic");
    let prog = write(
        &dir,
        "password.c",
        &format!(
            "{PREAMBLE}
#include <string.h>
#include <ctype.h>
extern char __VERIFIER_nondet_char(void);
int main(void) {{
    char buf[6];
    for (int i = 0; i < 5; i++) buf[i] = __VERIFIER_nondet_char();
    buf[5] = 0;
    char copy[6];
    strcpy(copy, buf);
    if (strlen(copy) == 3 && strncmp(copy, \"ab\", 2) == 0 && isdigit(copy[2]) && copy[2] > '6')
        reach_error();
    return 0;
}}
"
        ),
    );
    let (code, json) = check_json(&prog, &[]);
    assert_eq!(code, 1, "{json}");
    let reads = first_reads(&json);
    assert_eq!(&reads[..4], &[97, 98, reads[2], 0], "{json}");
    assert!((55..=57).contains(&reads[2]), "{json}");
    assert_gcc_confirms(&dir, &prog);
    // A copy into a buffer too small for the input is an overflow, found
    // by the library's own checked stores.
    let small = write(
        &dir,
        "small.c",
        &std::fs::read_to_string(&prog)
            .unwrap()
            .replace("char copy[6];", "char copy[3];"),
    );
    let (code, json) = check_json(&small, &["--property", "valid-memsafety"]);
    assert_eq!(code, 1, "{json}");
    assert_eq!(json["bugs"][0]["kind"], "out_of_bounds", "{json}");
    assert_eq!(json["bugs"][0]["subproperty"], "valid-deref", "{json}");
}

#[test]
fn memset_memcpy_memmove_and_memcmp_work_on_typed_memory() {
    let dir = folder("strings-mem");
    let prog = write(
        &dir,
        "mem.c",
        &format!(
            "{PREAMBLE}
#include <string.h>
#include <stdlib.h>
struct P {{ int x; int *p; char tag[3]; }};
int main(void) {{
    int a[4];
    memset(a, 0, sizeof(a));
    struct P *ps = malloc(3 * sizeof(struct P));
    if (!ps) return 0;
    memset(ps, 0, 3 * sizeof(struct P));
    ps[1].x = __VERIFIER_nondet_int();
    struct P q[3];
    memcpy(q, ps, sizeof q);
    char s[8] = \"abcdefg\";
    memmove(s + 1, s, 5);
    if (memcmp(s, \"aabcdeg\", 7) != 0) reach_error();
    memset(s, 'z', 3);
    if (s[2] != 'z' || s[3] != 'c') reach_error();
    unsigned u[2];
    memset(u, 0xff, sizeof u);
    if (u[1] != 0xffffffffu) reach_error();
    if (a[3] == 0 && q[1].x == 5 && q[2].p == 0 && q[0].tag[2] == 0) reach_error();
    int n = __VERIFIER_nondet_int();
    if (n > 0 && n < 100) memset(ps, 0, n);
    free(ps);
    return 0;
}}
"
        ),
    );
    let (code, json) = check_json(&prog, &["--property", "unreach-call"]);
    assert_eq!(code, 1, "{json}");
    assert_eq!(json["bugs"][0]["reads"], Value::from(vec![5]), "{json}");
    assert_gcc_confirms(&dir, &prog);
    // `memset` past the 36 bytes of the three structures overflows.
    let (code, json) = check_json(&prog, &["--property", "valid-memsafety"]);
    assert_eq!(code, 1, "{json}");
    assert_eq!(json["bugs"][0]["kind"], "out_of_bounds", "{json}");
    let n = json["bugs"][0]["reads"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()
        .as_i64()
        .unwrap();
    assert!((37..100).contains(&n), "{json}");
}

#[test]
fn main_takes_its_command_line_as_input() {
    let dir = folder("strings-argv");
    let prog = write(
        &dir,
        "args.c",
        "#include <string.h>
extern void reach_error(void);
int main(int argc, char *argv[], char **envp) {
    if (argc < 1 || argc > 4 || argv[argc] != 0 || envp[0] != 0) reach_error();
    if (argc == 3 && strcmp(argv[2], \"ok\") == 0 && argv[1][0] == 'x') reach_error();
    return 0;
}
",
    );
    let (code, json) = check_json(&prog, &[]);
    assert_eq!(code, 1, "{json}");
    assert_eq!(json["bugs"].as_array().unwrap().len(), 1, "{json}");
    assert_eq!(json["bugs"][0]["line"], 5, "{json}");
    // argc, then argv[1..=3] by 4 bytes each.
    let reads = first_reads(&json);
    assert_eq!(reads.len(), 13, "{json}");
    assert_eq!(
        (reads[0], reads[1], reads[5], reads[6], reads[7]),
        (3, 120, 111, 107, 0)
    );
    let (_, out, _) = check(&prog, &[]);
    assert!(out.contains("command line: \"x"), "{out}");
    assert_gcc_confirms(&dir, &prog);
    // The witness replays with `wiser run`.
    let values: Vec<String> = reads.iter().map(i64::to_string).collect();
    let (code, out, err) = support::c::run(&prog, &["--reads", &values.join(",")]);
    assert_eq!(code, 1, "{out}\n{err}");
    assert!(out.contains("error function called at"), "{out}");
    // Past `argv[argc]` is outside `argv`.
    let past = write(
        &dir,
        "past.c",
        "int main(int argc, char **argv) { return argv[argc + 1] != 0; }\n",
    );
    let (code, json) = check_json(&past, &[]);
    assert_eq!(code, 1, "{json}");
    assert_eq!(json["bugs"][0]["kind"], "out_of_bounds", "{json}");
}

#[test]
fn a_main_that_never_names_argv_reads_only_argc() {
    // As many SV-COMP tasks are written: `argv` is declared, never used.
    // It is then a null pointer that nothing reads: `argc` is the one
    // read of the command line, and no object is made, so the prover
    // (which encodes no objects) takes the program.
    let dir = folder("strings-unused-argv");
    let prog = write(
        &dir,
        "unused.c",
        "extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int main(int argc, char *argv[], char **envp) {
    int n = __VERIFIER_nondet_int();
    if (argc == 3 && n == 7) reach_error();
    return 0;
}
",
    );
    let (code, json) = check_json(&prog, &[]);
    assert_eq!(code, 1, "{json}");
    assert_eq!(first_reads(&json), vec![3, 7], "{json}");
    assert_gcc_confirms(&dir, &prog);
    let (code, out, err) = support::c::run(&prog, &["--reads", "7", "--", "a", "b"]);
    assert_eq!(code, 1, "{out}\n{err}");
    assert!(out.contains("error function called at"), "{out}");
    let (code, out, err) = support::c::run(&prog, &["--reads", "7", "--", "a"]);
    assert_eq!(code, 0, "{out}\n{err}");
    let counter = write(
        &dir,
        "counter.c",
        "extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int main(int argc, char **argv) {
    int n = __VERIFIER_nondet_int(), i = 0, s = 0;
    while (i < n) { i++; s += 2; if (s > 1000) s = 0; }
    if (s < 0 || s > 1000) reach_error();
    return 0;
}
",
    );
    let file = counter.to_string_lossy();
    let json = support::json_of(&support::wiser(&["prove", &file, "--format", "json"]));
    assert_eq!(json["verdict"], "safe", "{json}");
}

#[test]
fn wiser_run_gives_main_the_words_after_dashes() {
    let dir = folder("strings-run-argv");
    let prog = write(
        &dir,
        "echo.c",
        "#include <stdio.h>
int main(int argc, char **argv) {
    printf(\"%d\", argc);
    for (int i = 1; i < argc; i++) printf(\" [%s]\", argv[i]);
    printf(\"\\n\");
    return 0;
}
",
    );
    // No words and no --reads: the program's name alone, as a shell runs
    // it, and nothing is said of reads that had no value.
    let (code, out, err) = support::c::run(&prog, &[]);
    assert_eq!((code, out.as_str()), (0, "1\n"), "{err}");
    assert!(!err.contains("no value"), "{err}");
    // Words after `--`, bytes over 127 included (`char` is signed).
    let (code, out, err) = support::c::run(&prog, &["--", "-n", "ok", "\u{e9}"]);
    assert_eq!((code, out.as_str()), (0, "4 [-n] [ok] [\u{e9}]\n"), "{err}");
    // What does not fit is refused, saying what fits.
    let (code, _, err) = support::c::run(&prog, &["--", "hello"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("`hello` has 5 bytes") && err.contains("at most 4"),
        "{err}"
    );
    let (code, _, err) = support::c::run(&prog, &["--", "a", "b", "c", "d"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("4 arguments") && err.contains("at most 3"),
        "{err}"
    );
    // With `--`, --reads gives the program's own reads only.
    let reads = write(
        &dir,
        "reads.c",
        "#include <stdio.h>
extern int __VERIFIER_nondet_int(void);
int main(int argc, char **argv) {
    if (argc == 2 && argv[1][0] == 'x') printf(\"%d\\n\", __VERIFIER_nondet_int());
    return 0;
}
",
    );
    let (code, out, err) = support::c::run(&reads, &["--reads", "5", "--", "x"]);
    assert_eq!((code, out.as_str()), (0, "5\n"), "{err}");
    let (code, _, err) = support::c::run(&reads, &["--reads", "5,6", "--", "x"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("1 of the 2 values of --reads were not read (the run made 1 read(s))"),
        "{err}"
    );
    // A program whose `main` takes no `argv` has no command line.
    let plain = write(&dir, "plain.c", "int main(void) { return 0; }\n");
    let (code, _, err) = support::c::run(&plain, &["--", "x"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("reads no command line"), "{err}");
}

#[test]
fn a_byte_count_that_ends_inside_an_element_writes_only_its_bytes() {
    // Typed memory holds values, not bytes: the last, partial element of
    // a byte count is merged bit by bit (little-endian), for a count
    // known when the program is lowered and for one known only when it
    // runs (`n`, every value from 0 to 12 on wiser's side), through a
    // typed pointer, an array variable and a `void *` parameter alike.
    let dir = folder("strings-partial");
    support::c::assert_facts(
        &dir,
        "#include <assert.h>
#include <stdlib.h>
#include <string.h>
extern int __VERIFIER_nondet_int(void);
struct S { char a, b; short c; };
struct P { char c; int i; short h; };
struct B { unsigned x : 3; int y : 5; unsigned z; };
static void set(void *p, int byte, int n) { memset(p, byte, n); }
int main(void) {
    struct S s = {1, 2, 3};
    memset(&s, 0xff, 1);
    assert(s.a == -1 && s.b == 2 && s.c == 3);
    struct B b = {1, 2, 3}, r = {5, -3, 9};
    memset(&b, 0x0f, sizeof b);
    assert(b.x == 7 && b.y == 1 && b.z == 0x0f0f0f0f);
    memset(&r, 0x0f, 1);
    assert(r.x == 7 && r.y == 1 && r.z == 9);
    struct P p[2] = {{1, 2, 3}, {4, 5, 6}};
    memset(p, 0x7f, 6);
    assert(p[0].c == 0x7f && p[0].i == 0x7f7f && p[0].h == 3);
    memset(p, 0x7f, 9);
    assert(p[0].i == 0x7f7f7f7f && p[0].h == 0x7f && p[1].c == 4);
    int x[4] = {0x11111111, 0x22222222, 0x33333333, 0x44444444};
    memmove(x + 1, x, 7);
    assert(x[1] == 0x11111111 && x[2] == 0x33222222 && x[3] == 0x44444444);
    int n = __VERIFIER_nondet_int();
    if (n < 0 || n > 8) return 0;
    int a[3] = {1, 2, 3};
    memset(a, 0xff, n);
    assert(a[1] == (n <= 4 ? 2 : n == 8 ? -1 : (int)((1u << (8 * (n - 4))) - 1)));
    short d[4] = {1, 2, 3, 4}, e[4] = {-1, -2, -3, -4};
    memcpy(d, e, n);
    assert(d[1] == (n <= 2 ? 2 : n == 3 ? 254 : -2) && d[3] == (n == 8 ? -4 : n == 7 ? 252 : 4));
    int *y = malloc(3 * sizeof(int));
    if (!y) return 0;
    y[0] = 1, y[1] = 2, y[2] = 3;
    set(y, 0xff, n);
    assert(y[1] == (n <= 4 ? 2 : n == 8 ? -1 : (int)((1u << (8 * (n - 4))) - 1)));
    free(y);
    return 0;
}
",
        support::c::Facts::Safe,
        6,
        &[
            (
                "assert(s.a == -1 && s.b == 2",
                "assert(s.a == -1 && s.b == -1",
            ),
            ("b.y == 1 && b.z", "b.y == -1 && b.z"),
            (
                "p[0].i == 0x7f7f && p[0].h == 3",
                "p[0].i == 0x7f7f && p[0].h == 0x7f7f",
            ),
            ("x[2] == 0x33222222", "x[2] == 0x33111111"),
            (
                "n <= 2 ? 2 : n == 3 ? 254 : -2",
                "n <= 2 ? 2 : n == 3 ? -2 : -2",
            ),
            (
                "assert(y[1] == (n <= 4 ? 2 : n == 8 ? -1 : (int)",
                "assert(y[1] == (n <= 4 ? 2 : n >= 6 ? -1 : (int)",
            ),
        ],
    );
}
