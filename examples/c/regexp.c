// KLEE's second tutorial program: a regular-expression matcher (Rob
// Pike's) run on a symbolic pattern of 7 bytes against "hello". The
// pattern need not end with a 0, so the matcher can read past its end:
// wiser finds the pattern that does it (KLEE's tutorial then adds
// `klee_assume(re[SIZE - 1] == '\0')`; here, `re[SIZE - 1] = 0`).
// expect: bug out_of_bounds 20:7
extern char __VERIFIER_nondet_char(void);

static int matchhere(char *, char *);

static int matchstar(int c, char *re, char *text) {
  do {
    if (matchhere(re, text))
      return 1;
  } while (*text != '\0' && (*text++ == c || c == '.'));
  return 0;
}

static int matchhere(char *re, char *text) {
  if (re[0] == '\0')
    return 1;
  if (re[1] == '*')
    return matchstar(re[0], re + 2, text);
  if (re[0] == '$' && re[1] == '\0')
    return *text == '\0';
  if (*text != '\0' && (re[0] == '.' || re[0] == *text))
    return matchhere(re + 1, text + 1);
  return 0;
}

int match(char *re, char *text) {
  if (re[0] == '^')
    return matchhere(re + 1, text);
  do {
    if (matchhere(re, text))
      return 1;
  } while (*text++ != '\0');
  return 0;
}

#define SIZE 7

int main(void) {
  char re[SIZE];
  for (int i = 0; i < SIZE; i++)
    re[i] = __VERIFIER_nondet_char();
  match(re, "hello");
  return 0;
}
