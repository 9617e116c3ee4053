package batchsim.core.kueue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Checked mode: the quota invariants of the tree (cached usage equals the admitted workloads', cohorts hold
 * what their children push up, committed usage within the limits), tolerating excess a quota change left.
 */
final class QuotaInvariants {
  private final KueueEngine engine;

  QuotaInvariants(KueueEngine engine) {
    this.engine = engine;
  }

  /**
   * Checks the quota invariants on every node of every tree:
   *
   * <ul>
   *   <li>each ClusterQueue's cached usage equals the sum of its admitted workloads, and is never negative;
   *   <li>each cohort's cached usage equals what its children push up (usage above their local quota);
   *   <li>the committed usage (every workload holding quota except those being evicted) stays within
   *       nominal + borrowingLimit on every queue and cohort, and within the subtree quota at each root.
   * </ul>
   *
   * Workloads being evicted are left out of the limit checks because Kueue may already reserve their
   * quota for another head in the same cycle (scheduler.go fits() simulates the removal of every victim
   * chosen so far), so a cohort can briefly hold more than its quota until the victims' pods are gone.
   * Returns the violations found (empty when clean).
   */
  List<String> checkQuotaInvariants() {
    List<String> out = new ArrayList<>();
    int frs = engine.index.size();
    Map<QuotaNode, long[]> committed = committedUsage();
    for (ClusterQueue q : engine.tree.queues) {
      long[] all = new long[frs];
      for (Workload w : q.admitted) {
        for (int i = 0; i < w.usage.frs.length; i++) {
          all[w.usage.frs[i]] += w.usage.amounts[i];
        }
      }
      long[] live = committed.get(q);
      for (int fr = 0; fr < frs; fr++) {
        if (q.usage[fr] != all[fr] || q.usage[fr] < 0) {
          out.add("ClusterQueue " + q.name + " caches usage " + q.usage[fr] + " of " + frName(fr)
              + " but its admitted workloads use " + all[fr]);
        }
        checkLimit(out, q, fr, live[fr]);
      }
    }
    for (Cohort c : engine.tree.cohorts.values()) {
      long[] live = committed.get(c);
      for (int fr = 0; fr < frs; fr++) {
        long expected = 0;
        for (Cohort ch : c.childCohorts) {
          expected += Math.max(0, ch.usage[fr] - ch.localQuota(fr));
        }
        for (ClusterQueue ch : c.childQueues) {
          expected += Math.max(0, ch.usage[fr] - ch.localQuota(fr));
        }
        if (expected != c.usage[fr]) {
          out.add("Cohort " + c.name + " usage of " + frName(fr) + " is " + c.usage[fr] + " but its children push "
              + expected);
        }
        checkLimit(out, c, fr, live[fr]);
      }
    }
    out.addAll(engine.tas.admissions.checkInvariants()); // [TAS] per-domain usage equals the admitted assignments
    return out;
  }

  /** Usage of every node counting only workloads that hold quota and are not being evicted. */
  private Map<QuotaNode, long[]> committedUsage() {
    int frs = engine.index.size();
    Map<QuotaNode, long[]> committed = new java.util.IdentityHashMap<>();
    for (ClusterQueue q : engine.tree.queues) {
      long[] live = new long[frs];
      for (Workload w : q.admitted) {
        if (w.state != WorkloadState.EVICTING) {
          for (int i = 0; i < w.usage.frs.length; i++) {
            live[w.usage.frs[i]] += w.usage.amounts[i];
          }
        }
      }
      committed.put(q, live);
    }
    for (Cohort c : engine.tree.cohorts.values()) {
      if (c.parent == null) {
        committedUsage(c, committed);
      }
    }
    return committed;
  }

  /** Kueue's push-up rule applied to committed usage: a cohort holds what its children use above local quota. */
  private long[] committedUsage(Cohort c, Map<QuotaNode, long[]> committed) {
    long[] sum = new long[engine.index.size()];
    List<QuotaNode> children = new ArrayList<>(c.childCohorts);
    children.addAll(c.childQueues);
    for (QuotaNode ch : children) {
      long[] u = ch instanceof Cohort cc ? committedUsage(cc, committed) : committed.get(ch);
      for (int fr = 0; fr < sum.length; fr++) {
        sum[fr] += Math.max(0, u[fr] - ch.localQuota(fr));
      }
    }
    committed.put(c, sum);
    return sum;
  }

  /** Excess above a limit that a quota change created, per node and fr; it may only shrink. */
  private final Map<QuotaNode, long[]> toleratedExcess = new java.util.IdentityHashMap<>();

  /** The limit a node's committed usage must respect, or -1 when none applies. */
  private static long limit(QuotaNode n, int fr) {
    if (!n.hasParent()) {
      return n.subtreeQuota[fr];
    }
    return n.borrowingLimit[fr] == QuotaNode.NO_LIMIT ? -1 : n.subtreeQuota[fr] + n.borrowingLimit[fr];
  }

  /** After a quota change: usage already above the new limit is legal until it drains (Kueue never evicts for it). */
  void tolerateExcess() {
    Map<QuotaNode, long[]> committed = committedUsage();
    committed.forEach((n, live) -> {
      for (int fr = 0; fr < live.length; fr++) {
        long lim = limit(n, fr);
        if (lim >= 0 && live[fr] > lim) {
          toleratedExcess.computeIfAbsent(n, k -> new long[engine.index.size()])[fr] = live[fr] - lim;
        }
      }
    });
  }

  private void checkLimit(List<String> out, QuotaNode n, int fr, long live) {
    long lim = limit(n, fr);
    if (lim < 0) {
      return;
    }
    long[] tol = toleratedExcess.get(n);
    long allowed = tol == null ? 0 : tol[fr];
    long excess = live - lim;
    if (excess > allowed) {
      String kind = n.isClusterQueue() ? "ClusterQueue " : "Cohort ";
      out.add(kind + n.name + " holds " + live + " of " + frName(fr) + " (excluding workloads being evicted), above "
          + (n.hasParent() ? "its quota + borrowingLimit " : n.isClusterQueue() ? "its nominal " : "its subtree quota ")
          + lim);
    } else if (tol != null) {
      tol[fr] = Math.min(allowed, Math.max(0, excess));
    }
  }


  private String frName(int fr) {
    return engine.index.flavorName(engine.index.flavorOf(fr)) + "/" + engine.index.resourceName(fr);
  }
}
