typedef unsigned int u32;
enum color { RED, GREEN = 5, BLUE };
int power(int b, u32 e) { return e == 0 ? 1 : b * power(b, e - 1); }
void reach_error(void);
int main() {
  const volatile short s = -3;
  _Bool f = s;
  u32 u = 4294967295u;
  char c = (char)u;
  if (sizeof(long) == 4 && c != -1) reach_error();
  if (power(2, 10) != 1024) reach_error();
  u %= 7; u ^= ~0u; u >>= 2; u <<= 1; u |= 3; u &= 0xff;
  enum color k = BLUE;
  return f + k + !u + -s;
}
