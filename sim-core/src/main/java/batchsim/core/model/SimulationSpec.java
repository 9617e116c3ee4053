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
 * @param timeline one-off and recurring actions on the cluster and queues
 * @param failureModels stochastic node failures per pool
 * @param serving scale-to-zero Deployments (PodGroup churn)
 * @param admissionChecks AdmissionChecks named by ClusterQueues (ProvisioningRequest)
 * @param autoscaling autoscaled node pools
 * @param topologies Kueue Topology objects, referred to by TAS flavors' {@code topologyName}
 * @param multiKueue the worker clusters this cluster, as MultiKueue's manager, dispatches to (null: none)
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
    long sampleIntervalMs,
    List<TimelineEvent> timeline,
    List<FailureModel> failureModels,
    List<ServingSpec> serving,
    List<TopologySpec> topologies,
    List<AdmissionCheckSpec> admissionChecks,
    List<AutoscalingSpec> autoscaling,
    MultiKueueSpec multiKueue) {

  public static final long NO_HORIZON = Long.MAX_VALUE;

  /** A scenario that is no MultiKueue manager. */
  public SimulationSpec(String name, long seed, long horizonMs, ResourceSpace resources,
      List<NodePoolSpec> nodePools, List<ResourceFlavorSpec> flavors, List<CohortSpec> cohorts,
      List<ClusterQueueSpec> clusterQueues, List<LocalQueueSpec> localQueues,
      List<PriorityClassSpec> priorityClasses, KueueConfig kueue, PodSchedulingConfig podScheduling,
      List<WorkloadSourceSpec> workloadSources, long sampleIntervalMs, List<TimelineEvent> timeline,
      List<FailureModel> failureModels, List<ServingSpec> serving, List<TopologySpec> topologies,
      List<AdmissionCheckSpec> admissionChecks, List<AutoscalingSpec> autoscaling) {
    this(name, seed, horizonMs, resources, nodePools, flavors, cohorts, clusterQueues, localQueues,
        priorityClasses, kueue, podScheduling, workloadSources, sampleIntervalMs, timeline, failureModels, serving,
        topologies, admissionChecks, autoscaling, null);
  }

  /** This spec as MultiKueue's manager of {@code mk}'s workers. */
  public SimulationSpec withMultiKueue(MultiKueueSpec mk) {
    return new SimulationSpec(name, seed, horizonMs, resources, nodePools, flavors, cohorts, clusterQueues,
        localQueues, priorityClasses, kueue, podScheduling, workloadSources, sampleIntervalMs, timeline,
        failureModels, serving, topologies, admissionChecks, autoscaling, mk);
  }

  /** A scenario without admission checks or autoscaled pools. */
  public SimulationSpec(String name, long seed, long horizonMs, ResourceSpace resources,
      List<NodePoolSpec> nodePools, List<ResourceFlavorSpec> flavors, List<CohortSpec> cohorts,
      List<ClusterQueueSpec> clusterQueues, List<LocalQueueSpec> localQueues,
      List<PriorityClassSpec> priorityClasses, KueueConfig kueue, PodSchedulingConfig podScheduling,
      List<WorkloadSourceSpec> workloadSources, long sampleIntervalMs, List<TimelineEvent> timeline,
      List<FailureModel> failureModels, List<ServingSpec> serving, List<TopologySpec> topologies) {
    this(name, seed, horizonMs, resources, nodePools, flavors, cohorts, clusterQueues, localQueues,
        priorityClasses, kueue, podScheduling, workloadSources, sampleIntervalMs, timeline, failureModels, serving,
        topologies, List.of(), List.of());
  }

  /** This spec with admission checks and autoscaled pools. */
  public SimulationSpec withProvisioning(List<AdmissionCheckSpec> checks, List<AutoscalingSpec> scaling) {
    return new SimulationSpec(name, seed, horizonMs, resources, nodePools, flavors, cohorts, clusterQueues,
        localQueues, priorityClasses, kueue, podScheduling, workloadSources, sampleIntervalMs, timeline,
        failureModels, serving, topologies, List.copyOf(checks), List.copyOf(scaling), multiKueue);
  }

  /** A scenario without Topology objects (no Topology Aware Scheduling). */
  public SimulationSpec(String name, long seed, long horizonMs, ResourceSpace resources,
      List<NodePoolSpec> nodePools, List<ResourceFlavorSpec> flavors, List<CohortSpec> cohorts,
      List<ClusterQueueSpec> clusterQueues, List<LocalQueueSpec> localQueues,
      List<PriorityClassSpec> priorityClasses, KueueConfig kueue, PodSchedulingConfig podScheduling,
      List<WorkloadSourceSpec> workloadSources, long sampleIntervalMs, List<TimelineEvent> timeline,
      List<FailureModel> failureModels, List<ServingSpec> serving) {
    this(name, seed, horizonMs, resources, nodePools, flavors, cohorts, clusterQueues, localQueues,
        priorityClasses, kueue, podScheduling, workloadSources, sampleIntervalMs, timeline, failureModels, serving,
        List.of());
  }

  /** A scenario without a timeline, failure models or serving workloads. */
  public SimulationSpec(String name, long seed, long horizonMs, ResourceSpace resources,
      List<NodePoolSpec> nodePools, List<ResourceFlavorSpec> flavors, List<CohortSpec> cohorts,
      List<ClusterQueueSpec> clusterQueues, List<LocalQueueSpec> localQueues,
      List<PriorityClassSpec> priorityClasses, KueueConfig kueue, PodSchedulingConfig podScheduling,
      List<WorkloadSourceSpec> workloadSources, long sampleIntervalMs) {
    this(name, seed, horizonMs, resources, nodePools, flavors, cohorts, clusterQueues, localQueues,
        priorityClasses, kueue, podScheduling, workloadSources, sampleIntervalMs, List.of(), List.of(), List.of(),
        List.of());
  }

  /** This spec with a different seed (replicas, --seed). */
  /** The index of the named node pool, or -1. */
  public int poolIndex(String pool) {
    for (int p = 0; p < nodePools.size(); p++) {
      if (nodePools.get(p).name().equals(pool)) {
        return p;
      }
    }
    return -1;
  }

  public SimulationSpec withSeed(long newSeed) {
    return new SimulationSpec(name, newSeed, horizonMs, resources, nodePools, flavors, cohorts, clusterQueues,
        localQueues, priorityClasses, kueue, podScheduling, workloadSources, sampleIntervalMs, timeline,
        failureModels, serving, topologies, admissionChecks, autoscaling, multiKueue);
  }
}
