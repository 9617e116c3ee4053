package batchsim.core.kueue;

import batchsim.core.model.PodSetSpec;
import java.util.List;

/**
 * Kueue's scheduling equivalence hash (pkg/workload/workload.go computeSchedulingHash): two pending
 * workloads with the same priority and the same pod sets (counts, minCounts, requests, selectors,
 * tolerations) get the same admission answer, so one NoFit answer parks them all. The hash is cached:
 * generated workloads of one class share their pod-set list, so equality is usually an identity check.
 */
final class SchedulingShape {
  private final int priority;
  private final List<PodSetSpec> podSets;
  private final int hash;

  SchedulingShape(int priority, List<PodSetSpec> podSets) {
    this.priority = priority;
    this.podSets = podSets;
    this.hash = 31 * priority + podSets.hashCode();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SchedulingShape s && s.hash == hash && s.priority == priority
        && (s.podSets == podSets || s.podSets.equals(podSets));
  }

  @Override
  public int hashCode() {
    return hash;
  }
}
