// A first C program as people write it: <stdio.h>, printf, and a bug that
// depends on the input. printf's output has no effect on the check, and
// its result is read by no path, so it is no input of the witness: the
// bug's input is the one nondet call, n = 104 or 105. `wiser run
// hello_printf.c --reads 105` prints `n = 105` and `half = 52`, then the
// assertion's failure.
// expect: bug assertion 19:5
#include <assert.h>
#include <stdio.h>

extern int __VERIFIER_nondet_int(void);

int main(void) {
  int n = __VERIFIER_nondet_int();
  printf("n = %d\n", n);
  if (n > 100 && n < 110) {
    int half = n / 2;
    printf("half = %d\n", half);
    assert(half != 52);
  }
  return 0;
}
