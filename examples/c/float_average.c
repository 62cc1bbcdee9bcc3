// The average of two floats, computed the obvious way, can leave the
// interval between them: `(a + b) / 2` overflows to infinity when both
// are large, although their average is a float. wiser finds two such
// values (the solver reasons about IEEE 754 binary32 exactly), and the
// harness compiled by gcc with SSE arithmetic reaches the same error.
// expect: bug fail 18:28
#include <math.h>
extern float __VERIFIER_nondet_float(void);
extern void reach_error(void);

float average(float a, float b) { return (a + b) / 2.0f; }

int main(void) {
  float a = __VERIFIER_nondet_float();
  float b = __VERIFIER_nondet_float();
  if (!isfinite(a) || !isfinite(b) || a < 0.0f || b < 0.0f) return 0;
  float m = average(a, b);
  if (!(m <= fmaxf(a, b))) reach_error();
  return 0;
}
