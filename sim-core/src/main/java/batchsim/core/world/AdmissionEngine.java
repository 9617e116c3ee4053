package batchsim.core.world;

import batchsim.core.cluster.Node;
import batchsim.core.metrics.MetricFamily;
import batchsim.core.metrics.MetricSamples;
import batchsim.core.metrics.ProvisioningStats;
import batchsim.core.metrics.QueueUsageStat;
import batchsim.core.metrics.TasStats;
import batchsim.core.model.ClusterAction;
import batchsim.core.model.WorkloadSpec;
import java.util.List;
import java.util.SortedMap;
import java.util.SplittableRandom;

/**
 * The admission engine a {@link World} runs: Kueue or Volcano. The world owns the clock, the nodes, arrivals,
 * the timeline, failures, serving churn, capacity accounting, sampling and the result; the engine decides
 * admission, ordering and preemption, and owns what happens to a workload's pods once admitted — Kueue hands
 * them to the world's kube-scheduler emulation ({@link WorldContext#binder()}), Volcano places them itself.
 *
 * <p>The engine schedules its own events (cycles, pod start-up, finish, eviction, admission checks) on the
 * world's loop, with itself as their target. It never calls into the world's loop owner: what it needs is
 * passed in as a {@link WorldContext}.
 */
public interface AdmissionEngine {
  /** {@link batchsim.core.metrics.RunResult#KUEUE} or {@code VOLCANO}: whose words the reports use. */
  String engineName();

  /** The queues the run reports statistics for (ClusterQueues; Volcano leaf queues), in report order. */
  List<String> reportedQueues();

  /** The number of quota-usage slots the recorder integrates for this engine. */
  int usageSlots();

  /** Checks the engine's invariants after every event (slower; tests and {@code --check}). */
  void checked(boolean on);

  /** Keeps a decision log (every condition change) for {@code batchsim explain}; engines without one ignore it. */
  void explain(boolean on);

  /**
   * Records the engine's objects in its API's terms to {@code sink} at every change, from the start of the
   * run; false when the engine has no such record (Volcano).
   */
  default boolean recordStatus(StatusSink sink) {
    return false;
  }

  /** Opens the engine's own random streams, split after the world's (arrivals, timeline, failures, churn). */
  void start(SplittableRandom root);

  /** A workload arrives at its LocalQueue; false when no queue takes it (the world records it as rejected). */
  boolean submit(WorkloadSpec spec);

  /** Why an arrival for {@code localQueue} was rejected, in the engine's words. */
  String rejection(String localQueue);

  /** Why this arrival was rejected (an engine whose reasons vary over time says so per workload). */
  default String rejection(WorkloadSpec spec) {
    return rejection(spec.localQueue());
  }

  // ------------------------------------------------------------------ nodes (the world changed them first)

  /** A node failed; {@code owners} had kube-scheduler pods there. Returns the pods lost. */
  int nodeFailed(Node n, List<Object> owners, int podsOnNode);

  /** A failed node is back (and schedulable unless cordoned). */
  void nodeRepaired(Node n);

  /** A node was cordoned (and drained: {@code owners}' pods there failed). Returns the pods lost by a drain. */
  int nodeCordoned(Node n, boolean drain, List<Object> owners, int podsOnNode);

  void nodeUncordoned(Node n);

  /**
   * The node went NotReady by a timeline action: it takes no new pods, its pods run on until the
   * node-lifecycle eviction (then {@link #nodeFailed}) or until it is Ready again ({@link #nodeRepaired}).
   */
  void nodeNotReady(Node n);

  /**
   * The node's taints changed; {@code owners}' kube-scheduler pods there that did not tolerate a NoExecute
   * taint were evicted ({@code podsEvicted} of them). Returns the pods lost.
   */
  int nodeTaintsChanged(Node n, List<Object> owners, int podsEvicted);

  /** The node's labels changed (never a topology level's: the scenario refuses those). */
  void nodeLabelsChanged(Node n);

  /** A node joined (timeline or autoscaler). */
  void nodeAdded(Node n);

  /** A node left; its pods failed as on a node failure. Returns the pods lost. */
  int nodeRemoved(Node n, List<Object> owners, int podsOnNode);

  /** The last kube-scheduler pod left the node (autoscalers care). */
  default void nodeEmptied(Node n) {}

  // ------------------------------------------------------------------ timeline

  /** Applies an engine-level timeline action (quota, preemption, queues); false when the engine has none such. */
  boolean apply(ClusterAction action);

  /** The engine's controller restarts, down for {@code downMs}; false when the engine models no such thing. */
  default boolean restartController(long downMs) {
    return false;
  }

  /** After every timeline action, whoever applied it. */
  void timelineActionApplied();

  // ------------------------------------------------------------------ serving Deployments

  /** Submits a serving PodGroup's workload (kept out of batch statistics); null when its queue is unknown. */
  Object submitServing(WorkloadSpec spec);

  /** The Deployment scaled to zero: its workload goes away at once. */
  void deleteServing(Object workload);

  /** Whether the serving workload ever ran. */
  boolean servingRan(Object workload);

  /** Whether the serving workload was deleted (an invariant: a scaled-up Deployment's one must not be). */
  boolean servingDeleted(Object workload);

  // ------------------------------------------------------------------ sampling, invariants, result

  /** Per-queue time-series columns (pending, holding, usage), sampled before the world's cluster columns. */
  SampleSource queueSamples();

  /** Topology columns, sampled after the world's cluster columns (empty when there are none). */
  SampleSource topologySamples();

  /**
   * The workloads that wait for capacity now, as "N workloads pending (first: id: why)", or null when none
   * does. The world asks only when no event is left that could change anything, so they wait for good.
   */
  default String stuck() {
    return null;
  }

  /** The engine's invariant violations now (checked runs only). */
  List<String> checkInvariants();

  /**
   * What the engine contributes to the run's result at {@code end}; it first sends the records of the workloads
   * still live to {@link WorldContext#workloads()}, in submission order (ended ones went when they ended).
   */
  EngineReport report(long end);

  /**
   * Every series of the engine's metric model now, in Prometheus text form (Kueue's pkg/metrics); empty for an
   * engine without one (Volcano).
   */
  default SortedMap<String, Double> metricSnapshot() {
    return MetricSamples.EMPTY.end();
  }

  /** The engine's metric families as a scrape reads them now (gauges set); empty without a metric model. */
  default List<MetricFamily<?>> metricFamilies() {
    return List.of();
  }

  /**
   * The engine's part of a run's result.
   *
   * @param pending per reported queue: waiting at the end
   * @param reserved per reported queue: holding quota (or bound) but not running at the end
   * @param running per reported queue: running at the end
   * @param tas null without TAS
   * @param provisioning null without admission checks and autoscaling
   */
  record EngineReport(long[] pending, long[] reserved, long[] running, List<QueueUsageStat> queueUsage,
      TasStats tas, ProvisioningStats provisioning, batchsim.core.metrics.WaitingStats waiting) {}
}
