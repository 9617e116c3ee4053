package batchsim.core.metrics;

/**
 * Scale-to-zero churn of one serving Deployment.
 *
 * @param scaleUps PodGroups created
 * @param scaleUpsRan scale-ups whose pods all ran before the next scale-down
 * @param deleteAttempts PodGroup deletion attempts
 * @param deleteRetries attempts that failed and were retried
 * @param newerPodGroupsKept retried deletions that found a newer PodGroup of the same name and left it
 */
public record ServingStats(String name, long scaleUps, long scaleUpsRan, long deleteAttempts, long deleteRetries,
    long newerPodGroupsKept) {}
