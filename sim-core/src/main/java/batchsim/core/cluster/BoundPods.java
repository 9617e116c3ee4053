package batchsim.core.cluster;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * The pods bound to one node, in binding order: a list threaded through the {@link Node.PodRef}s themselves,
 * so binding and unbinding a pod cost two links, no hashing (every pod of every workload passes here twice).
 */
final class BoundPods implements Iterable<Node.PodRef> {
  private Node.PodRef head;
  private Node.PodRef tail;
  private int size;

  void add(Node.PodRef r) {
    r.prev = tail;
    r.next = null;
    if (tail == null) {
      head = r;
    } else {
      tail.next = r;
    }
    tail = r;
    size++;
  }

  void remove(Node.PodRef r) {
    if (r.prev == null) {
      head = r.next;
    } else {
      r.prev.next = r.next;
    }
    if (r.next == null) {
      tail = r.prev;
    } else {
      r.next.prev = r.prev;
    }
    r.prev = null;
    r.next = null;
    size--;
  }

  boolean isEmpty() {
    return size == 0;
  }

  int size() {
    return size;
  }

  /** A copy, for loops that unbind as they go. */
  List<Node.PodRef> toList() {
    List<Node.PodRef> out = new ArrayList<>(size);
    forEach(out::add);
    return out;
  }

  @Override
  public Iterator<Node.PodRef> iterator() {
    return new Iterator<>() {
      private Node.PodRef at = head;

      @Override
      public boolean hasNext() {
        return at != null;
      }

      @Override
      public Node.PodRef next() {
        if (at == null) {
          throw new NoSuchElementException();
        }
        Node.PodRef r = at;
        at = at.next;
        return r;
      }
    };
  }
}
