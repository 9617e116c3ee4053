package batchsim.core.kueue;

/** Kueue FlavorAssignmentMode, ordered worst to best: NoFit < Preempt < DeferredFit < Fit. */
public enum AssignmentMode {
  NO_FIT,
  PREEMPT,
  DEFERRED_FIT,
  FIT
}
