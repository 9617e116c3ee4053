package batchsim.scenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.core.metrics.RunResult;
import batchsim.core.metrics.WorkloadRecord;
import batchsim.core.sim.Simulation;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Listed workloads that start the run holding quota ({@code quotaReserved}, an imported cluster's live state)
 * or created before it (a negative {@code at}).
 */
class LiveStateScenarioTest {
  private static final long MIN = 60_000;

  /** Two 8-GPU nodes, a ClusterQueue of 16 GPUs; {@code scoring} packs or spreads pods. */
  private static String scenario(String scoring, String extra, String list) {
    return String.join("\n",
        "name: live",
        "seed: 3",
        "cluster:",
        "  nodePools:",
        "    - {name: gpu, count: 2, allocatable: {cpu: 64, memory: 64Gi, nvidia.com/gpu: 8}}",
        "  scheduling: {scoring: " + scoring + ", podStartup: 1m}",
        "kueue: {inadmissibleRequeueDelay: 0s}",
        "resourceFlavors:",
        "  - {name: a100}",
        "clusterQueues:",
        "  - name: ml",
        "    queueingStrategy: StrictFIFO",
        extra,
        "    resourceGroups:",
        "      - coveredResources: [nvidia.com/gpu]",
        "        flavors: [{name: a100, resources: [{name: nvidia.com/gpu, nominalQuota: 16}]}]",
        "localQueues:",
        "  - {name: ml, clusterQueue: ml}",
        "workloads:",
        "  list:",
        list,
        "");
  }

  private static Map<String, WorkloadRecord> run(String yaml) throws Exception {
    RunResult r = new Simulation(ScenarioLoader.parse("live.yaml", yaml).spec()).checked(true).run();
    return r.workloads().stream().collect(Collectors.toMap(WorkloadRecord::id, Function.identity()));
  }

  @Test
  void aRestoredWorkloadHoldsItsQuotaFromTheStartForWhatIsLeftOfItsRun() throws Exception {
    Map<String, WorkloadRecord> r = run(scenario("LeastAllocated", "", String.join("\n",
        "    - {name: big, queue: ml, at: -3h, runtime: 2h, podSets: [{count: 2, requests: {nvidia.com/gpu: 8}}],",
        "       quotaReserved: {at: -2h, startedAt: -90m, flavors: {main: a100}}}",
        "    - {name: next, queue: ml, at: -10m, runtime: 10m, podSets: [{count: 1, requests: {nvidia.com/gpu: 8}}]}")));
    WorkloadRecord big = r.get("big");
    assertEquals(-180 * MIN, big.createdMs());
    assertEquals(-120 * MIN, big.quotaReservedMs());
    assertEquals(-90 * MIN, big.startedMs(), "its pods run since before the start: no start-up again");
    assertEquals(30 * MIN, big.finishedMs(), "2h of runtime, 90m of it before the start");
    WorkloadRecord next = r.get("next");
    assertEquals(-10 * MIN, next.createdMs());
    assertEquals(30 * MIN, next.quotaReservedMs(), "the quota is held until the restored workload finishes");
    assertEquals(31 * MIN, next.startedMs());
  }

  /** A reservation restored at the start is history: not an admission of the run, in its counts or in Kueue's metrics. */
  @Test
  void aRestoredReservationIsNotAnAdmissionOfTheRun() throws Exception {
    RunResult r = new Simulation(ScenarioLoader.parse("live.yaml", scenario("LeastAllocated", "", String.join("\n",
        "    - {name: big, queue: ml, at: -3h, runtime: 2h, podSets: [{count: 2, requests: {nvidia.com/gpu: 8}}],",
        "       quotaReserved: {at: -2h, startedAt: -90m, flavors: {main: a100}}}",
        "    - {name: next, queue: ml, at: -10m, runtime: 10m, podSets: [{count: 1, requests: {nvidia.com/gpu: 8}}]}")))
        .spec()).checked(true).run();
    assertEquals(1, r.overall().admitted(), "only next was admitted in the run");
    assertEquals(2, r.overall().finished(), "both finished in it");
    assertEquals(1.0, r.metricSamples().end().entrySet().stream()
        .filter(e -> e.getKey().startsWith("kueue_admitted_workloads_total")).mapToDouble(Map.Entry::getValue).sum());
  }

  @Test
  void runningPodsStayOnTheirSnapshotNodes() throws Exception {
    // Two 4-GPU pods restored one on each node leave no node with 8 GPUs free, though quota has 8 left.
    String restored = String.join("\n",
        "    - {name: spread, queue: ml, at: -1h, runtime: 1h, podSets: [{count: 2, requests: {nvidia.com/gpu: 4}}],",
        "       quotaReserved: {at: -1h, startedAt: -1h, flavors: {main: a100}, nodes: {main: [gpu-0, gpu-1]}}}",
        "    - {name: whole, queue: ml, at: 0s, runtime: 10m, podSets: [{count: 1, requests: {nvidia.com/gpu: 8}}]}");
    Map<String, WorkloadRecord> pinned = run(scenario("MostAllocated", "", restored));
    assertEquals(0, pinned.get("whole").quotaReservedMs(), "quota is free");
    assertEquals(0, pinned.get("spread").finishedMs(), "1h of 1h already ran");
    assertEquals(1 * MIN, pinned.get("whole").startedMs(), "its pod binds once a node is empty");
    // Restored with a pod left to the kube-scheduler, which packs it onto gpu-0 beside its sibling.
    Map<String, WorkloadRecord> packed = run(scenario("MostAllocated", "", restored
        .replace("startedAt: -1h, ", "").replace("runtime: 1h", "runtime: 2h").replace(", nodes: {main: [gpu-0, gpu-1]}",
            ", nodes: {main: [gpu-0]}")));
    assertEquals(1 * MIN, packed.get("whole").startedMs(), "gpu-1 stays free for it");
    assertEquals(121 * MIN, packed.get("spread").finishedMs(), "not started at the snapshot: its pods start, then run 2h");
  }

  @Test
  void pendingWorkloadsKeepTheirCreationOrder() throws Exception {
    Map<String, WorkloadRecord> r = run(scenario("LeastAllocated", "", String.join("\n",
        "    - {name: younger, queue: ml, at: -1h, runtime: 10m, podSets: [{count: 2, requests: {nvidia.com/gpu: 8}}]}",
        "    - {name: older, queue: ml, at: -2h, runtime: 10m, podSets: [{count: 2, requests: {nvidia.com/gpu: 8}}]}")));
    assertEquals(0, r.get("older").quotaReservedMs());
    assertEquals(11 * MIN, r.get("younger").quotaReservedMs());
  }

  @Test
  void aReservationWaitingForItsChecksRunsThemFromTheStart() throws Exception {
    String yaml = scenario("LeastAllocated", "    admissionChecks: [prov]", String.join("\n",
        "    - {name: held, queue: ml, at: -5m, runtime: 10m, podSets: [{count: 1, requests: {nvidia.com/gpu: 8}}],",
        "       quotaReserved: {at: -4m, admitted: false, flavors: {main: a100}}}"))
        + "admissionChecks:\n  - {name: prov}\nevents:\n  - {at: 5m, setAdmissionCheck: {workload: held, check: prov, state: Ready}}\n";
    WorkloadRecord held = run(yaml).get("held");
    assertEquals(-4 * MIN, held.quotaReservedMs());
    assertEquals(5 * MIN, held.admittedMs());
    assertEquals(16 * MIN, held.finishedMs());
  }

  @Test
  void anAdmittedReservationInAQueueWithChecksRunsOnAtOnce() throws Exception {
    String yaml = scenario("LeastAllocated", "    admissionChecks: [prov]", String.join("\n",
        "    - {name: admitted, queue: ml, at: -1h, runtime: 90m, podSets: [{count: 1, requests: {nvidia.com/gpu: 8}}],",
        "       quotaReserved: {at: -1h, startedAt: -1h, flavors: {main: a100}}}"))
        + "admissionChecks:\n  - {name: prov}\n";
    WorkloadRecord w = run(yaml).get("admitted");
    assertEquals(-60 * MIN, w.admittedMs(), "Admitted before the run: every check Ready");
    assertEquals(-60 * MIN, w.startedMs());
    assertEquals(30 * MIN, w.finishedMs());
  }

  @Test
  void anEvictedWorkloadWaitsOutItsBackoffAndKeepsKueuesQueueOrder() throws Exception {
    Map<String, WorkloadRecord> r = run(scenario("LeastAllocated", "", String.join("\n",
        "    - {name: timedOut, queue: ml, at: -2h, runtime: 10m, podSets: [{count: 2, requests: {nvidia.com/gpu: 8}}],",
        "       evicted: {at: -5m, reason: PodsReadyTimeout, requeueCount: 1, requeueAt: 3m}}",
        "    - {name: preempted, queue: ml, at: -3h, runtime: 10m, podSets: [{count: 2, requests: {nvidia.com/gpu: 8}}],",
        "       evicted: {at: -1m, reason: Preempted, preemptionReason: InClusterQueue}}",
        "    - {name: fresh, queue: ml, at: -1h, runtime: 10m, podSets: [{count: 2, requests: {nvidia.com/gpu: 8}}]}")));
    assertEquals(0, r.get("preempted").quotaReservedMs(), "a preempted workload keeps its creation time: the oldest");
    assertEquals(11 * MIN, r.get("fresh").quotaReservedMs());
    // PodsReadyTimeout orders by the eviction (Kueue GetQueueOrderTimestamp) and waits until requeueAt
    assertEquals(22 * MIN, r.get("timedOut").quotaReservedMs());
    Map<String, WorkloadRecord> early = run(scenario("LeastAllocated", "", String.join("\n",
        "    - {name: timedOut, queue: ml, at: -2h, runtime: 10m, podSets: [{count: 1, requests: {nvidia.com/gpu: 8}}],",
        "       evicted: {at: -5m, reason: PodsReadyTimeout, requeueCount: 1, requeueAt: 3m}}")));
    assertEquals(3 * MIN, early.get("timedOut").quotaReservedMs(), "held until requeueAt, though quota is free");
  }

  /** [TAS] Restored pods count as usage on their nodes: a rack-sized job takes the other rack at once. */
  @Test
  void restoredPodsOnATopologyFlavorAreUsageOnTheirNodes() throws Exception {
    String yaml = String.join("\n",
        "name: tas-live",
        "topologies:",
        "  - {name: racks, levels: [example.com/rack, kubernetes.io/hostname]}",
        "cluster:",
        "  nodePools:",
        "    - {name: gpu, topology: {name: racks, shape: [2, 4]}, labels: {pool: gpu}, allocatable: {cpu: 96, nvidia.com/gpu: 8}}",
        "resourceFlavors:",
        "  - {name: gpu, nodeLabels: {pool: gpu}, topologyName: racks}",
        "clusterQueues:",
        "  - name: training",
        "    resourceGroups:",
        "      - coveredResources: [nvidia.com/gpu]",
        "        flavors: [{name: gpu, resources: [{name: nvidia.com/gpu, nominalQuota: 64}]}]",
        "localQueues:",
        "  - {name: training, clusterQueue: training}",
        "workloads:",
        "  list:",
        "    - {name: running, queue: training, at: -1h, runtime: 2h,",
        "       podSets: [{count: 3, requests: {nvidia.com/gpu: 8}, topology: {required: example.com/rack}}],",
        "       quotaReserved: {at: -1h, startedAt: -1h, flavors: {main: gpu}, nodes: {main: [gpu-r0-0, gpu-r0-1, gpu-r0-2]}}}",
        "    - {name: rack, queue: training, at: 0s, runtime: 1h,",
        "       podSets: [{count: 4, requests: {nvidia.com/gpu: 8}, topology: {required: example.com/rack}}]}",
        "");
    Map<String, WorkloadRecord> r = run(yaml);
    assertEquals(0, r.get("rack").startedMs(), "rack gpu-r1 is free; gpu-r0 has only one node left");
    assertEquals(60 * MIN, r.get("running").finishedMs());
  }

  @Test
  void aDrawnRuntimeIsConditionedOnTheTimeAlreadyRunAndFollowsTheSeed() throws Exception {
    String list = String.join("\n",
        "    - {name: long, queue: ml, at: -10h, runtime: {lognormal: {median: 1h, p99: 4h}},",
        "       podSets: [{count: 1, requests: {nvidia.com/gpu: 8}}],",
        "       quotaReserved: {at: -10h, startedAt: -10h, flavors: {main: a100}}}");
    long a = run(scenario("LeastAllocated", "", list)).get("long").finishedMs();
    assertTrue(a >= 0, "a job that ran 10h of a 1h-median runtime still ends at or after the start: " + a);
    assertEquals(a, run(scenario("LeastAllocated", "", list)).get("long").finishedMs());
    assertNotEquals(a, run(scenario("LeastAllocated", "", list).replace("seed: 3", "seed: 4")).get("long").finishedMs());
  }

  @Test
  void restoredStateThatCannotBeTrueIsRefusedWhereItIsWritten() {
    String ok = "    - {name: w, queue: ml, at: -1h, runtime: 1h, podSets: [{count: 2, requests: {nvidia.com/gpu: 4}}],\n"
        + "       quotaReserved: {at: -1h, startedAt: -30m, flavors: {main: a100}, nodes: {main: [gpu-0]}}}";
    Map<String, String> cases = Map.of(
        "at: -1h, startedAt", "live.yaml:22:28: workloads.list[0].quotaReserved.at: a time in the snapshot lies at or before",
        "flavors: {main: a100}", "ClusterQueue 'ml' has no flavor 'h100' for nvidia.com/gpu (it has a100)",
        "nodes: {main: [gpu-0]}", "node gpu-7 never exists: pool gpu has 2 nodes (gpu-0 .. gpu-1) at the start",
        "{main: [gpu-0]}}", "no pod set named 'workers' (pod sets: main)",
        "startedAt: -30m", "startedAt (-2h) is before its quota was reserved (at: -1h)",
        "at: -1h, runtime", "quotaReserved.at (-1h) is before the workload was created (at: -30m)");
    Map<String, String> edits = Map.of(
        "at: -1h, startedAt", "at: 5m, startedAt",
        "flavors: {main: a100}", "flavors: {main: h100}",
        "nodes: {main: [gpu-0]}", "nodes: {main: [gpu-7]}",
        "{main: [gpu-0]}}", "{workers: [gpu-0]}}",
        "startedAt: -30m", "startedAt: -2h",
        "at: -1h, runtime", "at: -30m, runtime");
    for (var e : edits.entrySet()) {
      String yaml = scenario("LeastAllocated", "", ok.replace(e.getKey(), e.getValue()));
      ScenarioException x = assertThrows(ScenarioException.class, () -> ScenarioLoader.parse("live.yaml", yaml),
          e.getValue());
      assertTrue(x.getMessage().contains(cases.get(e.getKey())), e.getValue() + " → " + x.getMessage());
    }
    String volcano = scenario("LeastAllocated", "", ok).replace("name: live", "name: live\nscheduler: volcano")
        + "volcano:\n  queues:\n    - {name: ml}\n";
    ScenarioException x = assertThrows(ScenarioException.class, () -> ScenarioLoader.parse("live.yaml", volcano));
    assertTrue(x.getMessage().contains("quotaReserved is Kueue's live state"), x.getMessage());
  }
}
