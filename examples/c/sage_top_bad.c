// sage_top.c with the error only when all 4 characters match: the one
// input that reaches it is "bad!" (seed 004's symbolic execution tree of
// top() has 16 leaves, from "good" to "bad!"), read as the 4 chars
// 'b' = 98, 'a' = 97, 'd' = 100, '!' = 33.
// expect: bug fail 17:5
// reads: 98,97,100,33
extern char __VERIFIER_nondet_char(void);
extern void reach_error(void);

void top(char input[4]) {
  int cnt = 0;
  if (input[0] == 'b') cnt++;
  if (input[1] == 'a') cnt++;
  if (input[2] == 'd') cnt++;
  if (input[3] == '!') cnt++;
  if (cnt == 4) {
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
