package batchsim.core.metrics;

import batchsim.core.model.ResourceSpace;
import java.util.List;

/**
 * Everything a run produced. Lists are in a deterministic order: queues and flavors in scenario order,
 * workloads in arrival order — or none, when the run streamed them to a {@code WorkloadSink} as they ended
 * (the CLI does: a million finished workloads are not kept).
 *
 * @param endTimeMs virtual time when the run stopped (the horizon, or the last event)
 * @param events number of events processed
 * @param overall the "*" statistics across all ClusterQueues
 * @param queues per ClusterQueue, in scenario order
 * @param timeSeries samples every sampleInterval (empty when sampling is off)
 * @param preemptionOverall eviction costs across all queues (null when not recorded)
 * @param preemption eviction costs per ClusterQueue, in scenario order
 * @param pools node counts, node-hours and failures per node pool
 * @param serving scale-to-zero churn per serving Deployment
 * @param decisions per workload id, every condition change (only with {@code --explain} and when the workloads
 *     were not streamed; else null)
 * @param tas Topology Aware Scheduling figures (null when the scenario has no TAS flavor)
 * @param metricSamples the engine's metric model (Kueue's pkg/metrics) at every sample time and at the end;
 *     empty under Volcano
 * @param engine the admission engine that ran: {@link #KUEUE} or {@link #VOLCANO} (reports use its words)
 * @param waiting why workloads waited, per ClusterQueue and overall (null under Volcano and in hand-built results)
 * @param clusters MultiKueue's worker clusters, each with its own result (empty unless the run was a manager's)
 */
public record RunResult(
    String scenarioName,
    long seed,
    long horizonMs,
    long endTimeMs,
    long events,
    ResourceSpace resources,
    List<WorkloadRecord> workloads,
    QueueStats overall,
    List<QueueStats> queues,
    List<UtilizationStat> utilization,
    List<QueueUsageStat> queueUsage,
    long unknownQueueArrivals,
    TimeSeries timeSeries,
    PreemptionStats preemptionOverall,
    List<PreemptionStats> preemption,
    List<PoolStats> pools,
    List<ServingStats> serving,
    TasStats tas,
    ProvisioningStats provisioning,
    java.util.Map<String, List<Decision>> decisions,
    MetricSamples metricSamples,
    String engine,
    WaitingStats waiting,
    List<ClusterResult> clusters) {
  public static final String KUEUE = "kueue";
  public static final String VOLCANO = "volcano";

  /** A result of one cluster (no MultiKueue workers). */
  public RunResult(String scenarioName, long seed, long horizonMs, long endTimeMs, long events,
      ResourceSpace resources, List<WorkloadRecord> workloads, QueueStats overall, List<QueueStats> queues,
      List<UtilizationStat> utilization, List<QueueUsageStat> queueUsage, long unknownQueueArrivals,
      TimeSeries timeSeries, PreemptionStats preemptionOverall, List<PreemptionStats> preemption,
      List<PoolStats> pools, List<ServingStats> serving, TasStats tas, ProvisioningStats provisioning,
      java.util.Map<String, List<Decision>> decisions, MetricSamples metricSamples, String engine,
      WaitingStats waiting) {
    this(scenarioName, seed, horizonMs, endTimeMs, events, resources, workloads, overall, queues, utilization,
        queueUsage, unknownQueueArrivals, timeSeries, preemptionOverall, preemption, pools, serving, tas,
        provisioning, decisions, metricSamples, engine, waiting, List.of());
  }

  /** This (the manager's) result with MultiKueue's worker clusters' results. */
  public RunResult withClusters(List<ClusterResult> workers) {
    return new RunResult(scenarioName, seed, horizonMs, endTimeMs, events, resources, workloads, overall, queues,
        utilization, queueUsage, unknownQueueArrivals, timeSeries, preemptionOverall, preemption, pools, serving,
        tas, provisioning, decisions, metricSamples, engine, waiting, List.copyOf(workers));
  }

  /** A result without the waiting split (tests and tools that build results by hand). */
  public RunResult(String scenarioName, long seed, long horizonMs, long endTimeMs, long events,
      ResourceSpace resources, List<WorkloadRecord> workloads, QueueStats overall, List<QueueStats> queues,
      List<UtilizationStat> utilization, List<QueueUsageStat> queueUsage, long unknownQueueArrivals,
      TimeSeries timeSeries, PreemptionStats preemptionOverall, List<PreemptionStats> preemption,
      List<PoolStats> pools, List<ServingStats> serving, TasStats tas, ProvisioningStats provisioning,
      java.util.Map<String, List<Decision>> decisions, MetricSamples metricSamples, String engine) {
    this(scenarioName, seed, horizonMs, endTimeMs, events, resources, workloads, overall, queues, utilization,
        queueUsage, unknownQueueArrivals, timeSeries, preemptionOverall, preemption, pools, serving, tas,
        provisioning, decisions, metricSamples, engine, null);
  }

  /** A result without metric samples (tests and tools that build results by hand). */
  public RunResult(String scenarioName, long seed, long horizonMs, long endTimeMs, long events,
      ResourceSpace resources, List<WorkloadRecord> workloads, QueueStats overall, List<QueueStats> queues,
      List<UtilizationStat> utilization, List<QueueUsageStat> queueUsage, long unknownQueueArrivals,
      TimeSeries timeSeries, PreemptionStats preemptionOverall, List<PreemptionStats> preemption,
      List<PoolStats> pools, List<ServingStats> serving, TasStats tas, ProvisioningStats provisioning,
      java.util.Map<String, List<Decision>> decisions) {
    this(scenarioName, seed, horizonMs, endTimeMs, events, resources, workloads, overall, queues, utilization,
        queueUsage, unknownQueueArrivals, timeSeries, preemptionOverall, preemption, pools, serving, tas,
        provisioning, decisions, MetricSamples.EMPTY, KUEUE);
  }

  /** A result without preemption statistics (tests and tools that build results by hand). */
  public RunResult(String scenarioName, long seed, long horizonMs, long endTimeMs, long events,
      ResourceSpace resources, List<WorkloadRecord> workloads, QueueStats overall, List<QueueStats> queues,
      List<UtilizationStat> utilization, List<QueueUsageStat> queueUsage, long unknownQueueArrivals,
      TimeSeries timeSeries) {
    this(scenarioName, seed, horizonMs, endTimeMs, events, resources, workloads, overall, queues, utilization,
        queueUsage, unknownQueueArrivals, timeSeries, null, List.of(), List.of(), List.of(), null, null, null);
  }
}
