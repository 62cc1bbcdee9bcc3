// The average of the inputs in range (0, 1000) divides by their count,
// which is 0 when none of the three is in range: a division by zero (%
// by zero would be the same error). The guarded division is fine.
// expect: bug division_by_zero 20:19
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int count = 0, total = 0;
  for (int i = 0; i < 3; i++) {
    int v = __VERIFIER_nondet_int();
    if (v > 0 && v < 1000) {
      total += v;
      count++;
    }
  }
  if (count != 0) {
    int avg = total / count;
    return avg;
  }
  int avg = total / count;
  return avg;
}
