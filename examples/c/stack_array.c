// A stack of integers with its elements in a heap array: `push` checks
// the capacity and `pop` checks emptiness, so every access through
// `items + size` is in bounds and every path is safe, memory safety
// included (`--property valid-memsafety`: no leak, no bad free).
// expect: safe
// args: --property valid-memsafety
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct stack { int *items; int size; int cap; };

int push(struct stack *s, int v) {
  if (s->size == s->cap) return 0;
  s->items[s->size++] = v;
  return 1;
}
int pop(struct stack *s, int *out) {
  if (s->size == 0) return 0;
  *out = *(s->items + --s->size);
  return 1;
}
int main(void) {
  struct stack *s = malloc(sizeof(struct stack));
  s->cap = 3;
  s->size = 0;
  s->items = calloc(s->cap, sizeof(int));
  for (int i = 0; i < 4; i++) {
    if (__VERIFIER_nondet_int()) push(s, i);
    else { int v; pop(s, &v); }
  }
  free(s->items);
  free(s);
  return 0;
}
