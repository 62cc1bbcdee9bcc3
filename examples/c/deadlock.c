// Two threads take two mutexes in opposite orders. When each has taken
// its first, neither can take its second: a deadlock (no thread can run
// and some have not finished), which the schedule in the witness shows.
// expect: bug deadlock 12:3
#include <pthread.h>

pthread_mutex_t a, b;
int shared = 0;

void *left(void *arg) {
  pthread_mutex_lock(&a);
  pthread_mutex_lock(&b);
  shared++;
  pthread_mutex_unlock(&b);
  pthread_mutex_unlock(&a);
  return NULL;
}

void *right(void *arg) {
  pthread_mutex_lock(&b);
  pthread_mutex_lock(&a);
  shared--;
  pthread_mutex_unlock(&a);
  pthread_mutex_unlock(&b);
  return NULL;
}

int main(void) {
  pthread_mutex_init(&a, NULL);
  pthread_mutex_init(&b, NULL);
  pthread_t t1, t2;
  pthread_create(&t1, NULL, left, NULL);
  pthread_create(&t2, NULL, right, NULL);
  pthread_join(t1, NULL);
  pthread_join(t2, NULL);
  return 0;
}
