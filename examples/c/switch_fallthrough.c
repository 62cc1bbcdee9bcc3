// A switch with a shared case body (1 and 2), a default, and a case that
// forgets its break: level 3 falls through into case 4 and gets 20 + 30,
// more than any level should. The assertion fails for level = 3 only.
// expect: bug assertion 34:5
#include <assert.h>

extern int __VERIFIER_nondet_int(void);

int bonus(int level) {
  int b = 0;
  switch (level) {
  case 0:
    b = 1;
    break;
  case 1:
  case 2:
    b = 10;
    break;
  case 3:
    b = 20;  // no break: falls through
  case 4:
    b += 30;
    break;
  default:
    b = -1;
  }
  return b;
}

int main(void) {
  int level = __VERIFIER_nondet_int();
  int b = bonus(level);
  if (level >= 0 && level <= 4) {
    assert(b <= 30);
  }
  return 0;
}
