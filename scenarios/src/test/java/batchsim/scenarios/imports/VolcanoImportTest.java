package batchsim.scenarios.imports;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.core.metrics.RunResult;
import batchsim.core.sim.Runs;
import batchsim.core.volcano.ExtensionPoint;
import batchsim.core.volcano.PluginSpec;
import batchsim.core.volcano.QueueState;
import batchsim.core.volcano.VolcanoConfig;
import batchsim.core.volcano.VolcanoQueueSpec;
import batchsim.core.volcano.VolcanoSetup;
import batchsim.scenarios.LoadedScenario;
import batchsim.scenarios.ScenarioLoader;
import batchsim.scenarios.cli.BatchsimCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code batchsim import} of Volcano's objects: Queues, the scheduler ConfigMap, vcjobs, PodGroups. */
class VolcanoImportTest {
  static final Path VOLCANO = Path.of("src/test/resources/imports/volcano");
  static final Path QUEUES = VOLCANO.resolve("queues.yaml");
  static final Path CONF = VOLCANO.resolve("scheduler-configmap.yaml");
  static final Path JOBS = VOLCANO.resolve("vcjobs.yaml");
  static final Path GROUPS = VOLCANO.resolve("podgroups.yaml");
  static final Path PRIORITIES = VOLCANO.resolve("priorityclasses.yaml");
  static final Path NODES = VOLCANO.resolve("nodes.yaml");

  @TempDir
  Path tmp;

  ScenarioImport.Result run(Path... inputs) {
    return ScenarioImport.run(List.of(inputs), tmp.resolve("out.yaml"), ScenarioImport.Options.DEFAULT);
  }

  LoadedScenario load(ScenarioImport.Result r) throws Exception {
    assertEquals(List.of(), r.errors());
    Path out = tmp.resolve("out.yaml");
    Files.writeString(out, r.yaml());
    return ScenarioLoader.parse(out.toString(), r.yaml());
  }

  /** A copy of {@code file} with {@code from} replaced (the same kubectl output, one thing changed). */
  Path variant(Path file, String from, String to) throws Exception {
    String text = Files.readString(file);
    assertTrue(text.contains(from), from);
    Path p = tmp.resolve("v" + Math.abs((from + to).hashCode()) + "-" + file.getFileName());
    Files.writeString(p, text.replace(from, to));
    return p;
  }

  static Map<String, VolcanoQueueSpec> queues(VolcanoSetup s) {
    Map<String, VolcanoQueueSpec> out = new LinkedHashMap<>();
    s.queues().forEach(q -> out.put(q.name(), q));
    return out;
  }

  static PluginSpec plugin(VolcanoConfig c, String name) {
    return c.tiers().stream().flatMap(List::stream).filter(p -> p.name().equals(name)).findFirst().orElseThrow();
  }

  static void hasWarning(ScenarioImport.Result r, String text) {
    assertTrue(r.warnings().stream().anyMatch(w -> w.contains(text)), text + " in " + r.warnings());
  }

  static void hasError(ScenarioImport.Result r, String text) {
    assertTrue(r.errors().stream().anyMatch(e -> e.contains(text)), text + " in " + r.errors());
  }

  // ---- end to end ---------------------------------------------------------------------------------------

  @Test
  void clusterExport_becomesAVolcanoScenario_thatLoadsAndRuns() throws Exception {
    ScenarioImport.Result r = run(QUEUES, CONF, JOBS, GROUPS, PRIORITIES, NODES);
    String yaml = r.yaml();
    assertTrue(yaml.contains("\nscheduler: volcano\n"), yaml);
    assertTrue(yaml.contains("podgroups.yaml: 3 PodGroups, 3 Pods"), yaml);
    assertTrue(yaml.contains("# from " + QUEUES + ":177:3\n  - name: team-b\n    parent: org\n"), yaml);
    assertTrue(yaml.contains("queueFor: {research/team-a: team-a, vision/team-b: team-b, serving/team-a: team-a}"),
        yaml);
    LoadedScenario s = load(r);
    assertEquals("volcano", s.scheduler());
    assertEquals(3, s.spec().workloadSources().size(), "two vcjobs and the standalone PodGroup");
    assertEquals(List.of("team-a", "team-b"), s.spec().clusterQueues().stream().map(q -> q.name()).toList(),
        "LocalQueues of one name in two namespaces share one generated ClusterQueue");

    // a short run under Volcano, invariants checked after every event
    LoadedScenario small = ScenarioLoader.parse(tmp.resolve("out.yaml").toString(),
        r.yaml().replace("count: 200", "count: 4"));
    RunResult result = Runs.run(small.spec(), small.volcano(), true);
    assertEquals(12, result.overall().finished());
  }

