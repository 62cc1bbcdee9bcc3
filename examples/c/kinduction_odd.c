// A product of odd numbers is odd, in machine integers too: each x is the
// product of the four before it, so x stays odd. An inductive invariant
// needs y, z and w odd as well (Spacer takes 2 to 25 seconds for one);
// k-induction needs no more than the property: four consecutive odd x
// make the next one odd. `wiser prove` proves it by k-induction at k = 4
// in under a second, checked independently.
// expect: unknown
// args: --max-states 2000
// prove: safe
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
void reach_error(void) { abort(); }

int main(void) {
  unsigned x = 3, y = 5, z = 7, w = 9;
  while (__VERIFIER_nondet_int()) {
    unsigned t = x * y * z * w;
    x = y;
    y = z;
    z = w;
    w = t;
    if (x % 2 != 1)
      reach_error();
  }
  return 0;
}
