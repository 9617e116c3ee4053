package batchsim.core.cluster;

import batchsim.core.model.Taint;
import java.util.List;
import java.util.SortedMap;

/** A node: its labels and taints, what it can hold, and what is bound to it now (base units). */
public final class Node {
  final int index;
  final String name;
  final int pool;
  /** Replaced (never changed in place) when a timeline action edits them: holders of the old map keep theirs. */
  SortedMap<String, String> labels;
  List<Taint> taints;
  /** Labels or taints edited mid-run: they may differ from its pool's, so the pool index no longer holds it. */
  boolean edited;
  final long[] allocatable;
  final long[] allocated;
  /** Cached LeastAllocated-style free fraction over cpu and memory; the pool index orders by it. */
  double freeScore;
  /** Position in its pool's {@link FreeIndex}. */
  int slot;
  /**
   * NotReady: after a failure (its pods failed), or since a timeline action stopped its kubelet (its pods
   * run on until the node-lifecycle eviction); back to Ready on repair.
   */
  boolean failed;
  /** spec.unschedulable (kubectl cordon): no new pods. */
  boolean cordoned;
  /** Left the cluster (scale-down); its index is never reused. */
  boolean removed;
  /** Pods bound here, in binding order. */
  final BoundPods pods = new BoundPods();

  /** One bound pod: its owner, its workload's pods and its index there; linked into its node's {@link BoundPods}. */
  static final class PodRef {
    private final Object owner;
    private final PodBinder.Pods pods;
    private final int index;
    PodRef prev;
    PodRef next;

    PodRef(Object owner, PodBinder.Pods pods, int index) {
      this.owner = owner;
      this.pods = pods;
      this.index = index;
    }

    Object owner() {
      return owner;
    }

    PodBinder.Pods pods() {
      return pods;
    }

    int index() {
      return index;
    }
  }

  /** Takes new pods: Ready, not cordoned, present. */
  public boolean schedulable() {
    return !failed && !cordoned && !removed;
  }

  /** Bumped each time the node becomes empty; a scale-down decision taken for an older epoch is stale. */
  long emptyEpoch;

  public long emptyEpoch() {
    return emptyEpoch;
  }

  /** Pods bound here now. */
  public int podCount() {
    return pods.size();
  }

  public boolean failed() {
    return failed;
  }

  public boolean cordoned() {
    return cordoned;
  }

  public boolean removed() {
    return removed;
  }

  public int pool() {
    return pool;
  }

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

  /** Position in the cluster's node list (stable for the run). */
  public int index() {
    return index;
  }

  /** Labels, including {@code kubernetes.io/hostname}. */
  public SortedMap<String, String> labels() {
    return labels;
  }

  public List<Taint> taints() {
    return taints;
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
