package batchsim.scenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/** Every problem is reported, in file order, as {@code file:line:col: path: message}. */
class ScenarioProblemsTest {
  static final Path BROKEN = Path.of("src/test/resources/broken");

  /** A valid scenario that cases extend with one broken part (flow style keeps line numbers obvious). */
  static final String BASE = """
      name: t
      horizon: 1d
      cluster: {nodePools: [{name: p, count: 1, allocatable: {cpu: 8, memory: 32Gi}}]}
      resourceFlavors: [{name: f}, {name: g}]
      localQueues: [{name: q, clusterQueue: cq}]
      """;
  static final String CQ = """
      clusterQueues:
        - name: cq
          resourceGroups:
            - coveredResources: [cpu, memory]
              flavors:
                - name: f
                  resources: [{name: cpu, nominalQuota: 8}, {name: memory, nominalQuota: 32Gi}]
      """;

  static List<String> problems(String fileName, String yaml) {
    ScenarioException e = assertThrows(ScenarioException.class, () -> ScenarioLoader.parse(fileName, yaml));
    return e.problems().stream().map(Problem::toString).toList();
  }

  static List<String> fixture(String name) throws Exception {
    byte[] bytes = Files.readAllBytes(BROKEN.resolve(name));
    ScenarioException e = assertThrows(ScenarioException.class, () -> ScenarioLoader.parse(name, bytes));
    return e.problems().stream().map(Problem::toString).toList();
  }

  @Test
  void load_fileWithManyProblems_reportsEachOnceInFileOrder() throws Exception {
    assertEquals(List.of(
        "many-problems.yaml:5:14: cluster.nodePools[0].count: must be >= 0, got -1",
        "many-problems.yaml:7:13: cluster.nodePools[1].name: duplicate node pool name 'cpu' (first defined at line 4, column 13)",
        "many-problems.yaml:9:37: cluster.nodePools[1].allocatable.memory: 'lots' is not a Kubernetes quantity (e.g. 500m, 4, 64Gi)",
        "many-problems.yaml:14:27: cohorts[0].parentName: cohort cycle: a -> b -> a",
        "many-problems.yaml:24:17: clusterQueues[0].resourceGroups[0].flavors[0].resources[0]: missing required field 'nominalQuota'",
        "many-problems.yaml:24:29: clusterQueues[0].resourceGroups[0].flavors[0].resources[0].nominalQuta: unknown key 'nominalQuta' (expected one of name, nominalQuota, borrowingLimit, lendingLimit)",
        "many-problems.yaml:25:19: clusterQueues[0].resourceGroups[0].flavors[1].name: unknown flavor 'h100x' (known: a100, h100)",
        "many-problems.yaml:33:14: workloads.list[0].queue: unknown LocalQueue 'team-b' (known: team-a)"),
        fixture("many-problems.yaml"));
  }

  @Test
  void load_badYaml_reportsSyntaxErrorWithPosition() throws Exception {
    assertEquals(List.of("bad-yaml.yaml:4:1: YAML syntax error: expected ',' or ']', but got <scalar> "
        + "(while parsing a flow sequence at line 3, column 14)"), fixture("bad-yaml.yaml"));
  }

