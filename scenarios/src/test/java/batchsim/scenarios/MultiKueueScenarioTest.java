package batchsim.scenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.core.metrics.ClusterResult;
import batchsim.core.metrics.RunResult;
import batchsim.core.metrics.WorkloadRecord;
import batchsim.core.sim.Runs;
import batchsim.core.volcano.VolcanoSetup;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** MultiKueue from YAML: dispatch to workers, first admission wins, results flow back, lost workers, refusals. */
class MultiKueueScenarioTest {
  private static final long MIN = 60_000;
  private static final long SEC = 1000;

  /** A worker with {@code gpus} GPUs in one node and as much quota. */
  private static String worker(String name, int gpus, String extra) {
    return String.join("\n",
        "    - name: " + name,
        extra,
        "      cluster: {nodePools: [{name: gpu, count: " + (gpus == 0 ? 0 : 1) + ", allocatable: {nvidia.com/gpu: "
            + Math.max(gpus, 1) + "}}]}",
        "      resourceFlavors: [{name: default}]",
        "      clusterQueues:",
        "        - {name: cq, resourceGroups: [{coveredResources: [nvidia.com/gpu], flavors: [{name: default,"
            + " resources: [{name: nvidia.com/gpu, nominalQuota: " + gpus + "}]}]}]}",
        "      localQueues: [{namespace: ns, name: lq, clusterQueue: cq}]");
  }

  private static String scenario(String multiKueue, String workers, String workloads, String events) {
    return String.join("\n",
        "name: mk",
        "cluster: {nodePools: []}",
        "resourceFlavors: [{name: default}]",
        "admissionChecks: [{name: mk, controllerName: kueue.x-k8s.io/multikueue}]",
        "clusterQueues:",
        "  - {name: cq, admissionChecks: [mk], resourceGroups: [{coveredResources: [nvidia.com/gpu], flavors:"
            + " [{name: default, resources: [{name: nvidia.com/gpu, nominalQuota: 100}]}]}]}",
        "localQueues: [{namespace: ns, name: lq, clusterQueue: cq}]",
        "multiKueue:",
        multiKueue,
        "  workers:",
        workers,
        "workloads:",
        "  list:",
        workloads,
        events,
        "");
  }

  private static String job(String name, String at, String runtime, int gpus) {
    return "    - {name: " + name + ", queue: ns/lq, at: " + at + ", runtime: " + runtime
        + ", podSets: [{count: 1, requests: {nvidia.com/gpu: " + gpus + "}}]}";
  }

  private static RunResult run(String yaml) throws Exception {
    return Runs.run(ScenarioLoader.parse("mk.yaml", yaml).spec(), null, true);
  }

  private static Map<String, WorkloadRecord> byId(RunResult r) {
    return r.workloads().stream().collect(Collectors.toMap(WorkloadRecord::id, Function.identity()));
  }

  private static Map<String, ClusterResult> clusters(RunResult r) {
    return r.clusters().stream().collect(Collectors.toMap(ClusterResult::name, Function.identity()));
  }

  @Test
  void dispatchedToTheWorkerWithRoom_andTheResultFlowsBack() throws Exception {
    RunResult r = run(scenario("  remoteLatency: 2s", worker("full", 0, "") + "\n" + worker("roomy", 8, ""),
        job("a", "0s", "1h", 4), ""));
    WorkloadRecord a = byId(r).get("a");
    assertEquals(0, a.quotaReservedMs(), "the manager reserves its own quota at once");
    assertEquals(2 * SEC, a.admittedMs(), "Admitted when the copy created after 2s is admitted on a worker");
    assertEquals(2 * SEC, a.startedMs());
    assertEquals(2 * SEC + 60 * MIN, a.finishedMs(), "the worker's finish is the manager's");
    Map<String, ClusterResult> c = clusters(r);
    assertEquals(1, c.get("roomy").won());
    assertEquals(1, c.get("roomy").finished());
    assertEquals(0, c.get("full").won());
    assertEquals(1, c.get("full").copiesCreated());
    assertEquals(1, c.get("full").copiesRemoved(), "the copy on the other worker is removed");
    assertEquals(1, c.get("roomy").result().overall().finished());
  }

