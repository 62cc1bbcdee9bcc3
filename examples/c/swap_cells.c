// `&` of local variables: `swap` exchanges two integers through
// pointers. Each variable whose address is taken lives in a heap cell,
// so `*p` and `x` are the same location. When both pointers alias (the
// input is negative), the "swap" leaves the value as it was, and the
// assertion that the values were exchanged fails.
// expect: bug assertion 23:3
#include <assert.h>
extern int __VERIFIER_nondet_int(void);

void swap(int *p, int *q) {
  int t = *p;
  *p = *q;
  *q = t;
}

int main(void) {
  int x = 1, y = 2;
  int *p = &x;
  int *q = &y;
  if (__VERIFIER_nondet_int() < 0)
    q = &x;
  swap(p, q);
  assert(x == 2);
  return 0;
}
