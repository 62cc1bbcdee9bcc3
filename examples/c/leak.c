// A memory leak: `push` allocates a node for each value, and `main`
// frees only the first node of the list it built before returning.
// Found with `--property valid-memsafety` (SV-COMP's `valid-memtrack`);
// under the default property a leak is no bug.
// expect: bug memory_leak 18:5
// args: --property valid-memsafety
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct node { int val; struct node *next; };

struct node *push(struct node *top, int v) {
  struct node *n = malloc(sizeof(struct node));
  n->val = v;
  n->next = top;
  return n;
}
int main(void) {
  struct node *top = 0;
  int k = __VERIFIER_nondet_int();
  if (k < 0 || k > 3) return 0;
  for (int i = 0; i < k; i++) top = push(top, i);
  if (top) free(top);
  return 0;
}
