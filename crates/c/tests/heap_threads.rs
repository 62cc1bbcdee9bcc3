//! Lowering of structures, pointers, the heap and threads: the IR a few
//! small programs lower to, and the errors for what is outside the
//! subset (arithmetic on `void *`, unions, casts of pointers to integers).

use std::path::Path;
use wiser_c::Options;

fn lower(text: &str) -> Result<String, String> {
    let mut sources = wiser_ir::Sources::default();
    match wiser_c::compile_text(
        &mut sources,
        Path::new("t.i"),
        text.into(),
        &Options::default(),
    ) {
        Ok(c) => Ok(format!("threaded={}\n{}", c.ir.threaded, c.ir)),
        Err(d) => Err(sources.render(&d)),
    }
}

#[test]
fn pthreads_lower_to_spawn_join_lock_and_atomic() {
    let ir = lower(
        "typedef unsigned long pthread_t;
typedef union { char s[24]; long a; } pthread_mutex_t;
int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
int pthread_join(pthread_t, void **);
int pthread_mutex_lock(pthread_mutex_t *);
int pthread_mutex_unlock(pthread_mutex_t *);
pthread_mutex_t m;
int x;
void __VERIFIER_atomic_inc(void) { x = x + 1; }
void *body(void *arg) { pthread_mutex_lock(&m); x = x + 1; pthread_mutex_unlock(&m); __VERIFIER_atomic_inc(); return 0; }
int main(void) { pthread_t t; pthread_create(&t, 0, body, 0); pthread_join(t, 0); return x; }
",
    )
    .unwrap();
    assert!(ir.starts_with("threaded=true"), "{ir}");
    for want in [
        "m = new $mutex",
        "t = spawn body(0)",
        "join t",
        "lock $mutex.$lock[m]",
        "unlock $mutex.$lock[m]",
        "atomic begin",
        "atomic end",
    ] {
        assert!(ir.contains(want), "no `{want}` in\n{ir}");
    }
    // `x = x + 1` on a shared global: a read, then a write.
    assert!(ir.contains("$t1 = x"), "{ir}");
    assert!(ir.contains("x = ($t1 +:i32 1:i32)"), "{ir}");
}

#[test]
fn programs_without_threads_read_globals_in_place() {
    let ir = lower("int x; int main(void) { x = x + 1; return x; }").unwrap();
    assert!(ir.starts_with("threaded=false"), "{ir}");
    assert!(ir.contains("x = (x +:i32 1:i32)"), "{ir}");
}

#[test]
fn structures_malloc_free_and_member_checks() {
    let ir = lower(
        "void *malloc(unsigned long); void free(void *);
struct node { int val; struct node *next; };
int main(void) {
  struct node *p = malloc(sizeof(struct node));
  p->next = 0;
  p->val = 3;
  int v = p->val;
  free(p);
  return v;
}
",
    )
    .unwrap();
    for want in [
        "new struct node",
        "check null_dereference",
        "check use_after_free if $freed",
        "check invalid_free if",
        "not $malloced[",
        "check out_of_bounds if",
        "$len[",
        "check double_free if $freed",
        "$freed[",
        "$malloced[",
        "check memory_leak if ($live !=:int 0)",
    ] {
        assert!(ir.contains(want), "no `{want}` in\n{ir}");
    }
}

#[test]
fn address_taken_variables_live_in_cells() {
    let ir = lower("int main(void) { int a = 1; int *p = &a; *p = 2; return a; }").unwrap();
    assert!(ir.contains("new $cell_i32"), "{ir}");
    assert!(ir.contains("$cell_i32.v["), "{ir}");
}

#[test]
fn stores_through_pointers_are_kept_in_step_only_where_a_union_is_pointed_into() {
    // A union stored into by name only: lowered as before, no
    // descriptors, no check at the store through `q`.
    let named = "union u { int a; char c[4]; }; int main(void){ union u x; int y; int *q = &y; x.a = 1; *q = 2; return x.c[0] + y; }";
    let ir = lower(named).unwrap();
    assert!(!ir.contains("$union slot"), "{ir}");
    // A pointer into `x.a`: the union's slots are described where it is
    // taken, and the store through `p` reads the descriptor.
    let pointed = "union u { int a; char c[4]; }; int main(void){ union u x; int *p = &x.a; *p = 1; return x.c[0]; }";
    let ir = lower(pointed).unwrap();
    assert!(ir.matches("$union slot[").count() >= 2, "{ir}");
}

#[test]
fn outside_the_subset_is_an_error_at_its_place() {
    let cases = [
        (
            "int main(void){ int a = 1; void *p = &a; p = p + 1; return 0; }",
            "arithmetic on `void *`",
        ),
        (
            "struct s { int v; }; int main(void){ struct s *p = 0; long x = (long)p; return 0; }",
            "casts of pointers to integers",
        ),
        (
            "union in { int a; char c[4]; }; union u { union in i; long b; }; int main(void){ union u x; int *p = &x.i.a; return 0; }",
            "a pointer into a member of a union nested in another union",
        ),
        (
            "int main(void){ _Complex double z; return 0; }",
            "complex and `_FloatN` types",
        ),
        (
            // A flexible array member: its length is the allocation's.
            "struct st { int top; int data[]; }; int main(void){ struct st s; s.data[0] = 5; return 0; }",
            "arrays without a constant length inside structures",
        ),
    ];
    for (text, want) in cases {
        let err = lower(text).expect_err(text);
        assert!(err.contains(want), "`{text}`: {err}");
        assert!(err.contains("t.i:1:"), "`{text}`: {err}");
    }
}
