package batchsim.core.cluster;

import batchsim.core.model.Taint;
import java.util.List;
import java.util.SortedMap;

/** A node: its labels and taints, what it can hold, and what is bound to it now (base units). */
public final class Node {
  final int index;
  final String name;
  final int pool;
  final SortedMap<String, String> labels;
  final List<Taint> taints;
  final long[] allocatable;
  final long[] allocated;
  /** Cached LeastAllocated-style free fraction over cpu and memory; the pool index orders by it. */
  double freeScore;

  Node(int index, String name, int pool, SortedMap<String, String> labels, List<Taint> taints, long[] allocatable) {
    this.index = index;
    this.name = name;
    this.pool = pool;
    this.labels = labels;
    this.taints = taints;
    this.allocatable = allocatable;
    this.allocated = new long[allocatable.length];
  }

  public String name() {
    return name;
  }

  public long allocated(int resource) {
    return allocated[resource];
  }

  public long allocatable(int resource) {
    return allocatable[resource];
  }

  boolean fits(long[] request) {
    for (int r = 0; r < request.length; r++) {
      if (request[r] > 0 && allocated[r] + request[r] > allocatable[r]) {
        return false;
      }
    }
    return true;
  }

  @Override
  public String toString() {
    return name;
  }
}
