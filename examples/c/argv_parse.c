// Command-line parsing: `main`'s arguments are inputs, as KLEE's
// --sym-args makes them (argc up to 4, each argument up to 4 bytes; see
// docs/C.md). The program takes `-n DIGITS` and crashes on a count of 7
// or more: wiser finds the command line `prog -n 7`, `wiser run` replays
// it, and the gcc harness calls `main` with it.
// expect: bug fail 24:7
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>

extern void reach_error(void);

int main(int argc, char **argv) {
  int count = 1;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "-n") == 0 && i + 1 < argc && isdigit(argv[i + 1][0])) {
      count = atoi(argv[i + 1]);
      i++;
    }
  }
  printf("count = %d\n", count);
  if (count >= 7) {
      reach_error();
  }
  return 0;
}
