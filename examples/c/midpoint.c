// Binary search's classic midpoint bug (Bloch, 2006) in C: (lo + hi) / 2
// overflows int when lo + hi exceeds INT_MAX, even though both are valid
// indices; lo + (hi - lo) / 2, computed first, never does.
// expect: bug signed_overflow 15:17
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int cond);

int main(void) {
  int lo = __VERIFIER_nondet_int();
  int hi = __VERIFIER_nondet_int();
  __VERIFIER_assume(0 <= lo && lo <= hi);
  int safe = lo + (hi - lo) / 2;
  if (safe < lo || safe > hi)
    return 1;
  int mid = (lo + hi) / 2;
  return mid != safe;
}
