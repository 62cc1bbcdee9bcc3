// counter_race.c with a mutex around the increment: the read and the
// write of each `counter++` happen while the thread holds the lock, so
// no update is lost, whatever the schedule.
// expect: safe
#include <assert.h>
#include <pthread.h>

int counter = 0;
pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

void *increment(void *arg) {
  pthread_mutex_lock(&lock);
  counter++;
  pthread_mutex_unlock(&lock);
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