  @Test
  void firstToAdmitWins_othersAreRemoved() throws Exception {
    RunResult r = run(scenario("  remoteLatency: 1s", worker("w1", 8, "") + "\n" + worker("w2", 8, ""),
        job("a", "0s", "1h", 8) + "\n" + job("b", "0s", "1h", 8), ""));
    Map<String, ClusterResult> c = clusters(r);
    assertEquals(1, c.get("w1").won());
    assertEquals(1, c.get("w2").won(), "the second job goes where the first did not");
    // At 1s both workers admit a's copy (each has room for it); w1's is first, so w2's is removed at 2s, and
    // w2's Kueue retries b's copy after its 1s inadmissible requeue batch.
    assertEquals(3 * SEC, byId(r).get("b").startedMs());
    assertEquals(0, c.get("w1").result().overall().evicted() + c.get("w2").result().overall().evicted());
  }

  @Test
  void workerLostPastTheTimeout_requeuesOnTheManager() throws Exception {
    String events = "events:\n  - {at: 10m, loseWorker: {worker: w1}}\n  - {at: 2h, reconnectWorker: {worker: w1}}";
    RunResult r = run(scenario("  remoteLatency: 1s\n  workerLostTimeout: 15m",
        worker("w1", 8, "") + "\n" + worker("w2", 4, ""), job("a", "0s", "1h", 8), events));
    // a runs on w1 (w2 is too small); w1 is lost at 10m; at 25m the manager requeues it. It fits nowhere
    // else, and w1 is unreachable until 2h; its copy there finished at 1h: back in the group at 2h, its
    // finish is the manager's (Kueue: a copy has the manager workload's name).
    WorkloadRecord a = byId(r).get("a");
    assertEquals(1, a.evictions());
    assertEquals(120 * MIN, a.finishedMs(), "finished on w1, read once w1 is back");
    assertEquals(1, clusters(r).get("w1").copiesCreated(), "no new copy on w1");
    assertEquals(1, clusters(r).get("w1").requeuedLost());
    assertEquals(110 * MIN, clusters(r).get("w1").disconnectedMs());
  }

  @Test
  void workerBackWhileRedispatching_itsAdmittedCopyWinsAgain() throws Exception {
    String events = "events:\n  - {at: 2m, loseWorker: {worker: w2}}\n  - {at: 3m, reconnectWorker: {worker: w2}}";
    RunResult r = run(scenario("  remoteLatency: 1s\n  workerLostTimeout: 3s",
        worker("w1", 0, "") + "\n" + worker("w2", 8, ""), job("a", "0s", "1h", 8), events));
    // a runs on w2 from 1s; w2 is lost at 2m, the manager requeues a at 2m3s and reserves again; at 3m
    // w2's copy (same name, still Admitted) rejoins the group and wins: the run there goes on.
    WorkloadRecord a = byId(r).get("a");
    assertEquals(1, a.evictions());
    assertEquals(SEC + 60 * MIN, a.finishedMs(), "the copy admitted at 1s finishes on w2 after its 1h");
    Map<String, ClusterResult> c = clusters(r);
    assertEquals(1, c.get("w2").copiesCreated(), "no second copy on w2");
    assertEquals(2, c.get("w2").won(), "won before the loss and again when back");
    assertEquals(0, c.get("w2").result().overall().evicted());
  }

  @Test
  void workerLostBriefly_keepsTheWorkloadAndReadsItsFinishWhenBack() throws Exception {
    String events = "events:\n  - {at: 30m, loseWorker: {worker: w1}}\n  - {at: 65m, reconnectWorker: {worker: w1}}";
    RunResult r = run(scenario("  workerLostTimeout: 1h", worker("w1", 8, ""), job("a", "0s", "1h", 8), events));
    WorkloadRecord a = byId(r).get("a");
    assertEquals(0, a.evictions());
    assertEquals(65 * MIN, a.finishedMs(), "finished on w1 at 1h, seen by the manager when w1 is back");
  }

