extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "a.c", 3, __PRETTY_FUNCTION__); }
extern int __VERIFIER_nondet_int(void);
extern unsigned char __VERIFIER_nondet_uchar(void);
void __VERIFIER_assert(int cond) { if (!(cond)) { ERROR: {reach_error();abort();} } return; }
int main() {
  unsigned char n = __VERIFIER_nondet_uchar();
  unsigned char i, s = 0;
  for (i = 0; i < n; i++) { s += i; }
  __VERIFIER_assert(s >= 0);
  return 0;
}
