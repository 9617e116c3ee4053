package batchsim.scenarios;

import batchsim.core.model.AdmissionMode;
import batchsim.core.model.FlavorFungibility;
import batchsim.core.model.KueueConfig;
import batchsim.core.model.PodSchedulingConfig;
import batchsim.core.model.PreemptionSpec;
import batchsim.core.model.QueueingStrategy;
import batchsim.core.model.QuotaSpec;
import batchsim.core.model.ResourceFlavorSpec;
import batchsim.core.model.Taint;
import batchsim.core.model.Toleration;
import batchsim.scenarios.yaml.Node;
import batchsim.scenarios.yaml.ScalarNode;
import batchsim.workloads.ArrivalProcess;
import batchsim.workloads.Distribution;
import java.util.List;
import java.util.SortedMap;

/**
 * A scenario as written, after the binder's shape and value checks: model values where they need no
 * context, plus the nodes of every name and reference, so that the validator can point at them.
 * Any field may be null when its YAML had a problem; the model is only built when there were none.
 */
final class Spec {
  private Spec() {}

  /** The whole file. {@code resourceNames} is every resource name in order of first appearance. */
  record Scenario(
      ScalarNode name,
      long seed,
      long horizonMs,
      long sampleIntervalMs,
      List<NodePool> nodePools,
      PodSchedulingConfig podScheduling,
      KueueConfig kueue,
      List<Flavor> flavors,
      List<Cohort> cohorts,
      List<ClusterQueue> clusterQueues,
      List<LocalQueue> localQueues,
      List<PriorityClass> priorityClasses,
      List<WorkloadClass> workloadClasses,
      List<ListedWorkload> listedWorkloads,
      List<TraceBinder.Trace> traces,
      List<String> resourceNames,
      List<batchsim.core.model.TopologySpec> topologies,
      TimelineObjects timelineObjects) {}

  /** An amount of one resource in base units; {@code resource} is the map key's node. */
  record Amount(ScalarNode resource, long value) {}

  record NodePool(ScalarNode name, int count, SortedMap<String, String> labels, List<Taint> taints,
      List<Amount> allocatable) {}

  record Flavor(ScalarNode name, ResourceFlavorSpec spec) {}

  record Quota(ScalarNode resource, QuotaSpec quota) {}

  record FlavorQuotas(ScalarNode flavor, List<Quota> resources) {}

  record ResourceGroup(Node at, List<ScalarNode> coveredResources, List<FlavorQuotas> flavors) {}

  record Cohort(ScalarNode name, ScalarNode parent, List<ResourceGroup> resourceGroups, double fairWeight) {}

  record ClusterQueue(ScalarNode name, ScalarNode cohort, List<ResourceGroup> resourceGroups,
      QueueingStrategy queueingStrategy, PreemptionSpec preemption, FlavorFungibility fungibility,
      double fairWeight, List<String> admissionChecks, List<CheckRule> checkRules, AdmissionMode admissionMode) {}

  /**
   * One admission check of a ClusterQueue: an {@code admissionChecks} item (no onFlavors) or an
   * {@code admissionChecksStrategy} rule.
   */
  record CheckRule(ScalarNode name, List<ScalarNode> onFlavors) {}

  /** {@code fullName} is "namespace/name", or the name when no namespace is given. */
  record LocalQueue(ScalarNode name, String fullName, ScalarNode clusterQueue, double fairWeight) {}

  record PriorityClass(ScalarNode name, int value) {}

  /** Either {@code priorityClass} (resolved by the validator) or the literal {@code value}. */
  record Priority(ScalarNode priorityClass, int value) {
    static final Priority DEFAULT = new Priority(null, 0);
  }

  /** {@code topology}: the podSet's TAS request, or null. */
  record PodSet(String name, int count, int minCount, List<Amount> requests,
      SortedMap<String, String> nodeSelector, List<Toleration> tolerations,
      batchsim.core.model.TopologyRequest topology) {
    PodSet(String name, int count, int minCount, List<Amount> requests, SortedMap<String, String> nodeSelector,
        List<Toleration> tolerations) {
      this(name, count, minCount, requests, nodeSelector, tolerations, null);
    }
  }

  /** {@code count} is {@code WorkloadClass.UNLIMITED} and {@code untilMs} Long.MAX_VALUE when unset. */
  record WorkloadClass(ScalarNode name, ScalarNode queue, Priority priority, ArrivalProcess arrival,
      Node arrivalAt, long count, long startMs, long untilMs, Distribution runtime, List<PodSet> podSets,
      long terminationGraceMs, List<batchsim.core.model.ElasticAction.Step> scaling, Node scalingNode) {}

  /**
   * {@code runtime} is the runtime's distribution ({@link Distribution.Constant} for a plain duration);
   * {@code reservation} the quota it holds at the start, {@code eviction} the eviction it is pending after
   * (imported live state), or null.
   */
  record ListedWorkload(ScalarNode name, ScalarNode queue, Priority priority, long atMs, Distribution runtime,
      List<PodSet> podSets, ListedReservation reservation, batchsim.core.model.Eviction eviction) {}

  /**
   * A listed workload's {@code quotaReserved} block: flavors per pod set (resource → flavor node), nodes per
   * pod set (node name nodes), admitted counts; the model's {@link batchsim.core.model.Reservation} plus the
   * nodes to point at.
   */
  record ListedReservation(Node at, long reservedAtMs, boolean admitted, long startedAtMs,
      List<java.util.Map<String, ScalarNode>> flavors, int[] counts, List<List<ScalarNode>> nodes) {}
}
