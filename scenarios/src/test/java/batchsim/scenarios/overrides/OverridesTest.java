package batchsim.scenarios.overrides;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.core.model.ClusterQueueSpec;
import batchsim.core.model.QuotaSpec;
import batchsim.core.model.SimulationSpec;
import batchsim.scenarios.LoadedScenario;
import batchsim.scenarios.Problem;
import batchsim.scenarios.ScenarioException;
import batchsim.scenarios.ScenarioLoader;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code --set} through the loader: paths, aliases, YAML values, and problems named after the argument. */
class OverridesTest {
  static final Path QUICKSTART = Path.of("examples/quickstart.yaml");

  static SimulationSpec load(String... sets) throws Exception {
    return ScenarioLoader.load(QUICKSTART, List.of(sets)).spec();
  }

  static List<String> problems(String... sets) {
    ScenarioException e = assertThrows(ScenarioException.class, () -> ScenarioLoader.load(QUICKSTART, List.of(sets)));
    return e.problems().stream().map(Problem::toString).toList();
  }

  static QuotaSpec gpuQuota(SimulationSpec s, String cq) {
    ClusterQueueSpec q = s.clusterQueues().stream().filter(c -> c.name().equals(cq)).findFirst().orElseThrow();
    return q.resourceGroups().get(0).flavors().get(1).resources().get("nvidia.com/gpu");
  }

  @Test
  void quotaAlias_setsNominalOrANamedLimit() throws Exception {
    SimulationSpec s = load("clusterQueues.team-b.quota.a100.nvidia.com/gpu=24",
        "clusterQueues.team-b.quota.a100.nvidia.com/gpu.lendingLimit=4",
        "clusterQueues.team-b.quota.a100.nvidia.com/gpu.borrowingLimit=0");
    assertEquals(new QuotaSpec(24, 0, 4), gpuQuota(s, "team-b"));
    assertEquals(new QuotaSpec(16, 16, 16), gpuQuota(s, "team-a"), "team-a untouched");
  }

  @Test
  void nodePoolsAlias_andPlainPaths_andBrackets() throws Exception {
    SimulationSpec s = load("nodePools.gpu.count=8", "cluster.nodePools.cpu.count=1", "seed=5",
        "cluster.nodePools[gpu].allocatable[nvidia.com/gpu]=4");
    assertEquals(8, s.nodePools().get(1).count());
    assertEquals(1, s.nodePools().get(0).count());
    assertEquals(5, s.seed());
    assertEquals(4, s.nodePools().get(1).allocatable().get(s.resources().require("nvidia.com/gpu")));
  }

  @Test
  void keysWithDots_matchWithoutBrackets() throws Exception {
    SimulationSpec s = load("cluster.nodePools.gpu.labels.node.kubernetes.io/instance-type=h100",
        "resourceFlavors.a100.nodeLabels.node.kubernetes.io/instance-type=h100");
    assertEquals("h100", s.nodePools().get(1).labels().get("node.kubernetes.io/instance-type"));
  }

  @Test
  void valuesAreYaml_flowMapsListsAndEmptyForNull() throws Exception {
    assertTrue(load("kueue.fairSharing={}").kueue().fairSharing());
    assertFalse(load("kueue.fairSharing={enable: false}").kueue().fairSharing());
    assertFalse(load("kueue.fairSharing=").kueue().fairSharing());
    SimulationSpec s = load("priorityClasses=[{name: high, value: 5}, {name: dev, value: 1}]");
    assertEquals(5, s.priorityClasses().get(0).value());
  }

  @Test
  void missingMapsAreCreated() throws Exception {
    assertEquals(120_000, load("kueue.cycleLatency=2m").kueue().cycleLatencyMs());
  }

  @Test
  void laterOverridesWin() throws Exception {
    assertEquals(3, load("nodePools.gpu.count=8", "nodePools.gpu.count=3").nodePools().get(1).count());
  }

  @Test
  void badPaths_areReportedAsTheArgument() {
    assertEquals(List.of(
        "--set clusterQueues.team-b.quota.a100.gpu=1: flavor 'a100' of ClusterQueue 'team-b' has no quota for 'gpu' "
            + "(known: cpu, memory, nvidia.com/gpu); a field after the resource must be one of nominalQuota, "
            + "borrowingLimit, lendingLimit",
        "--set clusterQueues.team-b.quota.h100.nvidia.com/gpu=1: ClusterQueue 'team-b' has no flavor 'h100' in its "
            + "resourceGroups (known: cpu-std, a100)",
        "--set clusterQueues.team-x.quota.a100.nvidia.com/gpu=1: no item named 'team-x' in clusterQueues "
            + "(known: team-a, team-b)",
        "--set name.first=x: name is 'quickstart', not a map, so it has no 'first'",
        "--set nodePools: expected path=value",
        "--set nodePools[9].count=1: cluster.nodePools has 2 items, so there is no [9]"),
        problems("clusterQueues.team-x.quota.a100.nvidia.com/gpu=1", "clusterQueues.team-b.quota.h100.nvidia.com/gpu=1",
            "clusterQueues.team-b.quota.a100.gpu=1", "name.first=x", "nodePools[9].count=1", "nodePools"));
  }

  @Test
  void badValues_areReportedAsTheArgumentWithTheFieldPath() {
    assertEquals(List.of(
        "--set clusterQueues.team-b.quota.a100.nvidia.com/gpu=4x: "
            + "clusterQueues[1].resourceGroups[0].flavors[1].resources[2].nominalQuota: '4x' is not a Kubernetes "
            + "quantity (e.g. 500m, 4, 64Gi)",
        "--set kueue.fairSharing={enable: maybe}: kueue.fairSharing.enable: expected true or false, got 'maybe'",
        "--set nodePools.gpu.count=-1: cluster.nodePools[1].count: must be >= 0, got -1"),
        problems("clusterQueues.team-b.quota.a100.nvidia.com/gpu=4x", "kueue.fairSharing={enable: maybe}",
            "nodePools.gpu.count=-1"));
  }

  @Test
  void yamlSyntaxErrorInAValue_isOneLine() {
    List<String> p = problems("kueue.fairSharing={");
    assertEquals(1, p.size());
    assertTrue(p.get(0).startsWith("--set kueue.fairSharing={: YAML syntax error"), p.get(0));
  }

  @Test
  void overridesChangeTheScenarioHash() throws Exception {
    LoadedScenario plain = ScenarioLoader.load(QUICKSTART);
    LoadedScenario set = ScenarioLoader.load(QUICKSTART, List.of("seed=5"));
    assertEquals(ScenarioLoader.sha256(java.nio.file.Files.readAllBytes(QUICKSTART)), plain.sha256(),
        "without includes or overrides the hash is the file's");
    assertFalse(plain.sha256().equals(set.sha256()));
    assertEquals(set.sha256(), ScenarioLoader.load(QUICKSTART, List.of("seed=5")).sha256());
  }
}
