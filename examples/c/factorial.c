// Recursion: n! for 0 <= n <= 12 (13! does not fit a 32-bit int). Each n
// is one path through 13 nested calls at most; every result is positive
// and divisible by n, so the search ends with safe.
// expect: safe
#include <assert.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int cond);

int fact(int n) {
  if (n <= 1)
    return 1;
  return n * fact(n - 1);
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  __VERIFIER_assume(n >= 0 && n <= 12);
  int f = fact(n);
  assert(f > 0);
  assert(n == 0 || f % n == 0);
  return 0;
}
