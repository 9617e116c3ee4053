package batchsim.core.volcano;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiPredicate;

/**
 * Volcano's util.PriorityQueue: Go's container/heap over a "less" function, reproduced step for step. The
 * keys of queued items may change while they wait (a queue's share moves as its jobs allocate); the pop
 * order then depends on the heap's shape, exactly as in Volcano, so this is not a java.util.PriorityQueue.
 */
final class GoHeap<T> {
  private final List<T> items;
  private final BiPredicate<T, T> less;

  GoHeap(BiPredicate<T, T> less) {
    this.items = new ArrayList<>();
    this.less = less;
  }

  private GoHeap(GoHeap<T> o) {
    this.items = new ArrayList<>(o.items);
    this.less = o.less;
  }

  GoHeap<T> copy() {
    return new GoHeap<>(this);
  }

  void push(T x) {
    items.add(x);
    up(items.size() - 1);
  }

  T pop() {
    if (items.isEmpty()) {
      return null;
    }
    int n = items.size() - 1;
    swap(0, n);
    down(0, n);
    return items.remove(n);
  }

  boolean isEmpty() {
    return items.isEmpty();
  }

  int size() {
    return items.size();
  }

  private boolean less(int i, int j) {
    return less.test(items.get(i), items.get(j));
  }

  private void swap(int i, int j) {
    T t = items.get(i);
    items.set(i, items.get(j));
    items.set(j, t);
  }

  private void up(int j) {
    while (true) {
      int i = (j - 1) / 2;
      if (i == j || !less(j, i)) {
        break;
      }
      swap(i, j);
      j = i;
    }
  }

  private void down(int i0, int n) {
    int i = i0;
    while (true) {
      int j1 = 2 * i + 1;
      if (j1 >= n || j1 < 0) {
        break;
      }
      int j = j1;
      int j2 = j1 + 1;
      if (j2 < n && less(j2, j1)) {
        j = j2;
      }
      if (!less(j, i)) {
        break;
      }
      swap(i, j);
      i = j;
    }
  }
}