  @Test
  void vcjobTasks_becomePodSets_andThePodGroupsPodsOneSetPerShape() throws Exception {
    ScenarioImport.Result r = run(QUEUES, CONF, JOBS, GROUPS, PRIORITIES, NODES);
    List<JobTemplateReader.JobTemplate> jobs = VolcanoJobReader.read(KubeObjects.read(JOBS, JOBS.toString(),
        (a, p, m) -> { throw new AssertionError(m); }), (a, p, m) -> { throw new AssertionError(m); }, new Warnings());
    assertEquals(List.of("tf-dist-mnist", "lm-mpi"), jobs.stream().map(JobTemplateReader.JobTemplate::name).toList());
    String tf = ScenarioWriter.write(List.of(), List.of(new ScenarioWriter.Section("t", jobs.get(0).template(),
        List.of())), new java.util.IdentityHashMap<>());
    assertTrue(tf.contains("queue: research/team-a"), tf);
    assertTrue(tf.contains("priorityClass: high-priority"), tf);
    assertTrue(tf.contains("{name: ps, count: 1, requests: {cpu: 4, memory: 16Gi}}"), tf);
    assertTrue(tf.contains("{name: worker, count: 2, requests: {cpu: 16, memory: 64Gi, nvidia.com/gpu: 4}}"), tf);
    assertTrue(r.yaml().replace("\n  # ", " ").contains("(PodGroup infer-batch: 2 x {cpu 4, memory 16Gi, "
        + "nvidia.com/gpu 1})"), r.yaml());
    assertTrue(r.yaml().contains("name: high-priority\n  value: 1000"), r.yaml());
    hasWarning(r, JOBS + ":49:5: Volcano Job research/tf-dist-mnist: policies is not modelled by batchsim");
    hasWarning(r, "Volcano Job research/tf-dist-mnist: plugins is not modelled");
    assertFalse(r.warnings().stream().anyMatch(w -> w.contains("lm-mpi-")), "owned PodGroups belong to their jobs");
    assertFalse(r.warnings().stream().anyMatch(w -> w.contains("minResources")), "infer-batch's are its pods'");
    hasWarning(run(QUEUES, CONF, VOLCANO.resolve("refused.yaml"), NODES), "PodGroup serving/podgroup-77aa0000-0000-"
        + "4000-8000-0000000000aa: minResources differ from its pods' requests; batchsim enqueues it with "
        + "minResources = all its pods' requests");
  }

  // ---- queues -------------------------------------------------------------------------------------------

  @Test
  void queues_keepTheirHierarchyWeightsQuotasAndState() throws Exception {
    ScenarioImport.Result r = run(QUEUES, CONF, JOBS, NODES, PRIORITIES);
    Map<String, VolcanoQueueSpec> q = queues(load(r).volcano());
    assertEquals(List.of("default", "org", "root", "team-a", "team-b"), List.copyOf(q.keySet()));
    assertEquals("root", q.get("org").parent());
    assertEquals("org", q.get("team-a").parent());
    assertNull(q.get("default").parent());
    VolcanoQueueSpec b = q.get("team-b");
    assertEquals(2, b.weight());
    assertEquals(1, b.priority());
    assertFalse(b.reclaimable());
    assertEquals(8, b.guarantee().get("nvidia.com/gpu"));
    assertEquals(16, b.deserved().get("nvidia.com/gpu"));
    assertEquals(32, b.capability().get("nvidia.com/gpu"));
    assertEquals(192_000, q.get("team-a").deserved().get("cpu"));
    assertEquals(QueueState.OPEN, b.state());
    hasWarning(r, QUEUES + ":213:5: Queue team-b: spec.dequeueStrategy is not modelled by batchsim; dropped");
    hasWarning(r, QUEUES + ":209:7: Queue team-b: example.com/fpga is a resource no node or job in the inputs has");
  }

