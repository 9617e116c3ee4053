package batchsim.scenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.core.model.ClusterQueueSpec;
import batchsim.core.model.QueueObjectAction;
import batchsim.core.model.SimulationSpec;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Binding of the queue-object timeline actions: objects created later join the run, patches and checks. */
class QueueObjectActionsTest {
  private static final String BASE = String.join("\n",
      "name: t",
      "cluster:",
      "  nodePools:",
      "    - {name: gpu, count: 2, allocatable: {cpu: 8, memory: 8Gi, nvidia.com/gpu: 8, example.com/fpga: 1}}",
      "resourceFlavors:",
      "  - {name: a100}",
      "clusterQueues:",
      "  - name: team-a",
      "    resourceGroups:",
      "      - coveredResources: [nvidia.com/gpu]",
      "        flavors: [{name: a100, resources: [{name: nvidia.com/gpu, nominalQuota: 8}]}]",
      "localQueues:",
      "  - {name: a, clusterQueue: team-a}",
      "workloads:",
      "  classes:",
      "    - {name: train, queue: b, arrival: {every: 1m}, count: 3, runtime: 1h,",
      "       podSets: [{count: 1, requests: {nvidia.com/gpu: 1, example.com/fpga: 1}}]}",
      "events:",
      "  - at: 1h",
      "    createClusterQueue:",
      "      name: team-b",
      "      cohortName: pool",
      "      resourceGroups:",
      "        - coveredResources: [nvidia.com/gpu, example.com/fpga]",
      "          flavors: [{name: fpga, resources: [{name: nvidia.com/gpu, nominalQuota: 8},",
      "                                             {name: example.com/fpga, nominalQuota: 2}]}]",
      "  - {at: 1h, createLocalQueue: {name: b, clusterQueue: team-b}}",
      "  - {at: 30m, createResourceFlavor: {name: fpga}}",
      "");

  private static SimulationSpec load(String extra) throws Exception {
    return ScenarioLoader.parse("t.yaml", BASE + extra).spec();
  }

  private static List<String> problems(String extra) {
    ScenarioException e = assertThrows(ScenarioException.class, () -> load(extra));
    return e.problems().stream().map(Object::toString).toList();
  }

  @Test
  void createdObjects_joinTheRun_absentUntilTheirCreate() throws Exception {
    SimulationSpec s = load("");
    assertEquals(List.of("team-a", "team-b"), s.clusterQueues().stream().map(ClusterQueueSpec::name).toList());
    assertEquals(List.of("a100", "fpga"), s.flavors().stream().map(f -> f.name()).toList());
    assertTrue(s.resources().names().contains("example.com/fpga"), s.resources().names().toString());
    assertEquals(Set.of("ClusterQueue team-b", "LocalQueue b", "ResourceFlavor fpga"),
        QueueObjectAction.createdLater(s.timeline()));
    // the cohort a created ClusterQueue names exists implicitly
    assertTrue(s.cohorts().stream().anyMatch(c -> c.name().equals("pool")));
  }

  @Test
  void update_isAPatchOfTheFieldsGiven() throws Exception {
    SimulationSpec s = load(String.join("\n",
        "  - {at: 2h, updateClusterQueue: {name: team-a, cohortName: pool, fairSharing: {weight: 2},",
        "                                  stopPolicy: HoldAndDrain}}",
        ""));
    var u = assertInstanceOf(QueueObjectAction.UpdateClusterQueue.class, s.timeline().get(3).action());
    assertEquals(Set.of("cohortName", "fairSharing", "stopPolicy"), u.fields());
    assertEquals("pool", u.patch().cohort());
    assertEquals(2.0, u.patch().fairWeight());
    assertEquals(batchsim.core.model.ClusterAction.StopPolicy.HOLD_AND_DRAIN, u.stopPolicy());
  }

  @Test
  void objectsThatDoNotExistAtTheirTime_areRefusedWithTheirLocation() {
    List<String> p = problems(String.join("\n",
        "  - {at: 10m, setQuota: {clusterQueue: team-b, flavor: fpga, resource: example.com/fpga, nominalQuota: 4}}",
        "  - {at: 3h, createClusterQueue: {name: team-a}}",
        "  - {at: 4h, deleteCohort: {name: pool}}",
        ""));
    assertEquals(List.of(
        "t.yaml:29:5: events[3]: ClusterQueue team-b does not exist at this time (deleted earlier, or created later)",
        "t.yaml:30:5: events[4]: ClusterQueue team-a already exists at this time",
        "t.yaml:31:5: events[5]: Cohort pool does not exist at this time (deleted earlier, or created later)"), p);
  }

  @Test
  void patchesAreCheckedAgainstTheScenario() {
    List<String> p = problems(String.join("\n",
        "  - {at: 2h, updateClusterQueue: {name: team-c, fairSharing: {weight: 2}}}",
        "  - {at: 2h, updateClusterQueue: {name: team-a}}",
        "  - at: 2h",
        "    updateClusterQueue:",
        "      name: team-a",
        "      admissionChecks: [prov]",
        "      resourceGroups:",
        "        - coveredResources: [nvidia.com/gpu]",
        "          flavors: [{name: h100, resources: [{name: nvidia.com/gpu, nominalQuota: 8}]}]",
        "  - {at: 2h, createLocalQueue: {name: a, clusterQueue: team-b}}",
        ""));
    assertEquals(5, p.size(), p.toString());
    assertTrue(p.get(0).startsWith("t.yaml:29:41: events[3].updateClusterQueue.name: unknown ClusterQueue 'team-c'"),
        p.get(0));
    assertTrue(p.get(1).startsWith("t.yaml:30:34: events[4].updateClusterQueue: an update needs at least one field"),
        p.get(1));
    assertTrue(p.stream().anyMatch(x -> x.contains("unknown AdmissionCheck 'prov'")), p.toString());
    assertTrue(p.stream().anyMatch(x -> x.contains("unknown ResourceFlavor 'h100'")), p.toString());
    assertTrue(p.stream().anyMatch(x -> x.contains("a LocalQueue's clusterQueue cannot change")), p.toString());
  }
}
