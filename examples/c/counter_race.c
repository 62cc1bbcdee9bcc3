// Two threads increment a shared counter without a lock. `counter++` on
// a global is a read and then a write, and the scheduler may run the
// other thread in between: both read 0, both write 1, and an update is
// lost. The witness's schedule shows the interleaving.
// expect: bug assertion 22:3
#include <assert.h>
#include <pthread.h>

int counter = 0;

void *increment(void *arg) {
  counter++;
  return NULL;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, NULL, increment, NULL);
  pthread_create(&t2, NULL, increment, NULL);
  pthread_join(t1, NULL);
  pthread_join(t2, NULL);
  assert(counter == 2);
  return 0;
}
