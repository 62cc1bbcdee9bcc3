int main() {
  int x = ({ int y = 3; y + 1; });
  __extension__ unsigned long long z = 1ULL << 40;
  int n = __VERIFIER_nondet_int();
  int vla[n > 0 && n < 100 ? n : 1];
  vla[0] = x;
  assume_abort_if_not(n != 5);
  __VERIFIER_assume(z > 0);
  if (n == 6) exit(0);
  float unsupported = 1.5;
  return vla[0];
}
