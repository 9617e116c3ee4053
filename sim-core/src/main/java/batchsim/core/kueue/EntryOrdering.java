package batchsim.core.kueue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The order in which a cycle processes its entries (Kueue's classical and fair-sharing entry iterators):
 * borrowing height, priority and queue timestamp; or, with fair sharing, a tournament of dominant resource
 * shares from the root cohort, recomputed after each entry.
 */
final class EntryOrdering {
  private final KueueEngine engine;

  EntryOrdering(KueueEngine engine) {
    this.engine = engine;
  }

  /**
   * Kueue's classical iterator: (with PrioritizePreemptorWorkloads) preemptors first, lower borrowing height,
   * higher priority, earlier queue timestamp.
   */
  List<Scheduler.Entry> classicalOrder(List<Scheduler.Entry> entries) {
    List<Scheduler.Entry> sorted = new ArrayList<>(entries);
    Comparator<Scheduler.Entry> c = Comparator.comparing((Scheduler.Entry e) -> !preemptorFirst(e));
    c = c.thenComparingInt(e -> e.assignment.borrowing);
    if (engine.config.prioritySortingWithinCohort()) {
      c = c.thenComparing(Comparator.comparingInt((Scheduler.Entry e) -> e.w.priority).reversed());
    }
    c = c.thenComparingLong(e -> engine.workloads.queueOrderTimestamp(e.w));
    sorted.sort(c);
    return sorted;
  }

  /** Kueue's fair-sharing iterator: a tournament of dominant resource shares from the root cohort. */
  Scheduler.Entry popFairSharing(List<Scheduler.Entry> remaining) {
    Scheduler.Entry first = remaining.get(0);
    if (!first.cq.hasParent()) {
      remaining.remove(0);
      return first;
    }
    Cohort root = first.cq.root();
    Map<ClusterQueue, Scheduler.Entry> byCq = new LinkedHashMap<>();
    for (Scheduler.Entry e : remaining) {
      byCq.put(e.cq, e);
    }
    Map<String, Drs> drs = new java.util.HashMap<>();
    for (ClusterQueue q : root.subtreeQueues()) {
      Scheduler.Entry e = byCq.get(q);
      if (e == null) {
        continue;
      }
      FrAmounts usage = e.assignment.usage();
      q.addUsage(usage);
      Drs d = Drs.of(q, null, engine.index);
      for (Cohort a = q.parent; a != null; a = a.parent) {
        drs.put(a.name + "\0" + e.w.id(), d);
        d = Drs.of(a, null, engine.index);
      }
      q.removeUsage(usage);
    }
    Scheduler.Entry winner = tournament(root, byCq, drs);
    remaining.remove(winner);
    return winner;
  }

  private Scheduler.Entry tournament(Cohort cohort, Map<ClusterQueue, Scheduler.Entry> byCq, Map<String, Drs> drs) {
    List<Scheduler.Entry> candidates = new ArrayList<>();
    for (Cohort c : cohort.childCohorts) {
      Scheduler.Entry e = tournament(c, byCq, drs);
      if (e != null) {
        candidates.add(e);
      }
    }
    for (ClusterQueue q : cohort.childQueues) {
      Scheduler.Entry e = byCq.get(q);
      if (e != null) {
        candidates.add(e);
      }
    }
    if (candidates.isEmpty()) {
      return null;
    }
    Scheduler.Entry best = candidates.get(0);
    for (Scheduler.Entry cur : candidates.subList(1, candidates.size())) {
      if (fairLess(cur, best, cohort.name, drs)) {
        best = cur;
      }
    }
    return best;
  }

  /**
   * Kueue PrioritizePreemptorWorkloads (scheduler.go, fair_sharing_iterator.go entryComparer.less): a head
   * waiting for its victims goes first, so the quota they free is not taken by another head (such as the
   * victim itself) before it.
   */
  private boolean preemptorFirst(Scheduler.Entry e) {
    return engine.config.prioritizePreemptorWorkloads() && e.cq.isPreemptor(e.w);
  }

  private boolean fairLess(Scheduler.Entry a, Scheduler.Entry b, String cohort, Map<String, Drs> drs) {
    if (preemptorFirst(a) != preemptorFirst(b)) {
      return preemptorFirst(a);
    }
    Drs da = drs.get(cohort + "\0" + a.w.id());
    Drs db = drs.get(cohort + "\0" + b.w.id());
    boolean ba = da.borrowingOn(a.assignment.usage());
    boolean bb = db.borrowingOn(b.assignment.usage());
    if (ba != bb) {
      return !ba; // FairSharingPrioritizeNonBorrowing
    }
    int c = Drs.compare(da, db);
    if (c != 0) {
      return c < 0;
    }
    if (engine.config.prioritySortingWithinCohort() && a.w.priority != b.w.priority) {
      return a.w.priority > b.w.priority;
    }
    return engine.workloads.queueOrderTimestamp(a.w) < engine.workloads.queueOrderTimestamp(b.w);
  }
}
