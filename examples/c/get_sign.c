// KLEE's first tutorial program: `get_sign` has three paths, and every
// input takes one of them without an error. wiser explores all three
// (`wiser tests examples/c/get_sign.c` writes one test for each).
// expect: safe
extern int __VERIFIER_nondet_int(void);

int get_sign(int x) {
  if (x == 0)
    return 0;
  if (x < 0)
    return -1;
  else
    return 1;
}

int main(void) {
  int a = __VERIFIER_nondet_int();
  return get_sign(a);
}
