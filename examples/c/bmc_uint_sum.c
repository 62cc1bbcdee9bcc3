// Seed 004's second bounded-model-checking example: as bmc_uchar_sum.c, but
// the sum s is an unsigned int. At most 255 bytes of at most 255 sum to
// less than 2^32, so s never wraps and s >= v always holds: safe, on all
// 255 paths (one per n). The IMP version is examples/bmc_uint_sum.imp.
// expect: safe
#include <assert.h>

extern unsigned char __VERIFIER_nondet_uchar(void);

int main(void) {
  unsigned char n = __VERIFIER_nondet_uchar();
  if (n == 0) {
    return 0;
  }
  unsigned char v = 0;
  unsigned int s = 0;
  unsigned int i = 0;
  while (i < n) {
    v = __VERIFIER_nondet_uchar();
    s += v;
    ++i;
  }
  assert(s >= v);
  return 0;
}
