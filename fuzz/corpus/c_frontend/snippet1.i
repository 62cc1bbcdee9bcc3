int sum(int a[], int n) { int s = 0; for (int i = 0; i < n; ++i) s += a[i]; return s; }
int g[10];
static int counter;
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 10) return 0;
  int m[3][4] = {{1, 2}, {3}};
  long long x = (long long)n << 3;
  switch (n) { case 1: x++; case 2: x--; break; default: x = -x; }
  while (n-- > 0) { g[n] = n * 2; if (g[n] == 7) goto out; }
out:
  do { counter += 1; } while (counter < 3);
  return sum(g, 10) + m[1][0] + (int)(x ? x : 1) + (n, 2);
}
