//! Strings: literals as `char` objects, `char` arrays initialised from
//! strings, `char *` walks, the `unsigned char` view of the same bytes,
//! and the C library's string functions. Every bug is confirmed by gcc's
//! build of the program.

mod support;

use serde_json::Value;
use support::c::{assert_gcc_confirms, check, check_json, folder, PREAMBLE};
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
