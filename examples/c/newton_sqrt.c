// Newton's iteration for the square root, r = (r + x / r) / 2 from r = 1,
// on float inputs in [1, 1.5]: after one step, r * r is within 0.07 of x
// (the error is (x - 1)^2 / 4 before rounding). wiser proves it for every
// float in the interval — two paths, one solver query each over all the
// inputs at once — in about 2 s with Z3 (3 s with cvc5). With STEPS 2 the
// query outlasts the default 10 s solver timeout of both (verdict
// unknown; docs/C.md).
// expect: safe
extern float __VERIFIER_nondet_float(void);
extern void __VERIFIER_assume(int);
extern void reach_error(void);

#define STEPS 1

int main(void) {
  float x = __VERIFIER_nondet_float();
  __VERIFIER_assume(x >= 1.0f && x <= 1.5f);
  float r = 1.0f;
  for (int i = 0; i < STEPS; i++)
    r = (r + x / r) / 2.0f;
  if (!(r * r - x < 0.07f && x - r * r < 0.07f))
    reach_error();
  return 0;
}
