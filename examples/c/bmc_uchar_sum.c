// Seed 004's first bounded-model-checking example (CBMC), as C: n, v and s
// are unsigned char, so the sum s of n input bytes wraps around at 256 and
// can end below the last byte v (the seed's witness: n = 2, v = 224, 63).
// The IMP version is examples/bmc_uchar_sum.imp.
// expect: bug assertion 23:3
#include <assert.h>

extern unsigned char __VERIFIER_nondet_uchar(void);

int main(void) {
  unsigned char n = __VERIFIER_nondet_uchar();
  if (n == 0) {
    return 0;
  }
  unsigned char v = 0;
  unsigned char s = 0;
  unsigned int i = 0;
  while (i < n) {
    v = __VERIFIER_nondet_uchar();
    s += v;
    ++i;
  }
  assert(s >= v);
  return 0;
}
