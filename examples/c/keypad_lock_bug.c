// keypad_lock.c with the lock-out off by one (`wrong > 3`): three wrong
// keys, then the code, open the lock. The loop's states are still
// finitely many, and the bug is found with the six keys that reach it.
// expect: bug assertion 34:5
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
    if (wrong > 3)
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
