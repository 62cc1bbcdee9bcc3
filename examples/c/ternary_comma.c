// The conditional operator and the comma operator: max3 by two ?:, and an
// in-place reversal whose for loop moves two indices with commas. Reversing
// twice gives the input back, and the maximum bounds every element. Safe.
// expect: safe
#include <assert.h>

extern int __VERIFIER_nondet_int(void);

int max3(int a, int b, int c) {
  int m = a > b ? a : b;
  return m > c ? m : c;
}

void reverse(int a[], int n) {
  for (int i = 0, j = n - 1; i < j; i++, j--) {
    int t = a[i];
    a[i] = a[j], a[j] = t;
  }
}

int main(void) {
  int a[3], b[3];
  for (int k = 0; k < 3; k++)
    b[k] = a[k] = __VERIFIER_nondet_int();
  reverse(a, 3);
  assert(a[0] == b[2] && a[1] == b[1] && a[2] == b[0]);
  reverse(a, 3);
  int m = max3(a[0], a[1], a[2]);
  for (int k = 0; k < 3; k++)
    assert(a[k] == b[k] && a[k] <= m);
  return 0;
}
