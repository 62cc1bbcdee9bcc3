// A keypad lock as a reactive loop: it reads one key per iteration for as
// long as it is switched on, so no path of it ends, and a search of paths
// never would. Its state is three small counters, though, and whenever
// the loop comes back to values it had, `wiser check` does not explore
// them again (state matching at the loop head): once every state it can
// reach is explored, it says `safe`. The property: after three wrong keys
// the lock stays shut for good.
// expect: safe
#include <assert.h>

extern int __VERIFIER_nondet_int(void);

int main(void) {
  int typed = 0; // keys of the code 4-2-7 typed so far
  int wrong = 0; // wrong keys typed so far
  int open = 0;
  while (1) {
    int key = __VERIFIER_nondet_int();
    if (key < 0 || key > 9)
      return 0; // switched off
    if (open) {
      if (key == 0) { // closed again
        open = 0;
        typed = 0;
      }
      continue;
    }
    if (wrong >= 3)
      continue; // locked out
    if ((typed == 0 && key == 4) || (typed == 1 && key == 2) || (typed == 2 && key == 7)) {
      typed++;
    } else {
      typed = 0;
      wrong++;
    }
    if (typed == 3)
      open = 1;
    assert(!(open && wrong >= 3));
  }
}
