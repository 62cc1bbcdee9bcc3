// A calculator whose operations are called through function pointers: a
// call through a pointer takes each function of its type that the
// program uses as a value as a branch, so the bug in `scale` is found
// with the inputs that select it (operation 3) and reach it (7).
// expect: bug assertion 18:5
// reads: 3,7
#include <assert.h>
extern int __VERIFIER_nondet_int(void);

typedef int (*binop)(int, int);

int add(int a, int b) { return a + b; }
int sub(int a, int b) { return a - b; }
int mul(int a, int b) { return a * b; }

int scale(int a, int b) {
    // The bug: an operand this operation never expects.
    assert(b != 7);
    return a * 2 + b;
}

binop table[] = {add, sub, mul, scale};

struct calc {
    binop op;
    int acc;
};

int step(struct calc *c, int x) {
    c->acc = c->op(c->acc, x);
    return c->acc;
}

int main(void) {
    int k = __VERIFIER_nondet_int();
    if (k < 0 || k > 3)
        return 0;
    int x = __VERIFIER_nondet_int();
    if (x < 0 || x > 100)
        return 0;
    struct calc c = {table[k], 1};
    if (c.op == 0)
        return 1;
    return step(&c, x);
}
