// Two-dimensional arrays: a 3x3 matrix of inputs, its transpose built by a
// nested loop, and one entry checked at symbolic indices (i, j): the
// element read must be the one written, whatever i and j are. Safe.
// expect: safe
#include <assert.h>

extern int __VERIFIER_nondet_int(void);
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  int m[3][3];
  int t[3][3];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      m[i][j] = __VERIFIER_nondet_int();
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      t[j][i] = m[i][j];
  unsigned int i = __VERIFIER_nondet_uint() % 3;
  unsigned int j = __VERIFIER_nondet_uint() % 3;
  assert(t[j][i] == m[i][j]);
  return 0;
}
