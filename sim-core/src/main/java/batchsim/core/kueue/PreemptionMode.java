package batchsim.core.kueue;

/**
 * The flavor assigner's internal mode of one flavor-resource, ordered worst to best as in Kueue's
 * flavorassigner.go: noFit < noPreemptionCandidates < preempt < reclaim < fit.
 */
enum PreemptionMode {
  NO_FIT,
  NO_CANDIDATES,
  PREEMPT,
  RECLAIM,
  FIT;

  AssignmentMode assignmentMode() {
    switch (this) {
      case NO_FIT: return AssignmentMode.NO_FIT;
      case FIT: return AssignmentMode.FIT;
      default: return AssignmentMode.PREEMPT;
    }
  }

  boolean isPreemptMode() {
    return this == PREEMPT || this == RECLAIM;
  }
}
