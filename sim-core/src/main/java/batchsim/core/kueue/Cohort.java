package batchsim.core.kueue;

import java.util.ArrayList;
import java.util.List;

/** A Kueue Cohort: a node of the quota tree whose children are cohorts and ClusterQueues. */
final class Cohort extends QuotaNode {
  final List<Cohort> childCohorts = new ArrayList<>();
  final List<ClusterQueue> childQueues = new ArrayList<>();
  /** Kueue getNodeHeight: 1 for a cohort of ClusterQueues, 1 + the tallest child cohort otherwise. */
  int height;

  Cohort(String name, double fairWeight, int frCount) {
    super(name, fairWeight, frCount);
  }

  @Override
  boolean isClusterQueue() {
    return false;
  }

  /** All ClusterQueues below this cohort, depth-first in declaration order. */
  void collectQueues(List<ClusterQueue> out) {
    for (Cohort c : childCohorts) {
      c.collectQueues(out);
    }
    out.addAll(childQueues);
  }

  List<ClusterQueue> subtreeQueues() {
    List<ClusterQueue> out = new ArrayList<>();
    collectQueues(out);
    return out;
  }

  boolean isAncestorOf(QuotaNode n) {
    for (Cohort p = n.parent; p != null; p = p.parent) {
      if (p == this) {
        return true;
      }
    }
    return false;
  }

  @Override
  public String toString() {
    return "Cohort(" + name + ")";
  }
}
