package batchsim.scenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.core.metrics.QueueStats;
import batchsim.core.metrics.RunResult;
import batchsim.core.sim.Runs;
import batchsim.core.volcano.VolcanoSetup;
import batchsim.core.volcano.ExtensionPoint;
import batchsim.core.volcano.PluginSpec;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class VolcanoBinderTest {
  private static final String BASE = String.join("\n",
      "name: t",
      "cluster:",
      "  nodePools:",
      "    - {name: gpu, count: 2, allocatable: {cpu: 8, memory: 8Gi, nvidia.com/gpu: 8}}",
      "resourceFlavors:",
      "  - {name: a100}",
      "clusterQueues:",
      "  - name: team-a",
      "    resourceGroups:",
      "      - coveredResources: [nvidia.com/gpu]",
      "        flavors: [{name: a100, resources: [{name: nvidia.com/gpu, nominalQuota: 8}]}]",
      "localQueues:",
      "  - {namespace: ns, name: main, clusterQueue: team-a}",
      "workloads:",
      "  classes:",
      "    - {name: train, queue: ns/main, arrival: {every: 1m}, count: 3, runtime: 1h,",
      "       podSets: [{count: 1, requests: {nvidia.com/gpu: 1}}]}",
      "");

  private static LoadedScenario load(String extra) throws Exception {
    return ScenarioLoader.parse("t.yaml", BASE + extra);
  }

  private static List<String> problems(String extra) {
    ScenarioException e = assertThrows(ScenarioException.class, () -> load(extra));
    return e.problems().stream().map(Object::toString).toList();
  }

  @Test
  void scheduler_defaultsToKueue_andTheVolcanoBlockAloneDoesNotSelectVolcano() throws Exception {
    assertNull(load("").volcano());
    assertEquals("kueue", load("").scheduler());
    assertNull(load("volcano: {queues: [{name: team-a}]}\n").volcano());
  }

  @Test
  void volcano_mapsLocalQueuesToQueuesNamedLikeThemOrTheirClusterQueue() throws Exception {
    LoadedScenario s = load(String.join("\n",
        "scheduler: volcano",
        "volcano:",
        "  schedulePeriod: 2s",
        "  bindDelay: 500ms",
        "  terminationGracePeriod: 30s",
        "  plugins: capacity",
        "  hierarchical: true",
        "  pluginOptions: {gang: {enableReclaimable: false}, capacity: {arguments: {ancestorReclaimLevel: 1}}}",
        "  queues:",
        "    - {name: org, parent: root, capability: {nvidia.com/gpu: 16}}",
        "    - {name: team-a, parent: org, deserved: {nvidia.com/gpu: 8}, guarantee: {nvidia.com/gpu: 2},"
            + " reclaimable: false, priority: 3, weight: 2}",
        ""));
    VolcanoSetup v = s.volcano();
    assertNotNull(v);
    assertEquals("volcano", s.scheduler());
    assertEquals(Map.of("ns/main", "team-a"), v.queueFor());
    assertEquals(2_000, v.config().schedulePeriodMs());
    assertEquals(500, v.config().bindDelayMs());
    assertEquals(30_000, v.terminationGraceMs());
    assertTrue(v.config().hierarchical());
    assertEquals(List.of("enqueue", "allocate", "backfill", "reclaim"), v.config().actions());
    PluginSpec gang = v.config().tiers().get(0).stream().filter(p -> p.name().equals("gang")).findFirst().orElseThrow();
    assertTrue(!gang.isEnabled(ExtensionPoint.RECLAIMABLE) && gang.isEnabled(ExtensionPoint.PREEMPTABLE));
    PluginSpec capacity = v.config().tiers().get(1).stream().filter(p -> p.name().equals("capacity")).findFirst()
        .orElseThrow();
    assertEquals("1", capacity.argument("ancestorReclaimLevel"));
    var teamA = v.queues().get(1);
    assertEquals("org", teamA.parent());
    assertEquals(8, teamA.deserved().get("nvidia.com/gpu"));
    assertEquals(2, teamA.guarantee().get("nvidia.com/gpu"));
    assertEquals(3, teamA.priority());
    assertEquals(2, teamA.weight());
    assertTrue(!teamA.reclaimable());
  }

  @Test
  void volcano_defaultsAreVolcanosOwn_andQueueForOverridesTheNameMapping() throws Exception {
    VolcanoSetup v = load(String.join("\n",
        "scheduler: volcano",
        "kueue: {terminationGracePeriod: 45s}",
        "volcano:",
        "  queueFor: {ns/main: research}",
        "  queues: [{name: team-a}, {name: research}]",
        "")).volcano();
    assertEquals(Map.of("ns/main", "research"), v.queueFor());
    assertEquals(List.of("enqueue", "allocate", "backfill"), v.config().actions(), "DefaultSchedulerConf");
    assertEquals(1_000, v.config().schedulePeriodMs());
    assertEquals(45_000, v.terminationGraceMs(), "from kueue.terminationGracePeriod");
  }

  @Test
  void badVolcanoQueueReference_isReportedWithLineAndColumn() {
    List<String> p = problems(String.join("\n",
        "scheduler: volcano",
        "volcano:",
        "  queueFor: {ns/main: team-x}",
        "  queues: [{name: team-a}]",
        ""));
    assertEquals(List.of("t.yaml:20:23: volcano.queueFor[ns/main]: unknown Volcano queue 'team-x' (known: team-a)"), p);
  }

  @Test
  void volcanoProblems_areLocated() {
    List<String> p = problems(String.join("\n",
        "scheduler: volcano",
        "volcano:",
        "  plugins: capacity",
        "  hierarchical: true",
        "  actions: [enqueue, allocate, shuffle]",
        "  pluginOptions: {binpack: {}}",
        "  queueFor: {ns/other: team-a}",
        "  queues:",
        "    - {name: org, parent: nowhere}",
        "    - {name: team-a, parent: org, deserved: {nvidia.com/gpu: 8}, capability: {nvidia.com/gpu: 4}}",
        "    - {name: team-b, parent: team-b}",
        "    - {name: team-c, capability: {example.com/fpga: 1}}",
        "events:",
        "  - {at: 1h, stopClusterQueue: {name: team-a, policy: Hold}}",
        "  - {at: 2h, failNodes: {pool: gpu, count: 1, for: 1h}}",
        "  - {at: 3h, drainNodes: {pool: gpu, count: 1}}",
        "  - {at: 4h, addNodes: {pool: gpu, count: 1}}",
        ""));
    assertEquals(List.of(
        "t.yaml:22:32: volcano.actions[2]: unknown Volcano action 'shuffle' (known: enqueue, allocate, backfill,"
            + " reclaim, preempt)",
        "t.yaml:23:19: volcano.pluginOptions.binpack: plugin 'binpack' is not in this configuration (plugins: "
            + "priority, gang, conformance, drf, predicates, capacity, nodeorder)",
        "t.yaml:24:14: volcano.queueFor[ns/other]: unknown LocalQueue 'ns/other' (known: ns/main)",
        "t.yaml:26:27: volcano.queues[0].parent: unknown parent queue 'nowhere' (known: org, root, team-a, team-b,"
            + " team-c)",
        "t.yaml:27:62: volcano.queues[1].deserved[nvidia.com/gpu]: exceeds the queue's capability of nvidia.com/gpu"
            + " (Volcano's queue webhook requires guarantee <= deserved <= capability)",
        "t.yaml:28:30: volcano.queues[2].parent: queue cycle: team-b -> team-b",
        "t.yaml:29:35: volcano.queues[3].capability[example.com/fpga]: resource 'example.com/fpga' appears nowhere"
            + " else in the scenario (no node, quota or workload has it)",
        "t.yaml:31:14: events[0].stopClusterQueue: stopClusterQueue is not supported under scheduler: volcano"
            + " (supported: failNodes, cordonNodes, drainNodes, uncordonNodes, addNodes, removeNodes, scaleArrivals,"
            + " deleteWorkload, createVolcanoQueue, updateVolcanoQueue, closeVolcanoQueue, openVolcanoQueue,"
            + " deleteVolcanoQueue, deletePodGroup, setNodeNotReady, setNodeReady, taintNodes, untaintNodes,"
            + " labelNodes, unlabelNodes, deleteNodes)"),
        p);
  }

  @Test
  void localQueueWithoutVolcanoQueue_andNonLeafTargets_areReported() {
    assertEquals(List.of("t.yaml:13:27: localQueues[0].name: LocalQueue 'ns/main' has no Volcano queue: "
        + "volcano.queues has none named 'ns/main' or 'team-a' (its ClusterQueue), and volcano.queueFor does not map "
        + "it"), problems("scheduler: volcano\nvolcano: {queues: [{name: other}]}\n"));
    assertEquals(List.of("t.yaml:18:12: scheduler: unknown scheduler 'slurm' (expected kueue or volcano)"),
        problems("scheduler: slurm\n"));
    List<String> p = problems(String.join("\n",
        "scheduler: volcano",
        "volcano:",
        "  plugins: capacity",
        "  hierarchical: true",
        "  queueFor: {ns/main: org}",
        "  queues: [{name: org}, {name: team-a, parent: org}]",
        ""));
    assertEquals(1, p.size());
    assertTrue(p.get(0).startsWith("t.yaml:22:23: volcano.queueFor[ns/main]: Volcano queue 'org' (for LocalQueue"
        + " 'ns/main') has child queues"), p.get(0));
    assertEquals(List.of("t.yaml:19:35: volcano.queues[0].parent: a parent needs hierarchical: true (with plugins:"
        + " capacity)"), problems("volcano:\n  queues: [{name: team-a, parent: root}]\n"));
  }

  /** The example, under both engines, with the invariant checker on (the hierarchical-queue invariant included). */
  @Test
  void kueueVsVolcanoExample_runsCleanUnderBothEngines_andDeterministically() throws Exception {
    Path file = Path.of("examples/kueue-vs-volcano.yaml");
    LoadedScenario kueue = ScenarioLoader.load(file);
    LoadedScenario volcano = ScenarioLoader.load(file, List.of("scheduler=volcano"));
    assertNull(kueue.volcano());
    assertNotNull(volcano.volcano());
    RunResult k = Runs.run(kueue.spec(), kueue.volcano(), true);
    RunResult v = Runs.run(volcano.spec(), volcano.volcano(), true);
    for (RunResult r : List.of(k, v)) {
      QueueStats o = r.overall();
      assertEquals(o.arrived(), o.finished() + o.pendingAtEnd() + o.admittedAtEnd() + o.runningAtEnd(),
          "arrivals must be accounted for");
      assertEquals(List.of("team-a", "team-b"), r.queues().stream().map(QueueStats::name).toList());
      assertTrue(o.finished() > 100);
    }
    assertEquals(k.overall().arrived(), v.overall().arrived(), "both engines see the same arrivals");
    assertEquals(v.workloads(), Runs.run(volcano.spec(), volcano.volcano(), true).workloads());
    assertEquals(k.workloads(), Runs.run(kueue.spec(), kueue.volcano(), false).workloads());
  }
}
