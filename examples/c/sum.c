// Seed 004's motivating example: sum(a, b, c) returns a + b + c "if int
// is interpreted as Z". In C it is not: a + b already overflows for large
// inputs, undefined behaviour that is a bug of its own kind. (With
// --wrap-signed the assertion holds: wrapping arithmetic is consistent.)
// expect: bug signed_overflow 11:13
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