  @Test
  void incrementalDispatcher_addsWorkersEveryFiveMinutes() throws Exception {
    String workers = String.join("\n", worker("a", 0, ""), worker("b", 0, ""), worker("c", 0, ""),
        worker("d", 8, ""));
    RunResult r = run(scenario("  dispatcher: Incremental\n  remoteLatency: 1s", workers,
        job("x", "0s", "1h", 8), ""));
    assertEquals(5 * MIN + SEC, byId(r).get("x").startedMs(), "d is nominated in the second round, at 5m");
    assertEquals(1, clusters(r).get("d").copiesCreated());
    assertEquals(1, clusters(r).get("a").copiesCreated());
  }

  @Test
  void incrementalRounds_runWhileTheOtherChecksArePending() throws Exception {
    String workers = String.join("\n", worker("a", 0, ""), worker("b", 0, ""), worker("c", 0, ""),
        worker("d", 8, ""));
    String yaml = scenario("  dispatcher: Incremental\n  stepSize: 1\n  remoteLatency: 1s", workers,
        job("x", "0s", "1h", 8),
        "events:\n  - {at: 12m, setAdmissionCheck: {workload: x, check: gate, state: Ready}}")
        .replace("admissionChecks: [{name: mk,", "admissionChecks: [{name: gate}, {name: mk,")
        .replace("admissionChecks: [mk]", "admissionChecks: [mk, gate]");
    RunResult r = Runs.run(ScenarioLoader.parse("mk.yaml", yaml).spec(), null, true);
    // Rounds at 0, 5m, 10m nominate a, b, c while gate is Pending; the copies wait for gate (12m); d's
    // round is at 15m (not 12m + 15m).
    assertEquals(15 * MIN + SEC, byId(r).get("x").startedMs());
    assertEquals(1, clusters(r).get("c").copiesCreated(), "c's copy is created once gate is Ready");
  }

  @Test
  void priorityChangeOnTheManager_reachesTheCopies() throws Exception {
    String events = "events:\n  - {at: 10m, setWorkloadPriority: {workload: b, priority: 100}}";
    String yaml = scenario("  remoteLatency: 1s", worker("w1", 8, ""),
        job("a", "0s", "2h", 8) + "\n" + job("b", "1m", "1h", 8), events)
        .replace("{name: cq, resourceGroups", "{name: cq, preemption: {withinClusterQueue: LowerPriority}, resourceGroups");
    RunResult r = Runs.run(ScenarioLoader.parse("mk.yaml", yaml).spec(), null, true, true);
    // b's copy waits on w1 behind a's; at 10m1s the update reaches it and w1's Kueue preempts a's copy for it.
    assertEquals(1, byId(r).get("a").evictions(), "a's copy preempted on w1: Retry on the manager");
    // Kueue's Retry message for an eviction on the worker names the state it leaves
    assertEquals("Evicted due to AdmissionCheck in Retry state: \"mk\" (Workload evicted on worker cluster: \"w1\", "
        + "resetting for re-admission. Previously: \"Ready\")", r.decisions().get("a").stream()
        .filter(d -> d.condition().equals("Evicted") && d.status()).findFirst().orElseThrow().message());
    assertEquals(1, clusters(r).get("w1").result().overall().preempted());
    assertTrue(byId(r).get("b").startedMs() < 15 * MIN, "b runs on w1 right after the update, not after a's 2h");
  }

  @Test
  void stepSizeOfTheIncrementalDispatcher() throws Exception {
    String workers = String.join("\n", worker("a", 0, ""), worker("b", 8, ""));
    RunResult r = run(scenario("  dispatcher: Incremental\n  stepSize: 1\n  remoteLatency: 1s", workers,
        job("x", "0s", "1h", 8), ""));
    assertEquals(5 * MIN + SEC, byId(r).get("x").startedMs());
  }

  @Test
  void countAddsWorkers_withOneSet(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("mk.yaml");
    Files.writeString(f, scenario("  remoteLatency: 1s", worker("w", 8, "      count: 1"),
        job("a", "0s", "1h", 8) + "\n" + job("b", "0s", "1h", 8), ""));
    RunResult one = Runs.run(ScenarioLoader.load(f, List.of()).spec(), null, true);
    RunResult two = Runs.run(ScenarioLoader.load(f, List.of("multiKueue.workers.w.count=2")).spec(), null, true);
    assertEquals(List.of("w"), one.clusters().stream().map(ClusterResult::name).toList());
    assertEquals(List.of("w", "w-2"), two.clusters().stream().map(ClusterResult::name).toList());
    // one worker: b's copy waits for a to finish there (1s after dispatch, 1h) and Kueue's 1s requeue batch
    assertEquals(60 * MIN + 2 * SEC, byId(one).get("b").startedMs(), "one worker: b waits for a");
    assertEquals(3 * SEC, byId(two).get("b").startedMs(), "two workers: b runs beside a (as in firstToAdmitWins)");
  }

