// goto in both directions: a backward jump retries up to 3 times, a
// forward jump leaves for an error label. Incrementing x reaches a
// multiple of 3 within two retries (x + 1 cannot wrap: UINT_MAX is itself
// a multiple of 3), so the error label is unreachable: safe.
// expect: safe
extern unsigned int __VERIFIER_nondet_uint(void);
extern void reach_error(void);

int main(void) {
  unsigned int x = __VERIFIER_nondet_uint();
  int tries = 0;
retry:
  tries++;
  if (x % 3 != 0) {
    x += 1;
    if (tries < 3)
      goto retry;
    goto error;
  }
  return 0;
error:
  reach_error();
  return 1;
}
