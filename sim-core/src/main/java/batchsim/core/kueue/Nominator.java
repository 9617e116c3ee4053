package batchsim.core.kueue;

import batchsim.core.model.PodSetSpec;
import java.util.List;

/**
 * Kueue's nomination (scheduler.go nominate, getAssignments, getInitialAssignments, and PodSetReducer for
 * partial admission): an entry's flavor assignment against the state at cycle start, its preemption
 * targets when it needs preemption, and [TAS] its placement.
 */
final class Nominator {
  private final KueueEngine engine;

  Nominator(KueueEngine engine) {
    this.engine = engine;
  }

  void nominate(Scheduler.Entry e) {
    if (!e.cq.active) {
      e.reason = "Suspended";
      e.message = "ClusterQueue " + e.cq.name + " is inactive";
      return;
    }
    computeAssignment(e);
  }

  /** Kueue getAssignments: the initial assignment, then updateAssignmentForTAS. */
  void computeAssignment(Scheduler.Entry e) {
    if (e.secondPass) {
      // [TAS] Flavors and quota stay; only the unhealthy node's pods are placed again.
      e.assignment = engine.tas.secondPass.assignment(e.w);
      e.targets = List.of();
      return;
    }
    computeInitialAssignment(e);
    engine.tas.flavors.updateForPreemption(e.w, e.cq, e.assignment, e.targets);
  }

  /** Kueue getInitialAssignments. */
  private void computeInitialAssignment(Scheduler.Entry e) {
    Workload w = e.w;
    if (w.lastAssignment != null && w.lastAssignment.outdated(e.cq.generation, engine.cycle)) {
      w.lastAssignment = null;
    }
    Assignment full = engine.assigner.assign(w, e.cq, null);
    e.assignment = full;
    e.targets = List.of();
    AssignmentMode mode = full.representativeMode();
    if (mode == AssignmentMode.FIT) {
      return;
    }
    if (mode == AssignmentMode.PREEMPT) {
      List<Target> t = engine.preemptor.getTargets(w, e.cq, full.frsNeedingPreemption(engine.index), full.usage(),
          full);
      if (!t.isEmpty()) {
        e.targets = t;
        return;
      }
    }
    if (engine.config.partialAdmission() && canBePartiallyAdmitted(w)) {
      Scheduler.Entry partial = searchPartial(e);
      if (partial != null) {
        e.assignment = partial.assignment;
        e.targets = partial.targets;
      }
    }
  }

  private static boolean canBePartiallyAdmitted(Workload w) {
    for (PodSetSpec ps : w.spec.podSets()) {
      if (ps.hasMinCount()) {
        return true;
      }
    }
    return false;
  }

  /**
   * Kueue PodSetReducer.Search: binary search over the total reduction between count and minCount for the
   * smallest reduction that fits (or preempts with targets).
   */
  private Scheduler.Entry searchPartial(Scheduler.Entry e) {
    List<PodSetSpec> ps = e.w.spec.podSets();
    int n = ps.size();
    int[] full = new int[n];
    int[] delta = new int[n];
    int total = 0;
    for (int i = 0; i < n; i++) {
      full[i] = ps.get(i).count();
      delta[i] = ps.get(i).hasMinCount() ? full[i] - ps.get(i).minCount() : 0;
      total += delta[i];
    }
    if (total == 0) {
      return null;
    }
    int lo = 0;
    int hi = total + 1;
    Scheduler.Entry lastGood = null;
    int lastGoodIdx = -1;
    // sort.Search: smallest i in [0, total] for which fits(i) is true.
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      int[] counts = new int[n];
      for (int i = 0; i < n; i++) {
        counts[i] = full[i] - (int) ((long) delta[i] * mid / total);
      }
      Scheduler.Entry attempt = new Scheduler.Entry(e.w);
      attempt.assignment = engine.assigner.assign(e.w, e.cq, counts);
      boolean fits = false;
      AssignmentMode m = attempt.assignment.representativeMode();
      if (m == AssignmentMode.FIT) {
        fits = true;
      } else if (m == AssignmentMode.PREEMPT) {
        attempt.targets = engine.preemptor.getTargets(e.w, e.cq,
            attempt.assignment.frsNeedingPreemption(engine.index), attempt.assignment.usage(), attempt.assignment);
        fits = !attempt.targets.isEmpty();
      }
      if (fits) {
        lastGood = attempt;
        lastGoodIdx = mid;
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return lo == lastGoodIdx ? lastGood : null;
  }
}