  @Test
  void queueState_closedCopiesOver_andParentsCountOnlyWithHierarchy() throws Exception {
    Path closed = variant(QUEUES, "    state: Open\n- apiVersion: scheduling.volcano.sh/v1beta1\n  kind: Queue\n"
        + "  metadata:\n    creationTimestamp: \"2026-10-02T08:20:55Z\"",
        "    state: Closed\n- apiVersion: scheduling.volcano.sh/v1beta1\n  kind: Queue\n"
        + "  metadata:\n    creationTimestamp: \"2026-10-02T08:20:55Z\"");
    ScenarioImport.Result r = run(closed, CONF, NODES);
    VolcanoQueueSpec a = queues(load(r).volcano()).get("team-a");
    assertEquals(QueueState.CLOSED, a.state());
    assertEquals(32, a.capability().get("nvidia.com/gpu"), "no job asks for GPUs, but the nodes have them");

    Path flat = variant(CONF, "        enableHierarchy: true\n", "");
    ScenarioImport.Result f = run(QUEUES, flat, NODES);
    Map<String, VolcanoQueueSpec> q = queues(load(f).volcano());
    assertNull(q.get("team-a").parent());
    assertFalse(load(f).volcano().config().hierarchical());
    hasWarning(f, "Queue org: spec.parent root counts only with capacity's enableHierarchy");
  }

  @Test
  void jobsQueueNotAmongTheInputs_isAPlaceholder_andWithoutAConfigMapVolcanosDefaultsApply() throws Exception {
    ScenarioImport.Result r = run(JOBS, NODES, PRIORITIES);
    VolcanoSetup s = load(r).volcano();
    assertEquals(List.of("team-a", "team-b"), s.queues().stream().map(VolcanoQueueSpec::name).toList());
    assertEquals(VolcanoConfig.defaults().tiers(), s.config().tiers());
    hasWarning(r, JOBS + ":53:12: Volcano Job research/tf-dist-mnist: queue team-a is not among the input Queues; "
        + "generated as a placeholder");
    assertTrue(r.yaml().contains("# placeholder: queue team-a of Volcano Job research/tf-dist-mnist"), r.yaml());
    assertTrue(r.yaml().contains("No volcano-scheduler ConfigMap among the inputs"), r.yaml());

    ScenarioImport.Result noClass = run(JOBS, NODES);
    hasWarning(noClass, "PriorityClass high-priority is not among the inputs; generated with value 0: edit");
    load(noClass);
  }

  // ---- the scheduler ConfigMap --------------------------------------------------------------------------

  @Test
  void configMap_actionsTiersAndArguments() throws Exception {
    ScenarioImport.Result r = run(QUEUES, CONF, JOBS, PRIORITIES, NODES);
    VolcanoConfig c = load(r).volcano().config();
    assertEquals(List.of("enqueue", "allocate", "backfill", "reclaim"), c.actions());
    assertTrue(c.hierarchical());
    assertEquals(VolcanoConfig.capacity(true).tiers().stream().map(t -> t.stream().map(PluginSpec::name).toList())
        .toList(), c.tiers().stream().map(t -> t.stream().map(PluginSpec::name).toList()).toList());
    assertFalse(plugin(c, "gang").isEnabled(ExtensionPoint.PREEMPTABLE));
    assertTrue(plugin(c, "gang").isEnabled(ExtensionPoint.RECLAIMABLE));
    assertFalse(plugin(c, "drf").isEnabled(ExtensionPoint.PREEMPTABLE));
    assertEquals("1", plugin(c, "capacity").argument("ancestorReclaimLevel"));
    assertTrue(r.yaml().contains("capacity: {arguments: {ancestorReclaimLevel: 1}}"), r.yaml());
    hasWarning(r, CONF + ":24:15: ConfigMap volcano-system/volcano-scheduler-configmap: plugin binpack is not "
        + "modelled by batchsim");
    hasWarning(r, CONF + ":23:11: ConfigMap volcano-system/volcano-scheduler-configmap: nodeorder argument "
        + "leastrequested.weight is not read by batchsim");
    hasWarning(r, CONF + ":25:5: ConfigMap volcano-system/volcano-scheduler-configmap: configurations is not modelled");
  }

  @Test
  void configMap_volcanosOwnSpellings_enabledOverusedAndUnknownKeys() throws Exception {
    Path conf = variant(CONF, "      - name: drf\n        enablePreemptable: false\n",
        "      - name: drf\n        enablePreemptable: false\n        enabledAllocatable: false\n"
        + "        enableAllocatable: false\n        enabledVictim: true\n");
    ScenarioImport.Result r = run(QUEUES, conf, NODES);
    VolcanoConfig c = load(r).volcano().config();
    assertFalse(plugin(c, "drf").isEnabled(ExtensionPoint.ALLOCATABLE), "Volcano's key is enabledAllocatable");
    hasWarning(r, "drf enableAllocatable is not a field of Volcano's plugin options (Volcano ignores it too)");
    hasWarning(r, "drf enabledVictim is not modelled by batchsim; ignored");
  }

