// C's integer promotions and conversions: unsigned char operands are
// promoted to int (a + b never wraps), but storing back into an unsigned
// char wraps modulo 256, and so does compound assignment. Comparing a
// negative int with an unsigned converts it: -1 < 1u is false. Safe.
// expect: safe
#include <assert.h>

extern unsigned char __VERIFIER_nondet_uchar(void);
extern int __VERIFIER_nondet_int(void);

int main(void) {
  unsigned char a = __VERIFIER_nondet_uchar();
  unsigned char b = __VERIFIER_nondet_uchar();
  int wide = a + b;
  unsigned char narrow = a + b;
  assert(wide >= 0 && wide <= 510);
  assert(wide == narrow || wide == narrow + 256);
  unsigned char c = a;
  c += 1;
  assert((c == 0) == (a == 255));
  signed char s = (signed char)a;
  assert((s < 0) == (a > 127));
  int m = __VERIFIER_nondet_int();
  if (m < 0) {
    assert(!(m < 1u));
  }
  assert(-1 < 1 && !(-1 < 1u));
  return 0;
}
