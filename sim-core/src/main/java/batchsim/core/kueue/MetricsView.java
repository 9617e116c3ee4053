package batchsim.core.kueue;

import java.util.ArrayList;
import java.util.List;

/**
 * Read-only figures of the engine that Kueue's cache and queue manager report as gauges
 * (pkg/cache/scheduler/clusterqueue.go reportResourceMetrics, cache.go, pkg/cache/queue/metrics.go).
 * Amounts are in the engine's base units; limits that are unset read as +Inf, as Kueue reports them.
 */
public final class MetricsView {
  private final KueueEngine engine;

  public MetricsView(KueueEngine engine) {
    this.engine = engine;
  }

  public boolean fairSharing() {
    return engine.config.fairSharing();
  }

  /** The ClusterQueues that exist now (Kueue clears a deleted one's metrics once it is gone). */
  public List<String> clusterQueues() {
    return engine.clusterQueueNames().stream().filter(engine::clusterQueueExists).toList();
  }

  /** The cohorts that exist now: Cohort objects, and implicit cohorts something still names. */
  public List<String> cohorts() {
    return engine.cohortNames().stream().filter(engine::cohortExists).toList();
  }

  /** The ClusterQueue's parent cohort, "" when it has none (Kueue's cohort label). */
  public String cohort(String cq) {
    ClusterQueue q = queue(cq);
    return q.hasParent() ? q.parent.name : "";
  }

  /** The cohorts above a ClusterQueue or cohort, its parent first and the root last. */
  public List<String> ancestors(String clusterQueueOrCohort) {
    QuotaNode n = engine.tree.queuesByName.containsKey(clusterQueueOrCohort) ? queue(clusterQueueOrCohort)
        : engine.tree.cohorts.get(clusterQueueOrCohort);
    List<String> out = new ArrayList<>();
    for (Cohort c = n.parent; c != null; c = c.parent) {
      out.add(c.name);
    }
    return out;
  }

  /** Kueue's ClusterQueue status: terminating once deleted, pending while stopped (inactive), else active. */
  public String status(String cq) {
    ClusterQueue q = queue(cq);
    return q.deleted ? "terminating" : q.active ? "active" : "pending";
  }

  /** Whether the queue manager counts the queue's pending workloads as active (Kueue ClusterQueueActive). */
  public boolean active(String cq) {
    ClusterQueue q = queue(cq);
    return q.active && !q.deleted;
  }

  /** The flavor/resource pairs the ClusterQueue defines quota for (Kueue resourceNode.Quotas). */
  public List<Integer> quotaFrs(String cq) {
    List<Integer> out = new ArrayList<>();
    for (ResourceGroup g : queue(cq).groups) {
      for (int f : g.flavors()) {
        for (int r : g.covered()) {
          out.add(engine.index.fr(f, r));
        }
      }
    }
    return out;
  }

  public double nominal(String cq, int fr) {
    return queue(cq).nominal[fr];
  }

  public double borrowingLimit(String cq, int fr) {
    return limit(queue(cq).borrowingLimit[fr]);
  }

  public double lendingLimit(String cq, int fr) {
    return limit(queue(cq).lendingLimit[fr]);
  }

  /** Quota reserved by the ClusterQueue's workloads (Kueue resourceNode.Usage). */
  public long reservation(String cq, int fr) {
    return queue(cq).usage[fr];
  }

  /** Kueue DRS PreciseWeightedShare of a ClusterQueue (+Inf for a zero weight that borrows). */
  public double weightedShare(String cq) {
    return Drs.of(queue(cq), null, engine.index).weightedShare();
  }

  /** Kueue DRS PreciseWeightedShare of a cohort (0 for a root cohort). */
  public double cohortWeightedShare(String cohort) {
    return Drs.of(engine.tree.cohorts.get(cohort), null, engine.index).weightedShare();
  }

  /** Kueue SubtreeQuota of a cohort: its own nominal plus what its children can lend it. */
  public long cohortSubtreeQuota(String cohort, int fr) {
    return engine.tree.cohorts.get(cohort).subtreeQuota[fr];
  }

  /** Quota reserved by every ClusterQueue below the cohort (Kueue subtreeReservationMemo.total). */
  public long cohortSubtreeReservation(String cohort, int fr) {
    long total = 0;
    for (ClusterQueue q : engine.tree.cohorts.get(cohort).subtreeQueues()) {
      total += q.usage[fr];
    }
    return total;
  }

  /** Quota a workload holds on a flavor/resource pair (0 when it holds none). */
  public long usage(Workload w, int fr) {
    return w.usage.get(fr);
  }

  private ClusterQueue queue(String cq) {
    return engine.tree.queuesByName.get(cq);
  }

  private static double limit(long v) {
    return v == QuotaNode.NO_LIMIT ? Double.POSITIVE_INFINITY : v;
  }
}