  @Test
  void configMap_proportionWithoutSomeOfItsPlugins_switchesThemOff() throws Exception {
    Path conf = variant(variant(CONF, "      - name: conformance\n", ""), """
        - plugins:
          - name: drf
            enablePreemptable: false
          - name: predicates
          - name: capacity
            enableHierarchy: true
            arguments:
              ancestorReclaimLevel: 1
          - name: nodeorder
            arguments:
              leastrequested.weight: 1
          - name: binpack
        """.indent(4), """
        - plugins:
          - name: drf
          - name: predicates
          - name: proportion
          - name: nodeorder
        """.indent(4));
    ScenarioImport.Result r = run(variant(QUEUES, "    parent: ", "    type: "), conf, NODES);
    VolcanoConfig c = load(r).volcano().config();
    assertFalse(c.hierarchical());
    for (String absent : List.of("conformance", "overcommit")) {
      assertTrue(plugin(c, absent).enabled().isEmpty(), absent);
    }
    assertEquals(ExtensionPoint.values().length, plugin(c, "priority").enabled().size());
    // comments wrap where the (temporary) file names make them long: compare them unwrapped
    assertTrue(r.yaml().replaceAll("\n# ", " ").contains("conformance, overcommit not configured there, so every switch "
        + "is off"), r.yaml());
  }

  @Test
  void configMap_quotedConf_isLocatedAtTheValue() throws Exception {
    Path conf = tmp.resolve("quoted.yaml");
    Files.writeString(conf, Files.readString(CONF).replaceFirst("(?s)  volcano-scheduler.conf: \\|\n.*?\nkind:",
        "  volcano-scheduler.conf: \"actions: \\\\\"enqueue, allocate, shuffle\\\\\"\\\\ntiers:\\\\n- plugins:\\\\n"
        + "  - name: priority\\\\n  - name: gang\\\\n  - name: conformance\\\\n- plugins:\\\\n  - name: drf\\\\n"
        + "  - name: predicates\\\\n  - name: capacity\\\\n  - name: nodeorder\\\\n\"\nkind:"));
    ScenarioImport.Result r = run(QUEUES, conf, NODES);
    hasError(r, conf + ":5:27: actions: ConfigMap volcano-system/volcano-scheduler-configmap: "
        + "action 'shuffle' is not modelled by batchsim");
  }

  @Test
  void configMap_refusesWhatWouldChangeTheAnswer() throws Exception {
    assertRefused(variant(CONF, "enqueue, allocate, backfill, reclaim", "enqueue, allocate, gangpreempt, backfill"),
        ":6:14: ", "action 'gangpreempt' is not modelled by batchsim");
    assertRefused(variant(CONF, "      - name: conformance\n", "      - name: conformance\n      - name: sla\n"),
        ":13:15: ", "plugin sla is not modelled by batchsim, and it takes part in admission");
    assertRefused(variant(CONF, "      - name: binpack\n", "      - name: binpack\n      - name: overcommit\n"),
        ":25:15: ", "overcommit with capacity is not in batchsim's capacity layout");
    assertRefused(variant(CONF, "      - name: binpack\n", "      - name: proportion\n"),
        ":24:15: ", "proportion and capacity are both configured");
    assertRefused(variant(CONF, "      - name: conformance\n", "      - name: conformance\n      - name: nodeorder\n"),
        ":13:15: ", "plugin nodeorder is out of place (the modelled plugins sit as [[priority, gang, conformance, "
        + "nodeorder], [drf, predicates, capacity, nodeorder]])");
    assertRefused(variant(CONF, "      - name: gang\n        enablePreemptable: false\n", ""),
        ":6:5: ", "gang is not configured");
    assertRefused(variant(CONF, "      - name: drf\n        enablePreemptable: false\n",
        "      - name: drf\n        enableHierarchy: true\n"), ":15:26: ", "drf enableHierarchy");
  }

  void assertRefused(Path conf, String at, String message) {
    ScenarioImport.Result r = run(QUEUES, conf, NODES);
    hasError(r, conf + at);
    hasError(r, message);
  }

  // ---- jobs batchsim cannot model as Volcano runs them ----------------------------------------------------

