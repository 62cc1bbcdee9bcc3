// A tagged union, as C programs write values of several kinds: a number,
// a short string or a pair, printed into a buffer with `sprintf`. The
// buffer for a number is too small for the largest count: `sprintf`
// writes the digits of a symbolic value one by one, and wiser finds the
// one count that overflows the buffer (10000000: eight digits and the 0
// need nine bytes), with the call stack into the C library; gcc's
// AddressSanitizer reports the overflow in the harness's build.
// expect: bug out_of_bounds 29:5
// reads: 10000000
#include <stdio.h>
#include <string.h>
extern int __VERIFIER_nondet_int(void);

enum kind { NUM, STR, PAIR };

struct value {
  enum kind kind;
  union {
    int num;
    char str[8];
    struct { struct value *left, *right; } pair;
  } as;
};

static void show(const struct value *v, char *out) {
  char l[8], r[8];
  switch (v->kind) {
  case NUM:
    sprintf(out, "%d", v->as.num);
    break;
  case STR:
    sprintf(out, "\"%s\"", v->as.str);
    break;
  case PAIR:
    show(v->as.pair.left, l);
    show(v->as.pair.right, r);
    sprintf(out, "(%s . %s)", l, r);
    break;
  }
}

int main(void) {
  int count = __VERIFIER_nondet_int();
  if (count < 0 || count > 10000000)
    return 0;
  struct value n = {.kind = NUM, .as.num = count};
  struct value s = {.kind = STR, .as.str = "hi"};
  struct value p = {.kind = PAIR, .as.pair = {&n, &s}};
  char text[32];
  show(&p, text);
  printf("%s\n", text);
  return 0;
}
