//! A persistent (immutable, shared) stack.
//!
//! Forking a state clones a stack in O(1); pushing and popping never copy
//! the rest. Dropping a long stack does not recurse, so 10^6 frames or path
//! constraints cannot overflow the Rust stack when freed.

use std::sync::Arc;

/// A persistent stack of `T`.
#[derive(Debug)]
pub struct Stack<T> {
    head: Option<Arc<Node<T>>>,
}

// The length lives in the top node, not in the handle: a state holds
// several stacks (callers, trail, path constraints, heap reads), and every
// waiting state of a wide search holds its handles, one pointer each.
#[derive(Debug)]
struct Node<T> {
    value: T,
    /// The number of nodes from this one down.
    len: usize,
    next: Option<Arc<Node<T>>>,
}

impl<T> Clone for Stack<T> {
    fn clone(&self) -> Self {
        Stack {
            head: self.head.clone(),
        }
    }
}

impl<T> Default for Stack<T> {
    fn default() -> Self {
        Stack { head: None }
    }
}

impl<T> Stack<T> {
    /// The empty stack.
    pub fn new() -> Self {
        Stack::default()
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        self.head.as_ref().map_or(0, |n| n.len)
    }

    /// Is it empty?
    pub fn is_empty(&self) -> bool {
        self.head.is_none()
    }

    /// The stack with `value` on top.
    pub fn push(&self, value: T) -> Self {
        Stack {
            head: Some(Arc::new(Node {
                value,
                len: self.len() + 1,
                next: self.head.clone(),
            })),
        }
    }

    /// The top element.
    pub fn top(&self) -> Option<&T> {
        self.head.as_deref().map(|n| &n.value)
    }

    /// The stack without its top element (empty stays empty).
    pub fn pop(&self) -> Self {
        match &self.head {
            None => Stack::default(),
            Some(n) => Stack {
                head: n.next.clone(),
            },
        }
    }

    /// The same stack with a top node of its own (the rest stays shared),
    /// for a state that moves to another thread: every fork clones the
    /// top node's count, and the tail's only when the top is popped.
    pub fn unshare_top(&mut self)
    where
        T: Clone,
    {
        if let Some(top) = self.top().cloned() {
            *self = self.pop().push(top);
        }
    }

    /// The elements from top to bottom.
    pub fn iter(&self) -> impl Iterator<Item = &T> {
        let mut cur = self.head.as_deref();
        std::iter::from_fn(move || {
            let n = cur?;
            cur = n.next.as_deref();
            Some(&n.value)
        })
    }

    /// Does this stack share its top node with `other` (same pointer)?
    pub fn ptr_eq(&self, other: &Self) -> bool {
        match (&self.head, &other.head) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        }
    }
}

impl<T> Stack<T> {
    /// The longest tail two stacks share (the same nodes), and the
    /// elements each has above it, top first: where two paths that forked
    /// from one state part ways (state merging).
    pub fn diverge<'a>(&'a self, other: &'a Stack<T>) -> (Stack<T>, Vec<&'a T>, Vec<&'a T>) {
        let (mut a, mut b) = (self.head.as_deref(), other.head.as_deref());
        let (mut la, mut lb) = (self.len(), other.len());
        let (mut only_a, mut only_b) = (Vec::new(), Vec::new());
        let step = |n: Option<&'a Node<T>>, only: &mut Vec<&'a T>| {
            let n = n.expect("a stack has as many nodes as its length");
            only.push(&n.value);
            n.next.as_deref()
        };
        while la > lb {
            a = step(a, &mut only_a);
            la -= 1;
        }
        while lb > la {
            b = step(b, &mut only_b);
            lb -= 1;
        }
        while !same_node(a, b) {
            a = step(a, &mut only_a);
            b = step(b, &mut only_b);
            la -= 1;
        }
        // `a` is a node of `self`'s chain: rebuild a handle on it.
        let mut common = self.clone();
        while common.len() > la {
            common = common.pop();
        }
        (common, only_a, only_b)
    }
}

fn same_node<T>(a: Option<&Node<T>>, b: Option<&Node<T>>) -> bool {
    match (a, b) {
        (Some(x), Some(y)) => std::ptr::eq(x, y),
        (None, None) => true,
        _ => false,
    }
}

impl<T: Clone> Stack<T> {
    /// The stack's top element and the rest, cloning the element only if
    /// the node is shared.
    pub fn split(self) -> Option<(T, Stack<T>)> {
        let mut this = self;
        let head = this.head.take()?;
        Some(match Arc::try_unwrap(head) {
            Ok(Node { value, next, .. }) => (value, Stack { head: next }),
            Err(shared) => (
                shared.value.clone(),
                Stack {
                    head: shared.next.clone(),
                },
            ),
        })
    }
}

// Nodes are owned only by stacks and by other nodes, and every node is
// dismantled here (or in `split`) with its `next` taken first, so the
// default drop of a node never recurses.
impl<T> Drop for Stack<T> {
    fn drop(&mut self) {
        // Unlink uniquely owned nodes one at a time instead of recursing.
        let mut cur = self.head.take();
        while let Some(node) = cur {
            match Arc::try_unwrap(node) {
                Ok(mut n) => cur = n.next.take(),
                Err(_) => break,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn push_pop_share() {
        let a = Stack::new().push(1).push(2);
        let b = a.push(3);
        assert_eq!(b.iter().copied().collect::<Vec<_>>(), vec![3, 2, 1]);
        assert_eq!(a.len(), 2);
        assert!(b.pop().ptr_eq(&a));
        let (top, rest) = b.split().unwrap();
        assert_eq!(top, 3);
        assert!(rest.ptr_eq(&a));
    }

    #[test]
    fn two_stacks_diverge_above_their_common_tail() {
        let base = Stack::new().push(1).push(2);
        let a = base.push(3).push(4);
        let b = base.push(5);
        let (common, only_a, only_b) = a.diverge(&b);
        assert!(common.ptr_eq(&base));
        assert_eq!((only_a, only_b), (vec![&4, &3], vec![&5]));
        let (common, only_a, only_b) = a.diverge(&a);
        assert!(common.ptr_eq(&a) && only_a.is_empty() && only_b.is_empty());
        // Equal values in other nodes are not shared.
        let c = Stack::new().push(1).push(2);
        let (common, only_a, _) = base.diverge(&c);
        assert!(common.is_empty() && only_a.len() == 2);
    }

    #[test]
    fn dropping_a_million_elements_does_not_overflow() {
        let mut s = Stack::new();
        for i in 0..1_000_000 {
            s = s.push(i);
        }
        let shared = s.pop().pop();
        drop(s);
        assert_eq!(shared.len(), 999_998);
        drop(shared);
    }
}
