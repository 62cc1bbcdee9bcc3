// A stack in a structure with an array member, passed by pointer and
// copied by value. `push` checks its bound off by one (`<=`), so a fifth
// push writes one past the array, past the end of the structure: an
// out-of-bounds write that wiser finds with the input that makes five
// pushes, and gcc's AddressSanitizer reports at the same line.
// expect: bug out_of_bounds 19:5
#include <stdio.h>
extern int __VERIFIER_nondet_int(void);

#define N 4

struct stack {
  int top;
  int data[N];
};

void push(struct stack *s, int v) {
  if (s->top <= N) {
    s->data[s->top] = v;
    s->top++;
  }
}

int pop(struct stack *s) { return s->data[--s->top]; }

int main(void) {
  struct stack s = {0, {0}};
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 10)
    return 0;
  for (int i = 0; i < n; i++)
    push(&s, i * i);
  struct stack copy = s;
  int sum = 0;
  while (copy.top > 0)
    sum += pop(&copy);
  printf("%d values, sum %d, the original still holds %d\n", n, sum, s.top);
  return 0;
}
