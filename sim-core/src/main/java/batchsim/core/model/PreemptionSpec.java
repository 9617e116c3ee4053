package batchsim.core.model;

/**
 * Kueue ClusterQueue.spec.preemption. {@code borrowMaxPriorityThreshold} is null when unset (no
 * threshold).
 */
public record PreemptionSpec(
    PreemptionPolicy withinClusterQueue,
    PreemptionPolicy reclaimWithinCohort,
    PreemptionPolicy borrowWithinCohort,
    Integer borrowMaxPriorityThreshold) {

  public static final PreemptionSpec NEVER =
      new PreemptionSpec(PreemptionPolicy.NEVER, PreemptionPolicy.NEVER, PreemptionPolicy.NEVER, null);
}
