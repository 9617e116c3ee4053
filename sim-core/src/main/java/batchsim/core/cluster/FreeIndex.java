package batchsim.core.cluster;

import java.util.Arrays;

/**
 * Per pool, a max segment tree of free capacity per resource over the pool's schedulable nodes. Lets the
 * binder reject "no node of this pool can take this pod" in O(resources) instead of scanning the pool,
 * which matters when a busy cluster has many waiting pods (one check per waiting pod per release).
 * Updates cost O(resources × log nodes).
 */
final class FreeIndex {
  private final int resources;
  private int size = 1;
  private long[][] max; // [resource][tree node], leaves at size + slot
  private int used;

  FreeIndex(int resources, int expectedNodes) {
    this.resources = resources;
    while (size < Math.max(1, expectedNodes)) {
      size <<= 1;
    }
    max = new long[resources][2 * size];
    for (long[] m : max) {
      Arrays.fill(m, -1);
    }
  }

  /** Reserves a slot for a new node (grows the tree when full). */
  int add() {
    if (used == size) {
      long[][] old = max;
      int oldSize = size;
      size <<= 1;
      max = new long[resources][2 * size];
      for (int r = 0; r < resources; r++) {
        Arrays.fill(max[r], -1);
        System.arraycopy(old[r], oldSize, max[r], size, oldSize);
        for (int i = size - 1; i >= 1; i--) {
          max[r][i] = Math.max(max[r][2 * i], max[r][2 * i + 1]);
        }
      }
    }
    return used++;
  }

  /** Sets a node's free capacity (all -1 when it takes no pods). */
  void set(int slot, Node n) {
    boolean ok = n.schedulable();
    for (int r = 0; r < resources; r++) {
      int i = size + slot;
      max[r][i] = ok ? n.allocatable[r] - n.allocated[r] : -1;
      for (i >>= 1; i >= 1; i >>= 1) {
        long v = Math.max(max[r][2 * i], max[r][2 * i + 1]);
        if (max[r][i] == v) {
          break;
        }
        max[r][i] = v;
      }
    }
  }

  /** False when no single node can have room: some resource's largest free amount is below the request. */
  boolean mayFit(long[] request) {
    for (int r = 0; r < resources; r++) {
      if (request[r] > 0 && max[r][1] < request[r]) {
        return false;
      }
    }
    return true;
  }
}
