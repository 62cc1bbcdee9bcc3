// The sum of n twos is 2n, for every n up to 1000, in machine integers:
// `wiser check` takes the loop's iterations at once (loop acceleration),
// and `wiser prove` proves it as written, overflow included, with the loop
// invariant i * 2 - s == 0 and i <= n <= 1001, checked at 32 bits.
// expect: safe
// args: --max-states 2000
// prove: safe
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
void reach_error(void) { abort(); }

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 1000)
    return 0;
  int i = 0, s = 0;
  while (i < n) {
    s += 2;
    i++;
  }
  if (s != 2 * n)
    reach_error();
  return 0;
}
