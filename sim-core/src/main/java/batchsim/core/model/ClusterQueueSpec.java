package batchsim.core.model;

import java.util.List;

/**
 * A Kueue ClusterQueue. {@code cohort} is null for a queue outside any cohort. {@code fairWeight} is the
 * fairSharing.weight (default 1).
 */
public record ClusterQueueSpec(
    String name,
    String cohort,
    List<ResourceGroupSpec> resourceGroups,
    QueueingStrategy queueingStrategy,
    PreemptionSpec preemption,
    FlavorFungibility fungibility,
    double fairWeight,
    List<String> admissionChecks) {

  public ClusterQueueSpec withResourceGroups(List<ResourceGroupSpec> groups) {
    return new ClusterQueueSpec(name, cohort, groups, queueingStrategy, preemption, fungibility, fairWeight,
        admissionChecks);
  }
}