  @Test
  void sameScenarioSameResult() throws Exception {
    String yaml = scenario("  remoteLatency: 1s", worker("w1", 8, "") + "\n" + worker("w2", 8, ""),
        job("a", "0s", "1h", 4) + "\n" + job("b", "1m", "2h", 8) + "\n" + job("c", "2m", "30m", 8), "");
    assertEquals(run(yaml).workloads(), run(yaml).workloads());
  }

  private static List<String> problems(String yaml) {
    ScenarioException e = assertThrows(ScenarioException.class, () -> ScenarioLoader.parse("mk.yaml", yaml).spec());
    return e.problems().stream().map(Object::toString).toList();
  }

  @Test
  void badInput_isLocated() {
    String noLq = scenario("  remoteLatency: 1s", worker("w1", 8, "").replace(
        "localQueues: [{namespace: ns, name: lq, clusterQueue: cq}]", "localQueues: [{namespace: ns, name: other,"
        + " clusterQueue: cq}]"), job("a", "0s", "1h", 8), "");
    List<String> p = problems(noLq);
    assertTrue(p.stream().anyMatch(s -> s.startsWith("mk.yaml:11:") && s.contains("worker w1 has no LocalQueue ns/lq")),
        p.toString());
    p = problems(scenario("  dispatcher: Sometimes", worker("w1", 8, ""), job("a", "0s", "1h", 8), ""));
    assertTrue(p.stream().anyMatch(s -> s.contains("multiKueue.dispatcher") && s.contains("AllAtOnce or Incremental")),
        p.toString());
    p = problems(scenario("", worker("w1", 8, ""), job("a", "0s", "1h", 8),
        "events:\n  - {at: 1m, loseWorker: {worker: w9}}"));
    assertTrue(p.stream().anyMatch(s -> s.contains("unknown MultiKueue worker 'w9'")), p.toString());
    p = problems(scenario("", worker("w1", 8, "") + "\n" + worker("w1", 8, ""), job("a", "0s", "1h", 8), ""));
    assertTrue(p.stream().anyMatch(s -> s.contains("duplicate worker name 'w1'")), p.toString());
    p = problems(scenario("", worker("w1", 8, "      workloads: {}"), job("a", "0s", "1h", 8), ""));
    assertTrue(p.stream().anyMatch(s -> s.contains("workloads")), p.toString());
  }

  @Test
  void multiKueueCheckWithoutWorkers_andUnderVolcano_areRefused() {
    String yaml = scenario("", worker("w1", 8, ""), job("a", "0s", "1h", 8), "");
    String noBlock = yaml.substring(0, yaml.indexOf("multiKueue:")) + yaml.substring(yaml.indexOf("workloads:"));
    List<String> p = problems(noBlock);
    assertTrue(p.stream().anyMatch(s -> s.contains("needs a multiKueue: block")), p.toString());
    p = problems("scheduler: volcano\nvolcano: {queues: [{name: cq}]}\n" + yaml);
    assertTrue(p.stream().anyMatch(s -> s.contains("MultiKueue is Kueue's")), p.toString());
  }

  @Test
  void theExampleValidatesAndHasTwoWorkers() throws Exception {
    Path example = Path.of("examples/multikueue.yaml");
    assertTrue(Files.exists(example), "run from the scenarios module");
    var spec = ScenarioLoader.load(example, List.of()).spec();
    assertNotNull(spec.multiKueue());
    assertEquals(List.of("worker", "worker-2"), spec.multiKueue().workers().stream()
        .map(batchsim.core.model.MultiKueueSpec.Worker::name).toList());
    assertThrows(IllegalArgumentException.class, () -> new batchsim.core.sim.Simulation(spec, (VolcanoSetup) null));
  }
}
