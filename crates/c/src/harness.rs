//! The C file that makes gcc replay a witness.
//!
//! A witness of a C program is the sequence of values its reads took: the
//! calls of `__VERIFIER_nondet_*` functions (and of functions declared but
//! defined nowhere), and uninitialised locals. The harness defines each
//! nondeterministic function to return, call after call, the values the
//! witness gave to that function's calls; compiled with the original
//! program (`gcc -m32 prog.c harness.c` under ILP32), the program then
//! takes the witness's path, and the harness's error functions end it with
//! exit code 101. Where the program defines an error function or a
//! `__VERIFIER_nondet_*` function itself, a constructor makes that
//! definition jump to the harness's. Uninitialised locals cannot be set
//! from outside: their reads are skipped (gcc's choice of value may then
//! take another path, which the header says).

use crate::{Compiled, DataModel, NondetFn};
use std::fmt::Write;
use wiser_num::Int;

/// The exit code of a compiled harness that reached the error.
pub const EXIT_ERROR_REACHED: i32 = 101;

/// The exit code of a compiled harness whose `__VERIFIER_assume` failed.
pub const EXIT_ASSUME_FAILED: i32 = 102;

/// One read of a witness, in the order the program made them: its value
/// (a value of the read's type), and the nondeterministic function whose
/// call made it (`None` for an uninitialised local).
pub type Read<'a> = (Int, Option<&'a NondetFn>);

