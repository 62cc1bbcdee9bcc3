//! C's output functions under `wiser run`: `printf`, `puts`, `putchar`
//! and `fprintf` print what the program would, before the report (and in
//! the JSON report's `output`), against gcc's build of the same program;
//! output changes no verdict of `check`.

mod support;

use support::c::{check_json, folder, gcc_links, gcc_run, run};
use support::{root, write};

#[test]
fn hello_printf_prints_its_lines_before_the_report() {
    let file = root().join("examples/c/hello_printf.c");
    let (code, out, err) = run(&file, &["--reads", "105"]);
    assert_eq!(code, 1, "{out}\n{err}");
    assert!(
        out.starts_with("n = 105\nhalf = 52\nerror: assertion failed"),
        "{out}"
    );
    let (code, out, err) = run(&file, &["--reads", "7", "--format", "json"]);
    assert_eq!(code, 0, "{out}\n{err}");
    let doc: serde_json::Value = serde_json::from_str(&out).expect("one JSON document");
    assert_eq!(doc["output"], "n = 7\n", "{doc}");
    assert_eq!(doc["output_stderr"], "", "{doc}");
    assert_eq!(doc["outcome"], "halted", "{doc}");
}

/// Conversions, flags, widths, `puts`, `putchar`, strings: what gcc's
/// build prints, `wiser run` prints.
const CONVERSIONS: &str = r#"#include <stdio.h>
#include <stdlib.h>
int main(void) {
    int n = 105, neg = -42;
    unsigned u = 3000000000u;
    long big = -1234567890123L;
    char c = 'w';
    char word[6] = {'h', 'e', 'l', 'l', 'o', 0};
    char *p = malloc(4 * sizeof(char));
    p[0] = 'a';
    p[1] = 'b';
    p[2] = 'c';
    p[3] = 0;
    printf("n = %d\n", n);
    printf("[%5d] [%-5d] [%05d] [%+d] [% d]\n", n, n, neg, n, n);
    printf("%x %X %#x %o %#o %02x\n", 255, 255, 255, 8, 8, 5);
    printf("%u %u %d\n", -1, u, neg);
    printf("%i%% %c%c %3c|\n", 50, c, 65, 'z');
    printf("%ld %lu %lld %llu\n", big, 7ul, -9223372036854775807LL - 1, 18446744073709551615ULL);
    printf("%hd %hhd %hhu %zu\n", 70000, 300, -1, sizeof(long));
    printf("%.3d|%.0d|%8.3x|\n", 7, 0, 10);
    printf("%s, %5s|%-7s|%.2s\n", "lit", "ab", word, word);
    printf("%s %s\n", p, p + 1);
    char *none = 0;
    printf("[%s|%.3s|%-8s]\n", none, none, none);
    printf("%p\n", (void *)0);
    puts("a line");
    puts(word);
    putchar('o');
    putchar('k');
    putchar('\n');
    printf("no newline at the end");
    free(p);
    return 0;
}
"#;

