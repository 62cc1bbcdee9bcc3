// sum.c with signed arithmetic wrapping (--wrap-signed, like gcc -fwrapv):
// then x + y - b == a + b + c holds modulo 2^32 for every input, and the
// seed's claim that sum() returns a + b + c becomes true of C too.
// expect: safe
// args: --wrap-signed
#include <assert.h>

extern int __VERIFIER_nondet_int(void);

int sum(int a, int b, int c) {
  int x = a + b;
  int y = b + c;
  int z = x + y - b;
  return z;
}

int main(void) {
  int a = __VERIFIER_nondet_int();
  int b = __VERIFIER_nondet_int();
  int c = __VERIFIER_nondet_int();
  int s = sum(a, b, c);
  assert(s == a + b + c);
  return 0;
}
