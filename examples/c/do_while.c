// A do-while body runs at least once: counting up to n this way ends with
// i == 1 when n == 0, where a while loop would end with i == 0.
// expect: bug assertion 14:3
#include <assert.h>

extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int n = __VERIFIER_nondet_uint();
  unsigned int i = 0;
  do {
    i++;
  } while (i < n);
  assert(i == n);
  return 0;
}
