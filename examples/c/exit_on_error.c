// Exiting on an error, as C programs do: `exit(1)` when `malloc` fails,
// `exit(2)` on a bad sum. `exit` ends the program while every frame's
// locals still point where they point, and wiser does not walk the
// frames: a leak at an `exit` is decided where no object `malloc` made
// is live then, and elsewhere the report lists the `exit` as unchecked.
// Here the failed `malloc` made nothing, and the buffer is freed before
// the other `exit`: memory safe (SV-COMP's `valid-memsafety`), with
// `malloc` allowed to fail. Without the `free(buf)` before `exit(2)`,
// the verdict is unknown, with that `exit` listed.
// expect: safe
// args: --property valid-memsafety --malloc-may-fail
#include <stdio.h>
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n <= 0 || n > 4)
    return 1;
  int *buf = malloc(n * sizeof *buf);
  if (buf == NULL) {
    fprintf(stderr, "out of memory\n");
    exit(1);
  }
  int sum = 0;
  for (int i = 0; i < n; i++) {
    buf[i] = __VERIFIER_nondet_int() % 100;
    sum += buf[i];
  }
  if (sum < 0) {
    free(buf);
    exit(2);
  }
  printf("sum %d\n", sum);
  free(buf);
  return 0;
}
