int top(char input[4]) {
  int cnt = 0;
  if (input[0] == 'b') cnt++;
  if (input[1] == 'a') cnt++;
  if (input[2] == 'd') cnt++;
  if (input[3] == '!') cnt++;
  if (cnt >= 4) __VERIFIER_error();
  return cnt;
}
int main() { char in[4]; for (int i = 0; i < 4; i++) in[i] = __VERIFIER_nondet_char(); return top(in); }
