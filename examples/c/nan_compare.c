// A range check written with `<` and `>` lets a NaN through: every
// comparison with a NaN is false, so `x < 0 || x > 100` does not reject
// it, and the clamped value is no percentage. wiser finds the NaN input
// (its witness prints it as `nan`) and the gcc harness agrees.
// expect: bug assertion 16:3
#include <assert.h>
extern double __VERIFIER_nondet_double(void);

double percentage(double x) {
  if (x < 0.0 || x > 100.0) return 0.0;
  return x;
}

int main(void) {
  double p = percentage(__VERIFIER_nondet_double());
  assert(p >= 0.0 && p <= 100.0);
  return 0;
}
