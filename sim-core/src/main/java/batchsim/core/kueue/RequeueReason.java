package batchsim.core.kueue;

/** Kueue RequeueReason (pkg/cache/queue): decides between the active heap and the inadmissible set. */
public enum RequeueReason {
  GENERIC,
  FAILED_AFTER_NOMINATION,
  NO_FIT,
  PREEMPTION_NO_CANDIDATES,
  PENDING_PREEMPTION,
  PREEMPTION_FAILED,
  NAMESPACE_MISMATCH,
  PENDING_MIGRATION;

  /** Kueue: StrictFIFO requeues immediately except on NamespaceMismatch; BestEffortFIFO only after nomination-time failures. */
  boolean immediate(boolean strictFifo) {
    if (strictFifo) {
      return this != NAMESPACE_MISMATCH;
    }
    return this == FAILED_AFTER_NOMINATION || this == PENDING_PREEMPTION || this == PENDING_MIGRATION
        || this == PREEMPTION_FAILED;
  }
}
