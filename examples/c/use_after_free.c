// A use after free: `q` aliases `p`, and the object both point to is
// freed through `p` before it is read through `q`, on the path where the
// input is positive. The other path frees the object once and never
// touches it again.
// expect: bug use_after_free 22:12
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct account {
  int balance;
  struct account *next;
};

int main(void) {
  struct account *p = malloc(sizeof(struct account));
  p->balance = 10;
  p->next = NULL;
  struct account *q = p;
  int x = __VERIFIER_nondet_int();
  if (x > 0) {
    free(p);
    return q->balance;
  }
  free(q);
  return 0;
}
