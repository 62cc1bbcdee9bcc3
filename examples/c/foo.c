// Seed 004's first symbolic execution tree, foo(), as C. On mathematical
// integers it has four paths and no error; on 32-bit int, y - x overflows
// when x <= y are far apart (x = -2, y = 2147483647), undefined behaviour
// that wiser reports as a bug of its own kind before x + y is reached.
// expect: bug signed_overflow 13:9
// args: --jobs 1
extern int __VERIFIER_nondet_int(void);

int foo(int x, int y) {
  if (x > y) {
    y = x;
  }
  y = y - x;
  if (y > 7) {
    x = __VERIFIER_nondet_int();  // the seed's x = *
  }
  return x + y;
}

int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = __VERIFIER_nondet_int();
  return foo(x, y);
}
