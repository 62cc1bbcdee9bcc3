// list_insert.c with a planted bug: the walk compares the new value with
// the node it stands on (`p->val`) instead of its successor's
// (`p->next->val`), so it goes one node too far: inserting 3 into the
// list 1, 5 gives 1, 5, 3, which is not sorted.
// expect: bug assertion 37:7
#include <assert.h>
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct node {
  int val;
  struct node *next;
};

struct node *insert(struct node *head, int v) {
  struct node *n = malloc(sizeof(struct node));
  n->val = v;
  if (head == NULL || v <= head->val) {
    n->next = head;
    return n;
  }
  struct node *p = head;
  while (p->next != NULL && p->val < v)
    p = p->next;
  n->next = p->next;
  p->next = n;
  return head;
}

int main(void) {
  struct node *head = NULL;
  for (int i = 0; i < 3; i++)
    head = insert(head, __VERIFIER_nondet_int());
  int count = 0;
  for (struct node *p = head; p != NULL; p = p->next) {
    if (p->next != NULL)
      assert(p->val <= p->next->val);
    count++;
  }
  assert(count == 3);
  return 0;
}
