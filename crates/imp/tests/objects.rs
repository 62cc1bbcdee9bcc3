//! Objects and threads in IMP: the syntax prints back as it parses, the
//! static errors say what and where, and the IR listings of lowering
//! (run with `UPDATE_EXPECT=1` to regenerate after an intended change,
//! then review the diff).

use expect_test::{expect, Expect};
use wiser_imp::{parse_program, SourceMap};

/// Compiles `src`; renders the IR or the diagnostic.
fn check(src: &str, expect: Expect) {
    let out = match wiser_imp::compile(src) {
        Ok(ir) => ir.to_string(),
        Err(d) => SourceMap::new("test.imp", src).render(&d),
    };
    expect.assert_eq(&out);
}

/// Parses `src`, prints it, and checks that the printed text parses to a
/// program that prints the same (the printer writes what the parser
/// reads).
fn round_trip(src: &str) -> String {
    let p = parse_program(src).unwrap_or_else(|d| panic!("{}", d.message));
    let printed = p.to_string();
    let again = parse_program(&printed).unwrap_or_else(|d| panic!("{}\n{printed}", d.message));
    assert_eq!(again.to_string(), printed);
    assert_eq!(again.classes.len(), p.classes.len());
    assert_eq!(again.globals.len(), p.globals.len());
    printed
}

const COUNTER: &str = "class Node begin val: int; next: Node end
class Counter begin
  n: int
  method inc() begin this.n = this.n + 1 end
  method get(): int begin return this.n end
  method self(): Counter begin return this end
end
global c: Counter
global count: u8 = 0
global seed: int
proc worker(k: Counter) begin lock k; k.n = k.n + 1; unlock k end
var x: Node;
y = new Node;
y.next = x;
if x != null and x.next == null then y.val = x.val + 1 else skip fi;
z = y.next.val;
c = new Counter;
c.inc();
r = c.get();
d = c.self();
t = spawn worker(c);
u = spawn d.inc();
join t; join u;
atomic begin count = count + 1 end;
assert c.n == 2
";

