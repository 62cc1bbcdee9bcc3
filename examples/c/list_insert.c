// Sorted insertion into a linked list built with malloc: three input
// values are inserted, each before the first node whose value is not
// smaller, and the list is then checked to be sorted and to hold three
// nodes. Every node is freed at the end. The checker reads `p->next`
// through pointers stored in fields, compares pointers with NULL, and
// checks every access for NULL and for freed nodes.
// expect: safe
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
  while (p->next != NULL && p->next->val < v)
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
  while (head != NULL) {
    struct node *next = head->next;
    free(head);
    head = next;
  }
  return 0;
}
