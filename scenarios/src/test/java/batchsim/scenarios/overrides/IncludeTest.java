package batchsim.scenarios.overrides;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import batchsim.core.model.ClusterQueueSpec;
import batchsim.core.model.SimulationSpec;
import batchsim.core.model.WorkloadSourceSpec;
import batchsim.scenarios.Problem;
import batchsim.scenarios.ScenarioException;
import batchsim.scenarios.ScenarioLoader;
import batchsim.workloads.WorkloadClass;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code include:} and its deep merge, read through the loader. */
class IncludeTest {
  static final Path DIR = Path.of("src/test/resources/include");

  @Test
  void variant_mergesMapsByKeyAndNamedListsByName() throws Exception {
    SimulationSpec s = ScenarioLoader.load(DIR.resolve("variant.yaml")).spec();
    assertEquals("variant", s.name());
    assertEquals(7, s.seed(), "kept from the base");
    assertEquals(List.of("cpu", "gpu"), s.nodePools().stream().map(p -> p.name()).toList());
    assertEquals(2, s.nodePools().get(0).count(), "untouched pool");
    assertEquals(3, s.nodePools().get(1).count(), "merged by name");
    assertEquals("kind", s.nodePools().get(1).labels().firstKey(), "the rest of the pool is kept");

    List<String> cqs = s.clusterQueues().stream().map(ClusterQueueSpec::name).toList();
    assertEquals(List.of("team-a", "team-b", "team-c"), cqs, "new named items are appended");
    ClusterQueueSpec a = s.clusterQueues().get(0);
    assertEquals(1, a.resourceGroups().size(), "a list without names is replaced");
    assertEquals(4_000, a.resourceGroups().get(0).flavors().get(0).resources().get("cpu").nominal());
    assertNull(a.cohort(), "a null removes the setting");
    assertEquals("all", s.clusterQueues().get(1).cohort());
    assertEquals(List.of("a/main", "b/main", "c/main"), s.localQueues().stream().map(l -> l.name()).toList(),
        "LocalQueues are told apart by namespace/name");

    WorkloadSourceSpec jobs = s.workloadSources().get(0);
    assertEquals(5, ((WorkloadClass) jobs).count(), "merged into the class of the same name");
  }

  @Test
  void problemsInAnIncludedFile_pointIntoThatFile() {
    ScenarioException e = assertThrows(ScenarioException.class,
        () -> ScenarioLoader.load(DIR.resolve("broken-base.yaml")));
    assertEquals(List.of(DIR.resolve("broken-base.yaml") + ":5:26: cluster.nodePools[1].count: expected an integer, "
        + "got 'many'"), e.problems().stream().map(Problem::toString).toList());
  }

  @Test
  void includeCycle_isAnErrorAtTheInclude() {
    ScenarioException e = assertThrows(ScenarioException.class,
        () -> ScenarioLoader.load(DIR.resolve("cycle-a.yaml")));
    String a = DIR.resolve("cycle-a.yaml").toString();
    String b = DIR.resolve("cycle-b.yaml").toString();
    assertEquals(List.of(b + ":1:22: include[1]: include cycle: " + a + " -> " + b + " -> " + a),
        e.problems().stream().map(Problem::toString).toList());
  }

  @Test
  void missingInclude_isAnErrorAtTheInclude() {
    ScenarioException e = assertThrows(ScenarioException.class,
        () -> ScenarioLoader.load(DIR.resolve("missing.yaml")));
    assertEquals(List.of(DIR.resolve("missing.yaml") + ":1:22: include[1]: cannot include 'nowhere.yaml': no such file ("
        + DIR.resolve("nowhere.yaml") + ")"), e.problems().stream().map(Problem::toString).toList());
  }

  @Test
  void includeFromMemory_isRelativeToTheNamedFile() throws Exception {
    SimulationSpec s = ScenarioLoader.parse(DIR.resolve("inline.yaml").toString(),
        "include: base.yaml\nname: inline\n").spec();
    assertEquals("inline", s.name());
    assertEquals(2, s.clusterQueues().size());
  }
}
