// An unsigned surprise that becomes an array overrun: for n == 0 the bound
// n - 1 is UINT_MAX, and i <= n - 1 compares i as unsigned, so the loop
// that should clear no element runs past the end of a[8]: an out-of-bounds
// write, an error of its own kind, at a[8].
// expect: bug out_of_bounds 15:5
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  int a[8];
  unsigned int n = __VERIFIER_nondet_uint();
  if (n > 8) {
    return 0;
  }
  for (int i = 0; i <= n - 1; i++) {
    a[i] = 0;
  }
  return a[0];
}