  @Test
  void load_problemLocationsNameTheFileAsGiven() {
    Path file = BROKEN.resolve("bad-yaml.yaml");
    ScenarioException e = assertThrows(ScenarioException.class, () -> ScenarioLoader.load(file));
    assertTrue(e.problems().get(0).toString().startsWith(file + ":4:1: YAML syntax error"), e.getMessage());
  }

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of("tab indentation", "name: t\n\tcluster: {}\n",
            "t.yaml:2:1: YAML syntax error: found character '\\t(TAB)' that cannot start any token. (Do not use \\t(TAB) for indentation)"),
        Arguments.of("empty file", "# nothing\n", "t.yaml:1:1: the document is empty"),
        Arguments.of("duplicate key", BASE + CQ + "seed: 1\nseed: 2\n",
            "t.yaml:14:1: seed: duplicate key 'seed' (first at line 13, column 1)"),
        Arguments.of("missing name", "cluster: {nodePools: []}\n", "t.yaml:1:1: missing required field 'name'"),
        Arguments.of("wrong type", BASE + "clusterQueues: {name: cq}\n",
            "t.yaml:6:16: clusterQueues: expected a list, got a map"),
        Arguments.of("bad duration", BASE + CQ + "sampleInterval: 5 minutes\n",
            "t.yaml:13:17: sampleInterval: '5 minutes' is not a duration (use e.g. 500ms, 30s, 45m, 2h, 7d, 1h30m)"),
        Arguments.of("fractional GPU", BASE + CQ + "workloads: {list: [{name: w, queue: q, runtime: 1m, podSets: [{requests: {nvidia.com/gpu: 0.5}}]}]}\n",
            "t.yaml:13:91: workloads.list[0].podSets[0].requests[nvidia.com/gpu]: quantity '0.5' of nvidia.com/gpu is not a whole number of units"),
        Arguments.of("duplicate ClusterQueue", BASE + CQ + "  - {name: cq}\n",
            "t.yaml:13:12: clusterQueues[1].name: duplicate ClusterQueue name 'cq' (first defined at line 7, column 11)"),
        Arguments.of("duplicate LocalQueue with namespace", BASE.replace("[{name: q, clusterQueue: cq}]",
                "[{name: q, clusterQueue: cq}, {name: q, namespace: ns, clusterQueue: cq}, {namespace: ns, name: q, clusterQueue: cq}]") + CQ,
            "t.yaml:5:110: localQueues[2].name: duplicate LocalQueue name 'ns/q' (first defined at line 5, column 51)"),
        Arguments.of("LocalQueue to unknown ClusterQueue", BASE + CQ.replace("name: cq", "name: cq2"),
            "t.yaml:5:39: localQueues[0].clusterQueue: unknown ClusterQueue 'cq' (known: cq2)"),
        Arguments.of("unknown priority class", BASE + CQ + "priorityClasses: [{name: high, value: 1}]\n"
                + "workloads: {list: [{name: w, queue: q, priorityClass: hihg, runtime: 1m, podSets: [{requests: {cpu: 1}}]}]}\n",
            "t.yaml:14:55: workloads.list[0].priorityClass: unknown priority class 'hihg' (known: high)"),
        Arguments.of("priority and priorityClass", BASE + CQ + "priorityClasses: [{name: high, value: 1}]\n"
                + "workloads: {list: [{name: w, queue: q, priorityClass: high, priority: 3, runtime: 1m, podSets: [{requests: {cpu: 1}}]}]}\n",
            "t.yaml:14:61: workloads.list[0].priority: give either 'priorityClass' or 'priority', not both"),
        Arguments.of("minCount above count", BASE + CQ
                + "workloads: {list: [{name: w, queue: q, runtime: 1m, podSets: [{count: 2, minCount: 3, requests: {cpu: 1}}]}]}\n",
            "t.yaml:13:84: workloads.list[0].podSets[0].minCount: minCount 3 exceeds count 2"),
        Arguments.of("pod set count zero", BASE + CQ
                + "workloads: {list: [{name: w, queue: q, runtime: 1m, podSets: [{count: 0, requests: {cpu: 1}}]}]}\n",
            "t.yaml:13:71: workloads.list[0].podSets[0].count: must be >= 1, got 0"),
        Arguments.of("unknown parent cohort", BASE + CQ + "cohorts: [{name: c, parentName: org}]\n",
            "t.yaml:13:33: cohorts[0].parentName: unknown cohort 'org' (known: c)"),
        Arguments.of("self-parent cohort", BASE + CQ + "cohorts: [{name: c, parentName: c}]\n",
            "t.yaml:13:33: cohorts[0].parentName: cohort cycle: c -> c"),
        Arguments.of("three-cohort cycle reported at first member in file", BASE + CQ
                + "cohorts: [{name: x, parentName: z}, {name: y, parentName: x}, {name: z, parentName: y}]\n",
            "t.yaml:13:33: cohorts[0].parentName: cohort cycle: x -> z -> y -> x"),
        Arguments.of("flavor in two groups", BASE + CQ + """
                  - coveredResources: [nvidia.com/gpu]
                    flavors: [{name: f, resources: [{name: nvidia.com/gpu, nominalQuota: 1}]}]
            """,
            "t.yaml:14:26: clusterQueues[0].resourceGroups[1].flavors[0].name: flavor 'f' is already used by resourceGroups[0]"),
        Arguments.of("resource covered twice", BASE + CQ + """
                  - coveredResources: [memory]
                    flavors: [{name: g, resources: [{name: memory, nominalQuota: 1Gi}]}]
            """,
            "t.yaml:13:28: clusterQueues[0].resourceGroups[1].coveredResources[0]: resource 'memory' is already covered by resourceGroups[0]"),
        Arguments.of("quota outside coveredResources", BASE + CQ.replace("nominalQuota: 32Gi}]",
                "nominalQuota: 32Gi}, {name: pods, nominalQuota: 10}]"),
            "t.yaml:12:98: clusterQueues[0].resourceGroups[0].flavors[0].resources[2].name: resource 'pods' is not in this group's coveredResources (cpu, memory)"),
        Arguments.of("flavor missing a covered resource", BASE + CQ.replace(", {name: memory, nominalQuota: 32Gi}", ""),
            "t.yaml:12:24: clusterQueues[0].resourceGroups[0].flavors[0].resources: no quota for covered resource 'memory' (every flavor of a group lists exactly the coveredResources)"),
        Arguments.of("lendingLimit above nominal", BASE + CQ.replace("- name: cq\n", "- name: cq\n    cohortName: c\n")
                .replace("nominalQuota: 8}", "nominalQuota: 8, lendingLimit: 9}"),
            "t.yaml:13:68: clusterQueues[0].resourceGroups[0].flavors[0].resources[0].lendingLimit: lendingLimit '9' exceeds nominalQuota '8'"),
        Arguments.of("negative borrowingLimit", BASE + CQ.replace("- name: cq\n", "- name: cq\n    cohortName: c\n")
                .replace("nominalQuota: 8}", "nominalQuota: 8, borrowingLimit: -2}"),
            "t.yaml:13:70: clusterQueues[0].resourceGroups[0].flavors[0].resources[0].borrowingLimit: quantity '-2' must not be negative"),
        Arguments.of("borrowingLimit without cohort", BASE + CQ.replace("nominalQuota: 8}", "nominalQuota: 8, borrowingLimit: 2}"),
            "t.yaml:12:70: clusterQueues[0].resourceGroups[0].flavors[0].resources[0].borrowingLimit: borrowingLimit needs a cohortName (there is nothing to borrow from or lend to)"),
        Arguments.of("bad enum", BASE + CQ.replace("- name: cq\n", "- name: cq\n    queueingStrategy: FIFO\n"),
            "t.yaml:8:23: clusterQueues[0].queueingStrategy: 'FIFO' is not one of StrictFIFO, BestEffortFIFO"),
        Arguments.of("uncovered resource request", BASE + CQ
                + "workloads: {list: [{name: w, queue: q, runtime: 1m, podSets: [{requests: {cpu: 1, nvidia.com/gpu: 1}}]}]}\n",
            "t.yaml:13:83: workloads.list[0].podSets[0].requests[nvidia.com/gpu]: ClusterQueue 'cq' (via LocalQueue 'q') does not cover resource 'nvidia.com/gpu', so Kueue would never admit this workload (covered: cpu, memory)"),
        Arguments.of("endless arrivals", BASE.replace("horizon: 1d\n", "") + CQ
                + "workloads: {classes: [{name: c, queue: q, arrival: {poisson: {rate: 1/m}}, runtime: 1m, podSets: [{requests: {cpu: 1}}]}]}\n",
            "t.yaml:12:52: workloads.classes[0].arrival: arrivals never stop: give the class a count or until, or the scenario a horizon"),
        Arguments.of("unknown alias", BASE + CQ + "seed: *nope\n",
            "t.yaml:13:7: seed: unknown alias '*nope' (anchors must be defined before use)"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void parse_brokenScenario_reportsProblemWithLocation(String name, String yaml, String expected) {
    List<String> problems = problems("t.yaml", yaml);
    assertTrue(problems.contains(expected), () -> "expected\n  " + expected + "\ngot\n  "
        + String.join("\n  ", problems));
  }

  @Test
  void parse_baseOfTheCases_isValid() throws Exception {
    ScenarioLoader.parse("t.yaml", BASE + CQ);
  }
}
