// A running total of weights looked up in a static table: each reading
// is masked into the table, so no access is out of bounds, and the total
// of n readings never exceeds 4n (nor overflows). `wiser check` cannot
// try every n up to a million; `wiser prove` proves it, with the table's
// four cells among the checked invariant's facts (the values every
// clause gives them, prove/fixed.rs), which the bound on the total needs.
// expect: unknown
// args: --max-states 2000
// prove: safe
extern int __VERIFIER_nondet_int(void);
extern unsigned char __VERIFIER_nondet_uchar(void);
void reach_error(void) {}

static const int weights[4] = {1, 2, 3, 4};

static int weight(const int *table, unsigned char reading) {
  return table[reading & 3];
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 1000000)
    return 0;
  int total = 0;
  for (int i = 0; i < n; i++) {
    total += weight(weights, __VERIFIER_nondet_uchar());
    if (total > 4 * (i + 1))
      reach_error();
  }
  return 0;
}
