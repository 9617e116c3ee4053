package batchsim.scenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.core.metrics.RunResult;
import batchsim.core.metrics.WorkloadRecord;
import batchsim.core.sim.Simulation;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * kueue.waitForPodsReady from YAML, run over many cycles: blockAdmission and requeuingStrategy.timestamp
 * change what Kueue does (they used to be accepted and ignored), backoffLimitCount deactivates.
 */
class WaitForPodsReadyScenarioTest {
  private static final long MIN = 60_000;

  /**
   * Two 8-GPU nodes and a ClusterQueue of {@code quota} GPUs. "stuck" (one 16-GPU pod, created at 0) takes
   * quota but its pod fits no node, so it is never PodsReady; {@code extra} lists more workloads.
   */
  private static Map<String, WorkloadRecord> run(String strategy, int quota, String waitForPodsReady, String extra)
      throws Exception {
    String yaml = String.join("\n",
        "name: wfpr",
        "horizon: 3h",
        "cluster:",
        "  nodePools:",
        "    - {name: gpu, count: 2, allocatable: {cpu: 64, memory: 64Gi, nvidia.com/gpu: 8}}",
        "  scheduling: {podStartup: 1m}",
        "kueue:",
        "  terminationGracePeriod: 0s",   // the timings below count the pods' start-up, not their termination
        "  waitForPodsReady: " + waitForPodsReady,
        "resourceFlavors:",
        "  - {name: a100}",
        "clusterQueues:",
        "  - name: ml",
        "    queueingStrategy: " + strategy,
        "    resourceGroups:",
        "      - coveredResources: [nvidia.com/gpu]",
        "        flavors: [{name: a100, resources: [{name: nvidia.com/gpu, nominalQuota: " + quota + "}]}]",
        "localQueues:",
        "  - {name: ml, clusterQueue: ml}",
        "workloads:",
        extra,
        "  list:",
        "    - {name: stuck, queue: ml, at: 0s, runtime: 10m, podSets: [{count: 1, requests: {nvidia.com/gpu: 16}}]}",
        "    - {name: next, queue: ml, at: 1m, runtime: 10m, podSets: [{count: 1, requests: {nvidia.com/gpu: 8}}]}",
        "");
    RunResult r = new Simulation(ScenarioLoader.parse("wfpr.yaml", yaml).spec()).checked(true).run();
    return r.workloads().stream().collect(Collectors.toMap(WorkloadRecord::id, Function.identity()));
  }

  private static Map<String, WorkloadRecord> strictFifo(String timestamp) throws Exception {
    // Quota 16: "next" (1 m) waits in the StrictFIFO heap until "stuck" times out at 5 m.
    return run("StrictFIFO", 16, "{timeout: 4m, requeuingStrategy: {timestamp: " + timestamp
        + ", backoffBaseSeconds: 0, backoffLimitCount: 1}}", "");
  }

  @Test
  void requeuingTimestamp_fromYaml_decidesWhoGoesFirstAfterTheTimeout() throws Exception {
    // Eviction: the requeued job queues by its eviction time, behind "next" (created at 1 m).
    Map<String, WorkloadRecord> eviction = strictFifo("Eviction");
    assertTrue(eviction.get("next").quotaReservedMs() < eviction.get("stuck").quotaReservedMs(), eviction.toString());
    // Creation: it keeps its place (0 s) and takes the quota again before "next".
    Map<String, WorkloadRecord> creation = strictFifo("Creation");
    assertTrue(creation.get("stuck").quotaReservedMs() > 0, "readmitted");
    assertTrue(creation.get("stuck").quotaReservedMs() < creation.get("next").quotaReservedMs(), creation.toString());
    for (Map<String, WorkloadRecord> w : List.of(eviction, creation)) {
      // backoffLimitCount 1: the second timeout deactivates it; it stays in the results.
      assertEquals("DEACTIVATED", w.get("stuck").state());
      assertEquals(2, w.get("stuck").evictions());
      assertTrue(w.get("stuck").lastMessage().contains("DeactivatedDueToRequeuingLimitExceeded"),
          w.get("stuck").lastMessage());
      assertEquals("FINISHED", w.get("next").state());
    }
  }

  @Test
  void blockAdmission_fromYaml_holdsEveryAdmissionWhileAPodIsNotReady() throws Exception {
    String cfg = "{timeout: 20m, blockAdmission: %s, requeuingStrategy: {backoffBaseSeconds: 0, backoffLimitCount: 0}}";
    String smalls = String.join("\n",
        "  classes:",
        "    - {name: small, queue: ml, arrival: {every: 10m}, count: 6, runtime: 5m,",
        "       podSets: [{count: 1, requests: {nvidia.com/gpu: 4}}]}");
    Map<String, WorkloadRecord> free = run("BestEffortFIFO", 64, String.format(cfg, "false"), smalls);
    Map<String, WorkloadRecord> blocked = run("BestEffortFIFO", 64, String.format(cfg, "true"), smalls);
    // Without blocking every job is admitted on arrival. With it nothing is admitted while "stuck" is not
    // ready: "next" and small-1 (10 m) wait until "stuck" is deactivated at its 20 m timeout, then go one at a
    // time, each after the previous one's pods are ready (1 m start-up).
    assertEquals(MIN, free.get("next").quotaReservedMs());
    assertEquals(10 * MIN, free.get("small-1").quotaReservedMs());
    assertEquals(20 * MIN, blocked.get("next").quotaReservedMs());
    assertEquals(21 * MIN, blocked.get("small-1").quotaReservedMs());
    assertEquals(30 * MIN, blocked.get("small-3").quotaReservedMs(), "nothing blocks once all are ready");
    assertEquals("DEACTIVATED", blocked.get("stuck").state());
    for (String id : List.of("next", "small-1", "small-2", "small-3", "small-4", "small-5", "small-6")) {
      assertEquals("FINISHED", blocked.get(id).state(), id);
    }
  }

  @Test
  void podsReadyTimeout_namesTheWorkloadInItsLocalQueuesNamespace() throws Exception {
    String yaml = String.join("\n",
        "name: ns",
        "horizon: 1h",
        "cluster:",
        "  nodePools:",
        "    - {name: gpu, count: 1, allocatable: {cpu: 64, memory: 64Gi, nvidia.com/gpu: 8}}",
        "kueue: {waitForPodsReady: {timeout: 4m, requeuingStrategy: {backoffLimitCount: 1}}}",
        "resourceFlavors: [{name: a100}]",
        "clusterQueues:",
        "  - name: ml",
        "    resourceGroups:",
        "      - coveredResources: [nvidia.com/gpu]",
        "        flavors: [{name: a100, resources: [{name: nvidia.com/gpu, nominalQuota: 16}]}]",
        "localQueues: [{name: ml, namespace: team, clusterQueue: ml}]",
        "workloads:",
        "  list:",
        "    - {name: stuck, queue: team/ml, at: 0s, runtime: 10m, podSets: [{count: 1, requests: {nvidia.com/gpu: 16}}]}",
        "");
    RunResult r = new Simulation(ScenarioLoader.parse("ns.yaml", yaml).spec()).explain(true).run();
    // Kueue formats the reconcile request, namespace/name; a listed workload lives in its LocalQueue's namespace.
    assertTrue(r.decisions().get("stuck").stream().anyMatch(d -> d.condition().equals("Evicted")
        && "Exceeded the PodsReady timeout team/stuck".equals(d.message())), r.decisions().get("stuck").toString());
  }
}
