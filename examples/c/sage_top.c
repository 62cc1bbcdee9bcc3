// SAGE's whitebox-fuzzing example from seed 004 (Godefroid, Levin and
// Molnar, NDSS 2008): top() counts how many of its 4 input characters
// match "bad!" and fails when at least 3 do. The seed's error is abort();
// under SV-COMP's conventions abort() ends a path silently, so the error
// is reach_error(). Random inputs hit it about once in 4 million runs.
// expect: bug fail 18:5
extern char __VERIFIER_nondet_char(void);
extern void reach_error(void);

void top(char input[4]) {
  int cnt = 0;
  if (input[0] == 'b') cnt++;
  if (input[1] == 'a') cnt++;
  if (input[2] == 'd') cnt++;
  if (input[3] == '!') cnt++;
  if (cnt >= 3) {
    // error
    reach_error();
  }
}

int main(void) {
  char input[4];
  for (int i = 0; i < 4; i++) {
    input[i] = __VERIFIER_nondet_char();
  }
  top(input);
  return 0;
}