/// The harness that replays `reads` (a witness of `compiled`, the program
/// in the file `program`) when compiled with it under `data_model`.
pub fn harness(
    compiled: &Compiled,
    program: &str,
    reads: &[Read<'_>],
    args: &Environment,
    data_model: DataModel,
) -> String {
    if compiled.ir.threaded {
        return threaded_harness(program);
    }
    let mut text = write_harness(
        &compiled.nondet_fns,
        &compiled.defines,
        program,
        reads,
        data_model,
    );
    if args.fails.iter().any(|f| *f) {
        write_failing_allocations(&mut text, &args.fails);
    }
    if let Some(argc) = args.argc {
        write_main_args(&mut text, argc, &args.argv, program);
    }
    text
}

/// The program's environment in a witness: `main`'s command line (`argc`
/// and the bytes of each argument, from the reads named `argc` and
/// `argv[k][j]`) and, under `--malloc-may-fail`, which allocations fail
/// (the reads named `malloc at 12:9 fails`, in the order of the calls).
#[derive(Clone, Debug, Default)]
pub struct Environment {
    /// `argc`, if the witness gives it.
    pub argc: Option<i64>,
    /// The bytes of `argv[1]`, `argv[2]`, ...
    pub argv: Vec<Vec<u8>>,
    /// Whether each allocation the program makes fails, in order.
    pub fails: Vec<bool>,
}

impl Environment {
    /// Records the read named `name` (`argc`, `argv[k][j]`, `malloc at
    /// 12:9 fails`).
    pub fn set(&mut self, name: &str, v: &Int) {
        if name.ends_with(" fails") {
            self.fails.push(!v.is_zero());
            return;
        }
        if name == "argc" {
            self.argc = v.to_i64();
            return;
        }
        let Some((k, j)) = name
            .strip_prefix("argv[")
            .and_then(|r| r.strip_suffix(']'))
            .and_then(|r| r.split_once("]["))
        else {
            return;
        };
        let (Ok(k), Ok(j)) = (k.parse::<usize>(), j.parse::<usize>()) else {
            return;
        };
        if k == 0 || k > 64 || j > 4096 {
            return;
        }
        while self.argv.len() < k {
            self.argv.push(Vec::new());
        }
        let arg = &mut self.argv[k - 1];
        while arg.len() <= j {
            arg.push(0);
        }
        arg[j] = v.low_bits(8) as u8;
    }
}

/// Replays the allocations that fail: the harness defines `malloc`,
/// `calloc` and `realloc` over glibc's own (`__libc_malloc`, ...; under
/// AddressSanitizer over its allocator, `__interceptor_malloc`), and a
/// call from the program (its return address in the executable's text,
/// between the linker's `__executable_start` and `etext`) takes the next
/// outcome of the witness; glibc's own allocations (stdio's buffers)
/// never fail and take none.
fn write_failing_allocations(out: &mut String, fails: &[bool]) {
    let list: Vec<&str> = fails.iter().map(|f| if *f { "1" } else { "0" }).collect();
    let _ = writeln!(
        out,
        "
#include <stddef.h>
/* Whether each allocation of the program fails, in the order of its calls. */
static const unsigned char wiser_fails[] = {{{}}};
static unsigned long wiser_next_fail = 0;
extern char __executable_start, etext;
/* Under AddressSanitizer its allocator is the real one. */
#if defined(__SANITIZE_ADDRESS__)
#define WISER_REAL(f) __interceptor_##f
#else
#define WISER_REAL(f) __libc_##f
#endif
extern void *WISER_REAL(malloc)(size_t);
extern void *WISER_REAL(calloc)(size_t, size_t);
extern void *WISER_REAL(realloc)(void *, size_t);

static int wiser_fails_now(void *caller)
{{
    if ((char *)caller < &__executable_start || (char *)caller >= &etext)
        return 0;
    if (wiser_next_fail < sizeof wiser_fails)
        return wiser_fails[wiser_next_fail++];
    return 0;
}}

void *malloc(size_t n)
{{
    return wiser_fails_now(__builtin_return_address(0)) ? NULL : WISER_REAL(malloc)(n);
}}

void *calloc(size_t k, size_t n)
{{
    return wiser_fails_now(__builtin_return_address(0)) ? NULL : WISER_REAL(calloc)(k, n);
}}

void *realloc(void *p, size_t n)
{{
    return wiser_fails_now(__builtin_return_address(0)) ? NULL : WISER_REAL(realloc)(p, n);
}}",
        list.join(", ")
    );
}

/// Replays `main`'s command line: a constructor, run before `main`, calls
/// the program's `main` with the witness's `argc` and `argv` (and an empty
/// environment, as wiser's model has) and exits with its result (gcc's
/// own `main` call never happens). C allows calling `main`; glibc runs
/// constructors before it.
fn write_main_args(out: &mut String, argc: i64, argv: &[Vec<u8>], program: &str) {
    let mut names = vec![format!("\"{}\"", program.escape_default())];
    // A program that never names `argv` reads no bytes of it: its
    // arguments are empty strings, so that `argv` still has `argc`
    // elements.
    for k in 0..argc.saturating_sub(1).max(0) as usize {
        let bytes = argv.get(k).map_or(&[][..], Vec::as_slice);
        let text: Vec<String> = bytes
            .iter()
            .take_while(|b| **b != 0)
            .map(|b| b.to_string())
            .chain(std::iter::once("0".to_string()))
            .collect();
        let _ = writeln!(
            out,
            "\nstatic char wiser_arg{}[] = {{{}}};",
            k + 1,
            text.join(", ")
        );
        names.push(format!("wiser_arg{}", k + 1));
    }
    names.push("0".to_string());
    let _ = writeln!(
        out,
        "
/* The witness's command line: argc = {argc}. */
static char *wiser_argv[] = {{{}}};
static char *wiser_envp[] = {{0}};
extern int main(int, char **, char **);
extern void exit(int);

__attribute__((constructor)) static void wiser_replay_main(void)
{{
    exit(main({argc}, wiser_argv, wiser_envp));
}}",
        names.join(", ")
    );
}

/// The harness of a program that creates threads: gcc cannot be made to
/// follow a witness's schedule (the operating system schedules the
/// threads), so a replay could miss the error for reasons that have
/// nothing to do with the witness. The file says so and refuses to
/// compile; the witness was replayed on wiser's interpreter, schedule
/// included, before it was reported (`wiser run --schedule` replays it).
fn threaded_harness(program: &str) -> String {
    let program = program.replace("*/", "* /");
    format!(
        "/* Generated by wiser for {program}.
 *
 * The program creates threads: a witness of a bug in it is a schedule as
 * well as input values, and a compiled program cannot be made to follow a
 * schedule, so gcc cannot replay it faithfully. wiser replayed the witness
 * on its interpreter before reporting it; `wiser run --schedule ...`
 * replays it again.
 */
#error \"wiser: no gcc harness for a program that creates threads (the witness's schedule cannot be imposed on a compiled program); replay it with `wiser run --schedule`\"
"
    )
}

fn write_harness(
    nondet_fns: &[NondetFn],
    defines: &[String],
    program: &str,
    reads: &[Read<'_>],
    data_model: DataModel,
) -> String {
    let defined = |name: &str| defines.iter().any(|d| d == name);
    let flag = std::iter::once(data_model.gcc_flag())
        .chain(data_model.gcc_float_flags().iter().copied())
        .collect::<Vec<_>>()
        .join(" ");
    let model = match data_model {
        DataModel::Ilp32 => "ILP32",
        DataModel::Lp64 => "LP64",
    };
    let program = program.replace("*/", "* /");
    let skipped = reads.iter().filter(|(_, f)| f.is_none()).count();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "/* Generated by wiser: replays a witness of a bug in {program}.
 *
 * Compile it with the program ({model}, as the program was checked) and run:
 *     gcc {flag} {program} harness.c -o replay && ./replay; echo $?
 * Exit code {EXIT_ERROR_REACHED}: the error was reached (reach_error, __VERIFIER_error or a
 * failing assert), and a message on stderr says where: the witness holds.
 * Exit code {EXIT_ASSUME_FAILED}: a __VERIFIER_assume did not hold (the witness left the
 * program's domain). Any other end: the witness did not reach the error.
 *
 * Each nondeterministic function returns, call after call, the values the
 * witness gives its calls (bit patterns converted to its return type; a
 * float's pattern is copied: it is the float's bits), and
 * 0 after them."
    );
    if skipped > 0 {
        let _ = writeln!(
            out,
            " *
 * The witness also gives {skipped} uninitialised local(s) a value; a compiled
 * program cannot be made to read it, so the run may take another path."
        );
    }
    let _ = writeln!(
        out,
        " */
#include <stdio.h>
#include <unistd.h>

static void wiser_harness_reached(const char *where)
{{
    fprintf(stderr, \"wiser-harness: error reached in %s\\n\", where);
    fflush(stderr);
    _exit({EXIT_ERROR_REACHED});
}}"
    );
    if !defined("__assert_fail") {
        let _ = writeln!(
            out,
            "
void __assert_fail(const char *assertion, const char *file, unsigned int line,
                   const char *function)
{{
    (void)assertion;
    (void)file;
    (void)line;
    wiser_harness_reached(function);
}}"
        );
    }
    // The program's own definitions that the harness takes over, with
    // their return types.
    let mut redirected: Vec<(&str, &str)> = Vec::new();
    for error in ["__VERIFIER_error", "reach_error"] {
        if !defined(error) {
            let _ = writeln!(
                out,
                "
void {error}(void)
{{
    wiser_harness_reached(\"{error}\");
}}"
            );
        } else {
            let _ = writeln!(
                out,
                "
static void wiser_harness_{error}(void)
{{
    wiser_harness_reached(\"{error}\");
}}"
            );
            redirected.push((error, "void"));
        }
    }
    if !defined("__VERIFIER_assume") {
        let _ = writeln!(
            out,
            "
void __VERIFIER_assume(int cond)
{{
    if (!cond)
        _exit({EXIT_ASSUME_FAILED});
}}"
        );
    }
    for f in nondet_fns {
        let ty = &f.c_type;
        // A program that defines a nondeterministic function itself (older
        // SV-COMP tasks return an uninitialised local from it) still gets
        // the witness's values from its calls: its definition jumps to the
        // harness's.
        let (storage, name) = if defined(&f.name) {
            redirected.push((&f.name, ty));
            ("static ", format!("wiser_harness_{}", f.name))
        } else {
            ("", f.name.clone())
        };
        if ty.trim() == "void" {
            let _ = writeln!(out, "\n{storage}void {name}(void)\n{{\n}}");
            continue;
        }
        let values: Vec<String> = reads
            .iter()
            .filter(|(_, g)| g.is_some_and(|g| g.name == f.name))
            .map(|(v, _)| format!("0x{:x}ULL", v.low_bits(64)))
            .collect();
        if values.is_empty() {
            let _ = writeln!(out, "\n{storage}{ty} {name}(void)\n{{\n    return 0;\n}}");
            continue;
        }
        // A float's value is its bit pattern, copied, not converted.
        let body = match ty.trim() {
            "float" => " {\n        unsigned int w = (unsigned int)values[next++];\n        float v;\n        __builtin_memcpy(&v, &w, sizeof v);\n        return v;\n    }".to_string(),
            "double" | "long double" => " {\n        double v;\n        __builtin_memcpy(&v, &values[next++], sizeof v);\n        return v;\n    }".to_string(),
            _ => format!("\n        return ({ty})values[next++];"),
        };
        let _ = writeln!(
            out,
            "
{storage}{ty} {name}(void)
{{
    static const unsigned long long values[] = {{{}}};
    static unsigned long next = 0;
    if (next < sizeof values / sizeof values[0]){body}
    return 0;
}}",
            wrap_list(&values)
        );
    }
    if !redirected.is_empty() {
        write_redirects(&mut out, &redirected);
    }
    out
}

/// Makes the program's own definitions of the error functions (often
/// `void reach_error(){}`, followed by `abort()`) and of nondeterministic
/// functions jump to the harness's (`wiser_harness_NAME`, written before):
/// a constructor writes a jump over their first instruction. On x86 only
/// (gcc's `-m32` and `-m64`); elsewhere those definitions run as written.
/// `names` holds each function's name and return type.
fn write_redirects(out: &mut String, names: &[(&str, &str)]) {
    let listed: Vec<&str> = names.iter().map(|(n, _)| *n).collect();
    let _ = writeln!(
        out,
        "
/* The program defines {} itself: before main, a constructor makes the
 * first instruction of each a jump to the harness's own.
 * Compile without optimisation (gcc's default): an optimiser may inline them. */
#if defined(__i386__) || defined(__x86_64__)
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

static void wiser_harness_redirect(void (*from)(void), void (*to)(void))
{{
    unsigned char *at = (unsigned char *)from;
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t start = (uintptr_t)at & ~(page - 1);
    int32_t rel = (int32_t)((intptr_t)to - ((intptr_t)at + 5));
    if (mprotect((void *)start, (uintptr_t)at + 5 - start,
                 PROT_READ | PROT_WRITE | PROT_EXEC) != 0)
        return;
    at[0] = 0xe9; /* jmp rel32 */
    memcpy(at + 1, &rel, sizeof rel);
}}
",
        listed.join(" and ")
    );
    for (name, ty) in names {
        let _ = writeln!(out, "extern {ty} {name}(void);");
    }
    let _ = writeln!(
        out,
        "
__attribute__((constructor)) static void wiser_harness_redirect_all(void)
{{"
    );
    for (name, _) in names {
        let _ = writeln!(
            out,
            "    wiser_harness_redirect((void (*)(void)){name},\n                           (void (*)(void))wiser_harness_{name});"
        );
    }
    let _ = writeln!(out, "}}\n#endif");
}

/// `a, b, c`, broken into lines of a few values.
fn wrap_list(values: &[String]) -> String {
    if values.len() <= 4 {
        return values.join(", ");
    }
    let lines: Vec<String> = values
        .chunks(4)
        .map(|c| format!("        {}", c.join(", ")))
        .collect();
    format!("\n{},\n    ", lines.join(",\n"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use expect_test::expect_file;

    fn nondet(name: &str, c_type: &str) -> NondetFn {
        NondetFn {
            name: name.into(),
            c_type: c_type.into(),
        }
    }

    #[test]
    fn values_go_to_their_functions_in_order() {
        let uchar = nondet("__VERIFIER_nondet_uchar", "unsigned char");
        let int = nondet("__VERIFIER_nondet_int", "int");
        let unused = nondet("__VERIFIER_nondet_long", "long");
        let fns = vec![uchar.clone(), int.clone(), unused];
        let reads: Vec<Read<'_>> = vec![
            (Int::from(255), Some(&uchar)),
            (Int::from(-5), Some(&int)),
            (Int::from(7), None),
            (Int::from(3), Some(&uchar)),
        ];
        let text = write_harness(
            &fns,
            &["main".into(), "reach_error".into()],
            "prog.c",
            &reads,
            DataModel::Ilp32,
        );
        expect_file!["harness/values_in_order.txt"].assert_eq(&text);
    }

    #[test]
    fn the_program_s_own_definitions_are_left_alone() {
        let f = nondet("__VERIFIER_nondet_bool", "_Bool");
        let reads: Vec<Read<'_>> = (0..6).map(|i| (Int::from(i % 2), Some(&f))).collect();
        let text = write_harness(
            std::slice::from_ref(&f),
            &["__VERIFIER_assume".into(), "__VERIFIER_error".into()],
            "dir/task.i",
            &reads,
            DataModel::Lp64,
        );
        let body = &text[text.find("#include").unwrap()..];
        expect_file!["harness/own_definitions.txt"].assert_eq(body);
        assert!(text.contains("gcc -m64 dir/task.i harness.c"));
        assert!(!text.contains("uninitialised local"));
        assert!(!text.contains("assert.h"));
    }

    #[test]
    fn a_nondet_function_the_program_defines_is_taken_over() {
        let f = nondet("__VERIFIER_nondet_double", "double");
        let reads: Vec<Read<'_>> = vec![(Int::from_u64(0x4004_0000_0000_0000), Some(&f))];
        let text = write_harness(
            std::slice::from_ref(&f),
            &["main".into(), "__VERIFIER_nondet_double".into()],
            "task.c",
            &reads,
            DataModel::Ilp32,
        );
        assert!(
            text.contains("static double wiser_harness___VERIFIER_nondet_double(void)"),
            "{text}"
        );
        assert!(text.contains("0x4004000000000000ULL"), "{text}");
        assert!(
            text.contains("extern double __VERIFIER_nondet_double(void);"),
            "{text}"
        );
        assert!(
            text.contains("wiser_harness_redirect((void (*)(void))__VERIFIER_nondet_double,"),
            "{text}"
        );
        // The harness does not define the program's function again.
        assert!(
            !text.contains("\ndouble __VERIFIER_nondet_double(void)\n{"),
            "{text}"
        );
    }
}
