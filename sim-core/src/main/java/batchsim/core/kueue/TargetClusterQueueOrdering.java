package batchsim.core.kueue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Kueue TargetClusterQueueOrdering: repeatedly descend to the child with the highest DRS. */
final class TargetClusterQueueOrdering {
  private final KueueEngine engine;
  private final ClusterQueue preemptorCq;
  private final Map<ClusterQueue, List<Workload>> byQueue = new LinkedHashMap<>();
  private final java.util.Set<QuotaNode> pruned = new java.util.HashSet<>();

  TargetClusterQueueOrdering(KueueEngine engine, ClusterQueue preemptorCq, List<Workload> candidates) {
    this.engine = engine;
    this.preemptorCq = preemptorCq;
    for (Workload w : candidates) {
      byQueue.computeIfAbsent(w.cq, k -> new ArrayList<>()).add(w);
    }
  }

  boolean hasWorkload(ClusterQueue q) {
    List<Workload> l = byQueue.get(q);
    return l != null && !l.isEmpty();
  }

  Workload pop(ClusterQueue q) {
    return byQueue.get(q).remove(0);
  }

  void drop(ClusterQueue q) {
    pruned.add(q);
  }

  ClusterQueue next() {
    if (!preemptorCq.hasParent()) {
      return !pruned.contains(preemptorCq) && hasWorkload(preemptorCq) ? preemptorCq : null;
    }
    Cohort root = preemptorCq.root();
    while (!pruned.contains(root)) {
      ClusterQueue t = nextTarget(root);
      if (t != null) {
        return t;
      }
    }
    return null;
  }

  private ClusterQueue nextTarget(Cohort cohort) {
    ClusterQueue bestCq = null;
    Drs bestCqDrs = Drs.NEGATIVE;
    for (ClusterQueue q : cohort.childQueues) {
      if (pruned.contains(q)) {
        continue;
      }
      Drs d = Drs.of(q, null, engine.index);
      if ((!d.borrowing() && q != preemptorCq) || !hasWorkload(q)) {
        pruned.add(q);
      } else if (bestCq != null && Drs.compare(d, bestCqDrs) == 0) {
        if (engine.preemptor.candidatesOrdering(byQueue.get(q).get(0), byQueue.get(bestCq).get(0), preemptorCq) < 0) {
          bestCq = q;
        }
      } else if (Drs.compare(d, bestCqDrs) > 0) {
        bestCqDrs = d;
        bestCq = q;
      }
    }
    Cohort bestCohort = null;
    Drs bestCohortDrs = Drs.NEGATIVE;
    for (Cohort c : cohort.childCohorts) {
      if (pruned.contains(c)) {
        continue;
      }
      Drs d = Drs.of(c, null, engine.index);
      if (!d.borrowing() && !c.isAncestorOf(preemptorCq)) {
        pruned.add(c);
      } else if (Drs.compare(d, bestCohortDrs) >= 0) {
        bestCohortDrs = d;
        bestCohort = c;
      }
    }
    if (bestCohort == null && bestCq == null) {
      pruned.add(cohort);
      return null;
    }
    if (bestCohort != null && Drs.compare(bestCohortDrs, bestCqDrs) >= 0) {
      return nextTarget(bestCohort);
    }
    return bestCq;
  }
}
