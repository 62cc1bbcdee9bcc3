// A local declared without a value and assigned before any read is no
// input: `i` takes its value from the loop, so the witness names only
// the three nondeterministic reads. (Listing `i (uninitialised) = 0`
// first, as wiser once did, shifted the reads that `wiser run --reads`
// and Test-Comp's tester feed to the calls.)
// expect: bug fail 17:17
extern unsigned char __VERIFIER_nondet_uchar(void);
extern void reach_error(void);

int main(void) {
  int i;
  int s = 0;
  for (i = 0; i < 3; i++) {
    unsigned char v = __VERIFIER_nondet_uchar();
    s += v;
  }
  if (s == 700) reach_error();
  return 0;
}
