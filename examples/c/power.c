// Seed 004's second symbolic execution tree, power(), as C: a loop whose
// number of iterations is the input, so the tree is infinite over the
// integers. On 32-bit int it is not: 2 * z overflows at the 31st
// iteration (x = 31), which breadth-first search reaches in 31 forks.
// expect: bug signed_overflow 12:11
extern int __VERIFIER_nondet_int(void);

int power(int x) {
  int z = 1;
  while (x > 0) {
    x = x - 1;
    z = 2 * z;
  }
  return z;
}

int main(void) {
  int x = __VERIFIER_nondet_int();
  return power(x) > 0;
}