#[test]
fn printer_round_trip() {
    expect![[r#"
        proc worker(k: Counter) begin
          lock k;
          k.n = k.n + 1;
          unlock k
        end
        class Node begin
          val: int;
          next: Node;
        end
        class Counter begin
          n: int;
          method inc() begin
            this.n = this.n + 1
          end
          method get() begin
            return this.n
          end
          method self() : Counter begin
            return this
          end
        end
        global c: Counter
        global count: u8 = 0
        global seed: int
        var x: Node;
        y = new Node;
        y.next = x;
        if x != null and x.next == null then
          y.val = x.val + 1
        else
          skip
        fi;
        z = y.next.val;
        c = new Counter;
        c.inc();
        r = c.get();
        d = c.self();
        t = spawn worker(c);
        u = spawn d.inc();
        join t;
        join u;
        atomic begin
          count = count + 1
        end;
        assert c.n == 2
    "#]]
    .assert_eq(&round_trip(COUNTER));
}

#[test]
fn keywords_do_not_change_old_programs() {
    // None of the new keywords was a name in the examples; a name that
    // merely starts with one is still a name.
    let p = parse_program("lockx = 1; newer = lockx; joined = newer").unwrap();
    assert_eq!(
        p.to_string(),
        "lockx = 1;\nnewer = lockx;\njoined = newer\n"
    );
}

#[test]
fn lowering_with_threads() {
    // With `spawn`, each statement makes at most one access to shared
    // state: `y.next.val` reads `y.next` into a temporary first, `count =
    // count + 1` reads `count` first, and the global target of `new` is
    // written by a step of its own. `x != null and x.next == null` reads
    // one field only, so it stays one condition.
    check(
        COUNTER,
        expect![[r#"
        global g0 c: int = input
        global g1 count: u8 = 0
        global g2 seed: int = input
        array a0 Node.$lock: [int] int = all 0
        array a1 Counter.$lock: [int] int = all 0
        array a2 Node.val: [int] int = input
        array a3 Node.next: [int] int = input
        array a4 Counter.n: [int] int = input
        routine main(0) [0:x:int, 1:y:int, 2:z:int, 3:r:int, 4:d:int, 5:t:int, 6:u:int, 7:$t1:int, 8:$t2:int, 9:$t3:int, 10:$t4:int, 11:$t5:int, 12:$t6:u8, 13:$t7:int, 14:$t8:int] entry 0
          inputs x
            0: y = new Node -> 1
            1: Node.next[y] = x -> 2
               check null_dereference if (y ==:int 0)
            2: if ((x !=:int 0) and (Node.next[x] ==:int 0)) -> 3 else 5
               check null_dereference if (x ==:int 0) when (x !=:int 0)
            3: $t1 = Node.val[x] -> 4
               check null_dereference if (x ==:int 0)
            4: Node.val[y] = ($t1 +:int 1) -> 5
               check null_dereference if (y ==:int 0)
            5: $t2 = Node.next[y] -> 6
               check null_dereference if (y ==:int 0)
            6: $t3 = Node.val[$t2] -> 7
               check null_dereference if ($t2 ==:int 0)
            7: z = $t3 -> 8
            8: $t4 = new Counter -> 9
            9: c = $t4 -> 10
           10: Counter.inc(c) -> 11
               check null_dereference if (c ==:int 0)
           11: r = Counter.get(c) -> 12
               check null_dereference if (c ==:int 0)
           12: d = Counter.self(c) -> 13
               check null_dereference if (c ==:int 0)
           13: $t5 = c -> 14
           14: t = spawn worker($t5) -> 15
           15: u = spawn Counter.inc(d) -> 16
               check null_dereference if (d ==:int 0)
           16: join t -> 17
           17: join u -> 18
           18: atomic begin -> 19
           19: $t6 = count -> 20
           20: count = ($t6 +:u8 1:u8) -> 21
           21: atomic end -> 22
           22: $t7 = c -> 23
           23: $t8 = Counter.n[$t7] -> 24
               check null_dereference if ($t7 ==:int 0)
           24: assert ($t8 ==:int 2) -> 25
           25: halt
        routine worker(1) -> int [0:k:int, 1:$t1:int] entry 26
           26: lock Counter.$lock[k] -> 27
               check null_dereference if (k ==:int 0)
           27: $t1 = Counter.n[k] -> 28
               check null_dereference if (k ==:int 0)
           28: Counter.n[k] = ($t1 +:int 1) -> 29
               check null_dereference if (k ==:int 0)
           29: unlock Counter.$lock[k] -> 30
               check null_dereference if (k ==:int 0)
           30: return 0
        routine Counter.inc(1) -> int [0:this:int, 1:$t1:int] entry 31
           31: $t1 = Counter.n[this] -> 32
               check null_dereference if (this ==:int 0)
           32: Counter.n[this] = ($t1 +:int 1) -> 33
               check null_dereference if (this ==:int 0)
           33: return 0
        routine Counter.get(1) -> int [0:this:int] entry 34
           34: return Counter.n[this]
               check null_dereference if (this ==:int 0)
        routine Counter.self(1) -> int [0:this:int] entry 35
           35: return this
    "#]],
    );
}

#[test]
fn lowering_without_threads() {
    // No `spawn`: every statement is one instruction, as before threads.
    check(
        "class C begin n: int; next: C end
var p: C;
assume p != null;
p.n = p.n + p.next.n;
q = new C;
q.next = p;
assert q.next.n == p.n",
        expect![[r#"
            array a0 C.$lock: [int] int = all 0
            array a1 C.n: [int] int = input
            array a2 C.next: [int] int = input
            routine main(0) [0:p:int, 1:q:int] entry 0
              inputs p
                0: assume (p !=:int 0) -> 1
                1: C.n[p] = (C.n[p] +:int C.n[C.next[p]]) -> 2
                   check null_dereference if (p ==:int 0)
                   check null_dereference if (p ==:int 0)
                   check null_dereference if (p ==:int 0)
                   check null_dereference if (C.next[p] ==:int 0)
                2: q = new C -> 3
                3: C.next[q] = p -> 4
                   check null_dereference if (q ==:int 0)
                4: assert (C.n[C.next[q]] ==:int C.n[p]) -> 5
                   check null_dereference if (q ==:int 0)
                   check null_dereference if (C.next[q] ==:int 0)
                   check null_dereference if (p ==:int 0)
                5: halt
        "#]],
    );
}

#[test]
fn short_circuit_reads_under_threads() {
    // In a split statement, the right operand of `and` is evaluated only
    // when the left holds: `g.n` is never read when `g` is `null`.
    check(
        "class C begin n: int end
global g: C
proc p() begin skip end
t = spawn p();
if g != null and g.n > 0 then skip else skip fi",
        expect![[r#"
            global g0 g: int = input
            array a0 C.$lock: [int] int = all 0
            array a1 C.n: [int] int = input
            routine main(0) [0:t:int, 1:$t1:int, 2:$t2:bool, 3:$t3:int, 4:$t4:int] entry 0
                0: t = spawn p() -> 1
                1: $t1 = g -> 2
                2: if ($t1 !=:int 0) -> 3 else 6
                3: $t3 = g -> 4
                4: $t4 = C.n[$t3] -> 5
                   check null_dereference if ($t3 ==:int 0)
                5: $t2 = ($t4 >:int 0) -> 7
                6: $t2 = false -> 7
                7: if $t2 -> 8 else 8
                8: halt
            routine p(0) -> int [] entry 9
                9: return 0
        "#]],
    );
}

#[test]
fn input_references_and_globals() {
    // A reference read before it is written in main is an input (marked
    // `refers` in the IR, so the engine gives it an input heap object); so
    // is a global reference without a value.
    let ir = wiser_imp::compile(
        "class C begin n: int end
global g: C
global k: int = 3
var x: C;
assert x == g or x.n == k",
    )
    .unwrap();
    assert_eq!(ir.inputs.len(), 1);
    assert_eq!(ir.inputs[0].refers, Some(wiser_ir::ClassId(0)));
    assert_eq!(ir.globals[0].refers, Some(wiser_ir::ClassId(0)));
    assert_eq!(ir.globals[0].init, None);
    assert_eq!(ir.globals[1].init, Some(3.into()));
    assert!(!ir.threaded);
}

#[test]
fn assume_on_input_references() {
    let mut sources = wiser_imp::Sources::new();
    let program = sources.add(SourceMap::new(
        "list.imp",
        "class Node begin val: int; next: Node end
var l: Node;
assert l.val >= 0",
    ));
    let assume = sources.add(SourceMap::new("--assume", "l != null and l.val > 2"));
    let ir = wiser_imp::compile_files(&sources, program, Some(assume)).unwrap();
    expect![[r#"
        array a0 Node.$lock: [int] int = all 0
        array a1 Node.val: [int] int = input
        array a2 Node.next: [int] int = input
        routine main(0) [0:l:int] entry 0
          inputs l
            0: assume ((l !=:int 0) and (Node.val[l] >:int 2)) -> 1
               check null_dereference if (l ==:int 0) when (l !=:int 0)
            1: assert (Node.val[l] >=:int 0) -> 2
               check null_dereference if (l ==:int 0)
            2: halt
    "#]]
    .assert_eq(&ir.to_string());
    // A name that is not an input is still an error in the condition.
    let bad = sources.add(SourceMap::new("--assume", "m != null"));
    let d = wiser_imp::compile_files(&sources, program, Some(bad)).unwrap_err();
    expect![[r#"
        error: the program has no input `m`
         --> --assume:1:1
          |
        1 | m != null
          | ^
          = help: did you mean `l`?
    "#]]
    .assert_eq(&sources.render(&d));
}

/// Renders the diagnostic of each of `srcs` (each must be rejected).
fn errors(srcs: &[&str]) -> String {
    let mut out = String::new();
    for src in srcs {
        match wiser_imp::compile(src) {
            Ok(_) => panic!("accepted: {src}"),
            Err(d) => out.push_str(&SourceMap::new("test.imp", *src).render(&d)),
        }
    }
    out
}

const NODE: &str = "class Node begin val: int; next: Node end\nclass Other begin x: int end\n";

#[test]
fn static_errors_of_objects() {
    let cases: Vec<String> = [
        "var x: Nod; skip",
        "x = new Nodes",
        "var x: Node; y = x.vla",
        "var x: Node; x.inc()",
        "y = 3; z = y.val",
        "var x: Node; y = x + 1",
        "var x: Node; var o: Other; assert x == o",
        "var x: Node; assert x < null",
        "var x: Node; assert x == 0",
        "var o: Other; o = new Node",
        "var x: Node; x.val = x",
        "z = this.val",
        "y = null.val",
        "var x: Node; x = *",
        "class Node begin a: int end\nskip",
        "var x: Node; var x: Other; skip",
    ]
    .iter()
    .map(|s| format!("{NODE}{s}"))
    .collect();
    let cases: Vec<&str> = cases.iter().map(|s| &**s).collect();
    expect![[r#"
        error: unknown class or type `Nod`
         --> test.imp:3:8
          |
        3 | var x: Nod; skip
          |        ^^^
          = help: did you mean `Node`?
        error: unknown class or type `Nodes`
         --> test.imp:3:9
          |
        3 | x = new Nodes
          |         ^^^^^
          = help: did you mean `Node`?
        error: class `Node` has no field `vla`
         --> test.imp:3:20
          |
        3 | var x: Node; y = x.vla
          |                    ^^^
          = help: did you mean `val`?
        error: class `Node` has no method `inc`
         --> test.imp:3:16
          |
        3 | var x: Node; x.inc()
          |                ^^^
          = help: class `Node` has no methods
        error: field access on `y`, which is an integer, not a reference
         --> test.imp:3:12
          |
        3 | y = 3; z = y.val
          |            ^
          = help: declare `y` as a reference, e.g. `var y: C` for a class `C`
        error: `x` is a reference to `Node`, not an integer
         --> test.imp:3:18
          |
        3 | var x: Node; y = x + 1
          |                  ^
          = help: references can only be compared with `==` and `!=`, dereferenced with `.field`, and assigned
        error: cannot compare a reference to `Node` with a reference to `Other`
         --> test.imp:3:35
          |
        3 | var x: Node; var o: Other; assert x == o
          |                                   ^^^^^^
          = help: objects of different classes are never the same object
        error: references cannot be compared with `<`
         --> test.imp:3:21
          |
        3 | var x: Node; assert x < null
          |                     ^^^^^^^^
          = help: references are equal or not: use `==` or `!=`
        error: cannot compare a reference with an integer in `==`
         --> test.imp:3:21
          |
        3 | var x: Node; assert x == 0
          |                     ^^^^^^
          = help: write `null` for no object
        error: cannot assign a new `Node` to `o`, which is a reference to `Other`
         --> test.imp:3:15
          |
        3 | var o: Other; o = new Node
          |               ^
          = help: use a variable of class `Node`, e.g. `var o2: Node`
        error: `x` is a reference to `Node`, not an integer
         --> test.imp:3:22
          |
        3 | var x: Node; x.val = x
          |                      ^
          = help: references can only be compared with `==` and `!=`, dereferenced with `.field`, and assigned
        error: `this` outside a method
         --> test.imp:3:5
          |
        3 | z = this.val
          |     ^^^^
          = help: `this` is the object a method of a class runs on; pass the object as a parameter instead
        error: expected ';' or end of input, found '.'
         --> test.imp:3:9
          |
        3 | y = null.val
          |         ^
        error: `x` is a reference and cannot be read from the input
         --> test.imp:3:14
          |
        3 | var x: Node; x = *
          |              ^^^^^
          = help: a reference of the main program that is read before it is assigned is an input already
        error: class `Node` is defined twice
         --> test.imp:3:7
          |
        3 | class Node begin a: int end
          |       ^^^^
          = help: rename one of them
        error: `x` is already declared as a reference to `Node`
         --> test.imp:3:18
          |
        3 | var x: Node; var x: Other; skip
          |                  ^
          = help: a variable has one type in its whole routine (the main program or a procedure); remove one of the declarations or rename one of the variables
    "#]].assert_eq(&errors(&cases));
}

#[test]
fn static_errors_of_threads_and_globals() {
    expect![[r#"
        error: unknown procedure `q`
         --> test.imp:2:11
          |
        2 | t = spawn q()
          |           ^
          = help: a thread runs a procedure: define it before the main program, `proc q(...) begin ... end`
        error: `m` is a macro, and a thread runs a procedure
         --> test.imp:2:7
          |
        2 | spawn m()
          |       ^
          = help: make it a `proc`
        error: procedure `p` expects 1 argument, found 0
         --> test.imp:2:1
          |
        2 | spawn p()
          | ^^^^^^^^^
        error: class `C` has no method `go`
         --> test.imp:2:23
          |
        2 | var c: C; t = spawn c.go()
          |                       ^^
          = help: class `C` has no methods
        error: `c` is a reference to `C`, not an integer
         --> test.imp:2:16
          |
        2 | var c: C; join c
          |                ^
          = help: references can only be compared with `==` and `!=`, dereferenced with `.field`, and assigned
        error: a lock on `3`, which is an integer, not a reference
         --> test.imp:1:6
          |
        1 | lock 3
          |      ^
          = help: only references to objects have fields and methods
        error: `return` inside an atomic section
         --> test.imp:1:29
          |
        1 | proc p() begin atomic begin return 1 end end
          |                             ^^^^^^^^
          = help: store the result in a variable and return after `end`
        error: atomic sections cannot nest
         --> test.imp:1:14
          |
        1 | atomic begin atomic begin skip end end
          |              ^^^^^^^^^^^^^^^^^^^^^
          = help: the outer section already runs without interruption
        error: `g` is a global and cannot be declared here
         --> test.imp:2:5
          |
        2 | var g: u8 = 1
          |     ^
          = help: its type is given by its `global` definition; use another name for a variable of this routine
        error: `g` is a global and cannot be declared here
         --> test.imp:2:8
          |
        2 | proc p(g) begin skip end
          |        ^
          = help: its type is given by its `global` definition; use another name for a variable of this routine
        error: `300` does not fit `u8`
         --> test.imp:1:16
          |
        1 | global g: u8 = 300
          |                ^^^
          = help: give the global a value of its type
        error: `g` is a reference to `C`
         --> test.imp:2:15
          |
        2 | global g: C = 1
          |               ^
          = help: a reference starts as `null`, or as an input without a value
        error: `this` outside a method
         --> test.imp:1:20
          |
        1 | proc p() begin x = this end
          |                    ^^^^
          = help: `this` is the object a method of a class runs on; pass the object as a parameter instead
        error: `g` is a global scalar but used as an array
         --> test.imp:1:8
          |
        1 | global g: int
          |        ^
          = help: arrays and scalars need different names
    "#]].assert_eq(&errors(&[
        "proc p() begin skip end\nt = spawn q()",
        "macro m() begin skip end\nspawn m()",
        "proc p(a) begin skip end\nspawn p()",
        "class C begin n: int end\nvar c: C; t = spawn c.go()",
        "class C begin n: int end\nvar c: C; join c",
        "lock 3",
        "proc p() begin atomic begin return 1 end end\nskip",
        "atomic begin atomic begin skip end end",
        "global g: int\nvar g: u8 = 1",
        "global g: int\nproc p(g) begin skip end\nskip",
        "global g: u8 = 300\nskip",
        "class C begin n: int end\nglobal g: C = 1\nskip",
        "proc p() begin x = this end\nskip",
        "global g: int\nvar a: int[]; g[1] = 2",
    ]));
}
