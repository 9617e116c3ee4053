package batchsim.core.model;

import java.util.List;

/**
 * Everything one run needs, already validated: the engine trusts these references.
 *
 * @param name scenario name, for reports
 * @param seed root seed; every random stream is split from it
 * @param horizonMs virtual time at which the run stops; {@link #NO_HORIZON} runs until no events remain
 * @param resources the interned resource names
 * @param sampleIntervalMs spacing of time-series samples (0 = none)
 */
public record SimulationSpec(
    String name,
    long seed,
    long horizonMs,
    ResourceSpace resources,
    List<NodePoolSpec> nodePools,
    List<ResourceFlavorSpec> flavors,
    List<CohortSpec> cohorts,
    List<ClusterQueueSpec> clusterQueues,
    List<LocalQueueSpec> localQueues,
    List<PriorityClassSpec> priorityClasses,
    KueueConfig kueue,
    PodSchedulingConfig podScheduling,
    List<WorkloadSourceSpec> workloadSources,
    long sampleIntervalMs) {

  public static final long NO_HORIZON = Long.MAX_VALUE;
}
