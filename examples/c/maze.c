// KLEE's maze: a program reads a sequence of moves (w, a, s, d) and walks
// a maze drawn in a 2-D array of chars; reaching the `#` is the error.
// The walls have a secret: the program forgets to check some of them
// (`|` on row 2), so there are paths through walls too. wiser finds a
// sequence of moves that wins.
// expect: bug fail 54:7
#include <stdio.h>
extern char __VERIFIER_nondet_char(void);
extern void reach_error(void);

#define H 7
#define W 11
#define ITERS 28

char maze[H][W] = {
    "+-+---+---+",
    "| |     |#|",
    "| | --+ | |",
    "| |   | | |",
    "| +-- | | |",
    "|     |   |",
    "+-----+---+",
};

int main(void) {
  int x = 1, y = 1;
  maze[y][x] = 'X';
  for (int i = 0; i < ITERS; i++) {
    int ox = x, oy = y;
    switch (__VERIFIER_nondet_char()) {
    case 'w': y--; break;
    case 's': y++; break;
    case 'a': x--; break;
    case 'd': x++; break;
    default:
      printf("Wrong command! (only w, s, a, d accepted)\n");
      return 1;
    }
    if (maze[y][x] == '#') {
      printf("You win!\n");
      break;
    }
    if (maze[y][x] != ' ' && !((y == 2 && maze[y][x] == '|' && x > 0 && x < W))) {
      x = ox;
      y = oy;
    }
    if (ox == x && oy == y) {
      printf("You lose\n");
      return 1;
    }
    maze[y][x] = 'X';
  }
  if (maze[y][x] == '#') {
      reach_error();
  }
  return 0;
}
