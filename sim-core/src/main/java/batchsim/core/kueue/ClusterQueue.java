package batchsim.core.kueue;

import batchsim.core.model.ClusterQueueSpec;
import batchsim.core.model.PreemptionPolicy;
import batchsim.core.model.QueueingStrategy;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A Kueue ClusterQueue: a leaf of the quota tree plus its pending workloads.
 *
 * <p>The pending structure follows {@code pkg/cache/queue/cluster_queue.go}: an active heap ordered by
 * (sticky preemptor, priority desc, queue-order timestamp, UID), an inadmissible set that does not
 * compete, and the pop/inadmissible-requeue cycle counters that decide where a failed head goes.
 */
final class ClusterQueue extends QuotaNode {
  ClusterQueueSpec spec;
  final int index;
  final List<ResourceGroup> groups = new ArrayList<>();
  /** resource index → group index, -1 when not covered. */
  final int[] groupOfResource;
  /** Whether a resource group covers the pods resource (set with the groups). */
  boolean coversPods;
  final int podsResource;

  /** The active heap and the inadmissible set, grouped by scheduling shape. */
  final PendingWorkloads pending;
  /** Workloads holding quota, in admission order (Kueue cq.Workloads). */
  final Set<Workload> admitted = new LinkedHashSet<>();
  Workload sticky;
  /**
   * Kueue preemptorWorkload: the head that issued preemptions and waits for them (either queueing strategy;
   * under BestEffortFIFO it is also the sticky head).
   */
  Workload preemptor;
  long popCycle;
  long queueInadmissibleCycle = -1;
  /** Kueue AllocatableResourceGeneration: bumped when quotas change. */
  long generation = 1;
  boolean active = true;
  /**
   * Deleted (Kueue: terminating while it holds workloads, then gone): it admits nothing, and its pending
   * workloads wait as "doesn't exist" until a ClusterQueue of that name is created again.
   */
  boolean deleted;
  /** Not in the quota tree: never created yet, or deleted and drained (Kueue dropped it from its cache). */
  boolean gone;
  /** spec.stopPolicy is Hold or HoldAndDrain. */
  boolean stopped;
  /** Flavors of its resource groups that do not exist (Kueue: FlavorNotFound). */
  List<String> missingFlavors = List.of();
  /** "there is no Topology ..." messages of its TAS flavors whose Topology does not exist. */
  List<String> missingTopologies = List.of();
  /** Why the queue is inactive (the pending workloads' QuotaReserved message), empty when active. */
  String inactiveMessage = "";

  ClusterQueue(ClusterQueueSpec spec, int index, int frCount, int resourceCount, int podsResource) {
    super(spec.name(), spec.fairWeight(), frCount);
    this.spec = spec;
    this.index = index;
    this.groupOfResource = new int[resourceCount];
    java.util.Arrays.fill(groupOfResource, -1);
    this.podsResource = podsResource;
    this.pending = new PendingWorkloads(order(), baseOrder());
  }

  /**
   * Kueue queueOrderingFunc (pkg/cache/queue/cluster_queue.go) with admission fair sharing: the LocalQueue
   * with the lower usage (decayed consumed resources + pending entry penalties, weighted) goes first, then the
   * usual order. Kueue decides this when the queue is created (newClusterQueue), so it is set once, before any
   * workload arrives.
   */
  void orderByLocalQueueUsage() {
    lqUsage = new java.util.HashMap<>();
    pending.splitByLocalQueue();
  }

  boolean orderedByLocalQueueUsage() {
    return lqUsage != null;
  }

  /** A LocalQueue's usage changed: its workloads move in the queue order at once. */
  void setLocalQueueUsage(String lq, double usage) {
    Double old = lqUsage.get(lq);
    if (old == null || old != usage) {
      pending.reorderLocalQueue(lq, () -> lqUsage.put(lq, usage));
    }
  }

  /** Recomputes {@link #active} and the pending workloads' message after any of its causes changed. */
  void refreshActive() {
    active = !deleted && !stopped && missingFlavors.isEmpty() && missingTopologies.isEmpty();
    // Kueue getQueueBlocker (workload_controller.go)
    // a terminating ClusterQueue still exists (finalizer): inactive until it is gone
    inactiveMessage = active ? "" : "ClusterQueue " + name + (gone ? " doesn't exist" : " is inactive");
  }

  /**
   * Kueue's Active condition (cache clusterqueue.go inactiveReason): reason and message; Ready when active.
   * The first cause names the reason, the message lists them all.
   */
  String[] activeCondition() {
    if (deleted) {
      return new String[] {"Terminating", "Can't admit new workloads; clusterQueue is terminating"};
    }
    if (active) {
      return new String[] {"Ready", "Can admit new workloads"};
    }
    List<String> reasons = new ArrayList<>();
    List<String> messages = new ArrayList<>();
    if (stopped) {
      reasons.add("Stopped");
      messages.add("is stopped");
    }
    if (!missingFlavors.isEmpty()) {
      reasons.add("FlavorNotFound");
      messages.add("references missing ResourceFlavor(s): " + String.join(",", missingFlavors));
    }
    if (!missingTopologies.isEmpty()) {
      reasons.add("TopologyNotFound");
      messages.addAll(missingTopologies);
    }
    return new String[] {reasons.get(0), "Can't admit new workloads: " + String.join(", ", messages) + "."};
  }

