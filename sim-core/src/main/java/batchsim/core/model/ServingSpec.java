package batchsim.core.model;

/**
 * A serving Deployment scaled between 0 and its replicas (scale-to-zero churn), each scale-up backed by
 * a PodGroup named after the Deployment. Scale-down deletes the PodGroup; a deletion attempt fails with
 * {@code deleteFailureProbability} and is retried after {@code retryDelay}. A retry deletes only the
 * PodGroup it was issued for (its identity is captured at delete time), so a newer PodGroup of the same
 * name survives.
 *
 * @param up how long it stays scaled up; @param down how long it stays at zero
 * @param cycles number of scale-ups
 */
public record ServingSpec(
    String name,
    String localQueue,
    int priority,
    PodSetSpec podSet,
    long startMs,
    LongDistribution up,
    LongDistribution down,
    int cycles,
    LongDistribution deleteDelay,
    double deleteFailureProbability,
    LongDistribution retryDelay) {}