#[test]
fn conversions_print_as_gcc_prints_them() {
    let dir = folder("output-conversions");
    let prog = write(&dir, "conv.c", CONVERSIONS);
    let (code, out, err) = run(&prog, &["--data-model", "lp64"]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(!err.contains("warning"), "{err}");
    if !gcc_links("-m64", &dir) {
        eprintln!("skipped the comparison: gcc cannot link -m64 programs");
        return;
    }
    let (gcc_code, native, _) = gcc_run(&dir, "-m64", &prog);
    assert_eq!(gcc_code, 0);
    // The report follows the output on a line of its own.
    let printed = out
        .strip_prefix(&native)
        .unwrap_or_else(|| panic!("wiser printed\n{out}\ngcc's build printed\n{native}"));
    assert!(printed.starts_with('\n'), "{out}");
}

#[test]
fn stderr_output_and_arguments_checks() {
    let dir = folder("output-stderr");
    let prog = write(
        &dir,
        "err.c",
        r#"#include <stdio.h>
extern int __VERIFIER_nondet_int(void);
int main(void) {
    int x = __VERIFIER_nondet_int();
    fprintf(stderr, "x = %d\n", x);
    fprintf(stdout, "%d\n", 100 / x);
    return 0;
}
"#,
    );
    let (code, out, err) = run(&prog, &["--reads", "4"]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.starts_with("25\n"), "{out}");
    assert!(err.contains("x = 4\n"), "{err}");
    // An argument's check is the call's: 100 / x divides by zero.
    let (code, out, err) = run(&prog, &["--reads", "0"]);
    assert_eq!(code, 1, "{out}\n{err}");
    assert!(out.contains("error: division by zero"), "{out}");
    let (code, report) = check_json(&prog, &[]);
    assert_eq!(code, 1, "{report}");
    assert_eq!(report["bugs"][0]["kind"], "division_by_zero", "{report}");
}

#[test]
fn output_changes_no_verdict() {
    let dir = folder("output-verdicts");
    let body = |print: &str| {
        format!(
            r#"#include <stdio.h>
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
int main(void) {{
    int n = __VERIFIER_nondet_int();
    {print}
    if (n > 100 && n < 110) {{
        int half = n / 2;
        {print}
        assert(half != 52);
    }}
    return 0;
}}
"#
        )
    };
    let with = write(
        &dir,
        "with.c",
        &body(r#"printf("%d %x %s\n", n, n, "s"); puts("p");"#),
    );
    let without = write(&dir, "without.c", &body(";"));
    let (c1, r1) = check_json(&with, &[]);
    let (c2, r2) = check_json(&without, &[]);
    assert_eq!(c1, c2);
    assert_eq!(r1["verdict"], r2["verdict"], "{r1}\n{r2}");
    assert_eq!(r1["bugs"][0]["kind"], "assertion", "{r1}");
    assert_eq!(r1["bugs"].as_array().map(Vec::len), Some(1), "{r1}");
}

#[test]
fn a_format_wiser_cannot_read_prints_nothing_with_a_warning() {
    let dir = folder("output-unread");
    let prog = write(
        &dir,
        "fmt.c",
        r#"#include <stdio.h>
int main(void) {
    char f[3] = {'%', 'd', 0};
    printf(f, 1);
    printf("%a\n", 1.0);
    printf("%f\n", 1);
    printf("%d %d\n", 1);
    printf("kept\n");
    return 0;
}
"#,
    );
    let (code, out, err) = run(&prog, &[]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.starts_with("kept\n"), "{out}");
    assert!(err.contains("the conversion `%a`"), "{err}");
    // An `int` under `%f` is undefined: not printed, with a warning.
    assert!(err.contains("does not match its conversion"), "{err}");
    assert!(err.contains("2 conversions"), "{err}");
    assert!(err.contains("not a string literal"), "{err}");
}

/// `sprintf` and `snprintf` with the conversions above, each buffer then
/// printed with the count it returned.
const SPRINTF: &str = r#"#include <stdio.h>
#include <stdlib.h>
#include <string.h>
char buf[64];
void show(int n) { printf("%d:%s|%d\n", n, buf, (int)strlen(buf)); }
int main(void) {
    int n = 105, neg = -42;
    unsigned u = 3000000000u;
    long long big = -1234567890123LL;
    char word[6] = {'h', 'e', 'l', 'l', 'o', 0};
    char *p = malloc(4 * sizeof(char));
    char *none = 0;
    p[0] = 'a';
    p[1] = 'b';
    p[2] = 'c';
    p[3] = 0;
    show(sprintf(buf, "n = %d", n));
    show(sprintf(buf, "[%5d] [%-5d] [%05d] [%+d] [% d] [%+05d]", n, n, neg, n, n, neg));
    show(sprintf(buf, "%x %X %#x %#X %o %#o %02x %#o %#x", 255, 255, 255, 171, 8, 8, 5, 0, 0));
    show(sprintf(buf, "%u %u %d %d", -1, u, neg, -2147483647 - 1));
    show(sprintf(buf, "%i%% %c%c %3c|%-3c|", 50, 'w', 65, 'z', 'y'));
    show(sprintf(buf, "%lld %llu %lld", big, 18446744073709551615ULL, -9223372036854775807LL - 1));
    show(sprintf(buf, "%hd %hhd %hhu %lu", 70000, 300, -1, 7ul));
    show(sprintf(buf, "%.3d|%.0d|%8.3x|%-8.3o|%#.0o", 7, 0, 10, 9, 0));
    show(sprintf(buf, "%s, %5s|%-7s|%.2s|%.9s", "lit", "ab", word, word, p));
    show(sprintf(buf, "%s %s|%s|%.3s|", p, p + 1, none, none));
    show(sprintf(buf, "plain text"));
    show(sprintf(buf, ""));
    show(snprintf(buf, 5, "%04d", 123456));
    show(snprintf(buf, 1, "%s", word));
    show(snprintf(buf, 6, "%s-%d", word, n));
    show(snprintf(buf, sizeof buf, "%s-%x", p, 48879));
    buf[0] = 'Z';
    show(snprintf(buf, 0, "%d", n) + (buf[0] == 'Z'));
    free(p);
    return 0;
}
"#;

#[test]
fn sprintf_and_snprintf_write_what_gcc_writes() {
    let dir = folder("output-sprintf");
    let prog = write(&dir, "sprintf.c", SPRINTF);
    for (flag, model) in [("-m32", "ilp32"), ("-m64", "lp64")] {
        let (code, out, err) = run(&prog, &["--data-model", model]);
        assert_eq!(code, 0, "{model}: {out}\n{err}");
        assert!(!err.contains("warning"), "{err}");
        if !gcc_links(flag, &dir) {
            continue;
        }
        let (gcc_code, native, _) = gcc_run(&dir, flag, &prog);
        assert_eq!(gcc_code, 0);
        // The report (the globals' final values) follows the output.
        assert!(
            out.starts_with(&native),
            "{model}: wiser printed\n{out}\ngcc's build printed\n{native}"
        );
    }
}

#[test]
fn sprintf_past_its_buffer_is_out_of_bounds_and_a_symbolic_number_has_digits() {
    let dir = folder("output-sprintf-bugs");
    let over = write(
        &dir,
        "over.c",
        "#include <stdio.h>
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
int main(void) {
    char *b = malloc(4);
    if (!b) return 0;
    int k = __VERIFIER_nondet_int();
    sprintf(b, \"%d\", k);
    free(b);
    return 0;
}
",
    );
    let (code, json) = check_json(&over, &[]);
    assert_eq!(code, 1, "{json}");
    assert_eq!(json["bugs"][0]["kind"], "out_of_bounds");
    // At least four digits (or a sign and three), the fifth byte the 0.
    let k = json["bugs"][0]["reads"][0].as_i64().unwrap();
    assert!(k >= 1000 || k <= -100, "{json}");
    let digits = write(
        &dir,
        "digits.c",
        "#include <stdio.h>
#include <string.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
    char b[16];
    int k = __VERIFIER_nondet_int();
    int n = snprintf(b, sizeof b, \"<%x>\", k);
    if (n == 4 && strcmp(b, \"<2a>\") == 0) reach_error();
    return 0;
}
",
    );
    let (code, json) = check_json(&digits, &[]);
    assert_eq!(code, 1, "{json}");
    assert_eq!(json["bugs"][0]["reads"][0].as_i64(), Some(42), "{json}");
}