  /** LocalQueue → its admission-fair-sharing usage as last set; null when the queue is not ordered by it. */
  private java.util.Map<String, Double> lqUsage;

  private Comparator<Workload> order() {
    Comparator<Workload> base = baseOrder();
    return (a, b) -> {
      if (lqUsage != null) {
        int c = Double.compare(lqUsage.getOrDefault(a.spec.localQueue(), 0.0),
            lqUsage.getOrDefault(b.spec.localQueue(), 0.0));
        if (c != 0) {
          return c;
        }
      }
      return base.compare(a, b);
    };
  }

  /** Kueue baseCompareFunc: sticky preemptor, priority desc, queue-order timestamp, UID. */
  private Comparator<Workload> baseOrder() {
    return (a, b) -> {
      boolean sa = a == sticky;
      boolean sb = b == sticky;
      if (sa != sb) {
        return sa ? -1 : 1;
      }
      if (a.priority != b.priority) {
        return a.priority > b.priority ? -1 : 1;
      }
      int c = Long.compare(a.queueTs, b.queueTs);
      if (c != 0) {
        return c;
      }
      c = uidOf(a).compareTo(uidOf(b));
      return c != 0 ? c : Long.compare(a.seq, b.seq);
    };
  }

  static String uidOf(Workload w) {
    return w.uid == null ? "" : w.uid;
  }

  boolean strictFifo() {
    return spec.queueingStrategy() == QueueingStrategy.STRICT_FIFO;
  }

  PreemptionPolicy withinClusterQueue() {
    return spec.preemption().withinClusterQueue();
  }

  PreemptionPolicy reclaimWithinCohort() {
    return spec.preemption().reclaimWithinCohort();
  }

  ResourceGroup groupFor(int resource) {
    int g = resource < groupOfResource.length ? groupOfResource[resource] : -1;
    return g < 0 ? null : groups.get(g);
  }

  boolean hasPending() {
    return pending.activeCount() > 0;
  }

  int pendingCount() {
    return pending.activeCount() + pending.parkedCount();
  }

  /** Pops the head of the active heap (Kueue ClusterQueue.Pop). */
  Workload pop() {
    popCycle++;
    return pending.pollFirst();
  }

  /**
   * Kueue handleInadmissibleHash (SchedulingEquivalenceHashing, BestEffortFIFO only): after a NoFit or
   * PreemptionNoCandidates answer, every active workload of the same shape is parked too, with the head's
   * reason and message. {@code touched} (may be null) hears each one.
   */
  void parkEquivalent(Workload w, String reason, String message, java.util.function.Consumer<Workload> touched) {
    if (!strictFifo()) {
      pending.parkShape(w, reason, message, touched);
    }
  }

  /** Puts the workload in the active heap, moving it out of the inadmissible set; false if already there. */
  boolean pushActive(Workload w) {
    return pending.pushActive(w);
  }

  /** Parks the workload as inadmissible unless it is already queued; false if it was. */
  boolean pushInadmissible(Workload w) {
    return pending.pushInadmissible(w);
  }

  /**
   * Kueue ClusterQueue.RequeueIfNotPresent / requeueIfNotPresent (pkg/cache/queue/cluster_queue.go): a head
   * that was not admitted goes back to the active heap when its backoff expired and either the reason is
   * immediate for the queueing strategy, an inadmissible requeue happened since it was popped, or its last
   * flavor scan stopped before the last flavor; otherwise it is parked as inadmissible. A PendingPreemption
   * head becomes the sticky head of a BestEffortFIFO queue. Returns false when the workload was already queued.
   */
  boolean requeueIfNotPresent(Workload w, RequeueReason reason, long now) {
    if (reason == RequeueReason.PENDING_PREEMPTION || reason == RequeueReason.PENDING_MIGRATION) {
      preemptor = w;
      if (!strictFifo()) {
        setSticky(w);
      }
    }
    boolean immediate = reason.immediate(strictFifo());
    boolean pendingFlavors = w.lastAssignment != null && w.lastAssignment.pendingFlavors();
    if (backoffExpired(w, now) && (immediate || queueInadmissibleCycle >= popCycle || pendingFlavors)) {
      return pushActive(w);
    }
    return pushInadmissible(w);
  }

  /** Removes the workload from every pending structure (admitted, finished or deleted). */
  void forget(Workload w) {
    pending.forget(w);
    if (sticky == w) {
      setSticky(null);
    }
    if (preemptor == w) {
      preemptor = null;
    }
  }

  /** Kueue ClusterQueue.IsPreemptor: {@code w} is this queue's preemptor waiting for its victims. */
  boolean isPreemptor(Workload w) {
    return preemptor == w;
  }

  /** Changes the sticky preemptor without corrupting the queue order. */
  void setSticky(Workload w) {
    if (sticky != w) {
      pending.reorder(sticky, w, () -> sticky = w);
    }
  }

  /** Moves every inadmissible workload whose backoff expired back to the heap (QueueInadmissibleWorkloads). */
  int queueInadmissible(long now) {
    queueInadmissibleCycle = popCycle;
    return pending.requeueParked(now);
  }

  static boolean backoffExpired(Workload w, long now) {
    return !w.requeueHeld && (w.requeueAtMs == Workload.UNSET_TIME || now >= w.requeueAtMs);
  }

  @Override
  boolean isClusterQueue() {
    return true;
  }

  @Override
  public String toString() {
    return "ClusterQueue(" + name + ")";
  }
}
