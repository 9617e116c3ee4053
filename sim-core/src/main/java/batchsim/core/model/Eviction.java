package batchsim.core.model;

/**
 * A workload pending after an eviction before the run started: Kueue's Evicted condition (its reason, and
 * the Preempted condition's for a preemption) and {@code status.requeueState}. The eviction time orders the
 * queue where Kueue's GetQueueOrderTimestamp says so (PodsReadyTimeout with the Eviction timestamp,
 * AdmissionCheck); a PodsReadyTimeout or AdmissionCheck eviction waits out its backoff until
 * {@code requeueAtMs}.
 *
 * @param evictedAtMs when it was evicted, at or before 0
 * @param reason Kueue's eviction reason (Preempted, PodsReadyTimeout, AdmissionCheck, ...)
 * @param preemptionReason the Preempted condition's reason (InClusterQueue, ...), or null
 * @param requeueCount requeueState.count
 * @param requeueAtMs requeueState.requeueAt, or {@link #NO_REQUEUE_AT}
 */
public record Eviction(long evictedAtMs, String reason, String preemptionReason, int requeueCount, long requeueAtMs)
    implements LiveState {
  public static final long NO_REQUEUE_AT = Long.MIN_VALUE;

  public Eviction {
    if (evictedAtMs > 0) {
      throw new IllegalArgumentException("an eviction restored at the start lies at or before 0");
    }
  }
}
