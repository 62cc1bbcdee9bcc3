// A buffer overflow on the heap: `copy` copies `n` values into a buffer
// of `n - 1`, so its last write lands one past the end when `n` is at
// least 1. The pointer walks the buffer (`*dst++ = ...`); the check of
// each write knows the buffer's length.
// expect: bug out_of_bounds 15:21
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

int copy(int *dst, int n) {
  int sum = 0;
  for (int i = 0; i < n; i++) {
    int v = __VERIFIER_nondet_int();
    if (v < 0 || v > 9) return sum;
    sum += v;
    if (i == n - 1) *dst = v;
    else *dst++ = v;
  }
  return sum;
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 4) return 0;
  int *buf = malloc((n - 1) * sizeof(int));
  copy(buf, n);
  free(buf);
  return 0;
}