  @Test
  void refusals_areLocated_exit2_nothingWritten() throws Exception {
    Path out = tmp.resolve("refused-out.yaml");
    StringWriter err = new StringWriter();
    int code = new CommandLine(new BatchsimCommand()).setErr(new PrintWriter(err)).execute("import",
        QUEUES.toString(), CONF.toString(), VOLCANO.resolve("refused.yaml").toString(), NODES.toString(),
        "-o", out.toString());
    assertEquals(2, code, err.toString());
    assertFalse(Files.exists(out));
    String refused = VOLCANO.resolve("refused.yaml").toString();
    List<String> expected = new ArrayList<>(List.of(
        "error: " + refused + ":29:19: items[0].spec.minAvailable: Volcano Job research/elastic-train: "
            + "minAvailable 2 but it has 4 pods; Volcano starts it once 2 run, batchsim only when all do",
        "error: " + refused + ":79:7: items[1].spec.networkTopology: Volcano Job research/topo-train: "
            + "networkTopology mode hard",
        "error: " + refused + ":129:12: items[2].spec.queue: Volcano Job research/org-job: queue org has child queues",
        "error: " + refused + ":220:16: items[4].spec.minMember: PodGroup serving/podgroup-77aa0000-0000-4000-8000-"
            + "0000000000aa: minMember 1 but it has 2 pods",
        "warning: " + refused + ":177:12: Volcano Job vision/lost-job: queue team-z is not among the input Queues"));
    for (String e : expected) {
      assertTrue(err.toString().contains(e), e + "\n" + err);
    }
    assertFalse(err.toString().contains("Exception"), err.toString());
  }

  @Test
  void podGroupAndItsPods_mustShareAFile_andAPodGroupWithoutPodsIsSkipped() throws Exception {
    String text = Files.readString(GROUPS);
    int pods = text.indexOf("- apiVersion: v1\n  kind: Pod\n");
    Path groups = tmp.resolve("groups.yaml");
    Path podsOnly = tmp.resolve("pods.yaml");
    Files.writeString(groups, text.substring(0, pods) + "kind: List\nmetadata:\n  resourceVersion: \"\"\n");
    Files.writeString(podsOnly, "apiVersion: v1\nitems:\n" + text.substring(pods));
    ScenarioImport.Result r = run(QUEUES, CONF, groups, podsOnly, NODES);
    hasError(r, podsOnly + ":58:3: items[1]: Pod/serving/infer-batch-0 belongs to PodGroup serving/infer-batch at "
        + groups
        + ":125:3; a PodGroup and its pods must be in one file");

    ScenarioImport.Result alone = run(QUEUES, CONF, groups, NODES);
    hasWarning(alone, groups + ":125:3: PodGroup serving/infer-batch: no pod among the inputs names it");
    hasWarning(alone, "PodGroup/research/tf-dist-mnist-8f3c1d2e-5a6b-4c7d-8e9f-0a1b2c3d4e5f belongs to Volcano Job "
        + "tf-dist-mnist, which is not among the inputs; skipped");
  }

  // ---- one scheduler per scenario -----------------------------------------------------------------------

  @Test
  void kueueObjectsOrTracesWithVolcanoObjects_areAnError() throws Exception {
    Path kueue = Path.of("src/test/resources/imports/kueue-export.yaml");
    ScenarioImport.Result r = run(QUEUES, kueue);
    hasError(r, "cannot be imported with Volcano objects (Queue/default at " + QUEUES + ":5:3): a scenario has one "
        + "scheduler");
    ScenarioImport.Result t = run(JOBS, Path.of("src/test/resources/traces/small.swf"));
    hasError(t, "small.swf: a trace cannot be imported with Volcano objects");
    ScenarioImport.Result job = run(QUEUES, Path.of("src/test/resources/imports/job.yaml"));
    hasError(job, "Job/team-a/sample-job-partial-admission cannot be imported with Volcano objects");
    ScenarioImport.Result generator = run(Path.of("src/test/resources/imports/generator.yaml"), QUEUES);
    hasError(generator, QUEUES + ":5:3: a Kueue generator file cannot be imported with Volcano objects");
  }

  @Test
  void podsThatNameNoPodGroup_andCarryNoKueueLabel_areSkipped() throws Exception {
    Path groups = variant(GROUPS, "      scheduling.k8s.io/group-name: tf-dist-mnist-8f3c1d2e-5a6b-4c7d-8e9f-0a1b2c3d4e5f\n",
        "");
    ScenarioImport.Result r = run(QUEUES, CONF, JOBS, groups, PRIORITIES, NODES);
    hasWarning(r, "Pod/research/tf-dist-mnist-ps-0: no scheduling.k8s.io/group-name annotation, so Volcano does "
        + "not schedule it; skipped");
    assertEquals(3, load(r).spec().workloadSources().size());
  }
}
