package batchsim.scenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.core.model.ClusterAction;
import batchsim.core.model.SimulationSpec;
import batchsim.core.model.WorkloadAction;
import batchsim.core.model.WorkloadAction.CheckVerdict;
import batchsim.core.model.WorkloadAction.ProvisioningCondition;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The workload actions' YAML: what each key binds to, and the names no source can produce, located. */
class WorkloadActionsBindTest {
  private static final String BASE = String.join("\n",
      "name: t",
      "cluster:",
      "  nodePools:",
      "    - {name: gpu, count: 2, allocatable: {cpu: 8, memory: 8Gi, nvidia.com/gpu: 8}}",
      "admissionChecks:",
      "  - {name: prov, provisioningRequest: {class: check-capacity, pool: gpu, delay: 1m}}",
      "resourceFlavors:",
      "  - {name: a100}",
      "clusterQueues:",
      "  - name: team-a",
      "    admissionChecks: [prov]",
      "    resourceGroups:",
      "      - coveredResources: [nvidia.com/gpu]",
      "        flavors: [{name: a100, resources: [{name: nvidia.com/gpu, nominalQuota: 8}]}]",
      "localQueues:",
      "  - {name: team-a/a, clusterQueue: team-a}",
      "  - {name: team-a/b, clusterQueue: team-a}",
      "priorityClasses:",
      "  - {name: high, value: 1000}",
      "workloads:",
      "  classes:",
      "    - {name: train, queue: team-a/a, arrival: {every: 1m}, count: 3, runtime: 1h,",
      "       podSets: [{count: 1, requests: {nvidia.com/gpu: 1}}]}",
      "  list:",
      "    - {name: bench, queue: team-a/a, at: 1h, runtime: 1h, podSets: [{count: 1, requests: {nvidia.com/gpu: 1}}]}",
      "");

  private static SimulationSpec load(String extra) throws Exception {
    return ScenarioLoader.parse("t.yaml", BASE + extra).spec();
  }

  private static List<String> problems(String extra) {
    ScenarioException e = assertThrows(ScenarioException.class, () -> load(extra));
    return e.problems().stream().map(Object::toString).toList();
  }

  private static void assertProblem(List<String> p, String at, String text) {
    assertTrue(p.stream().anyMatch(x -> x.startsWith("t.yaml:" + at + ": ") && x.contains(text)), at + " " + text + " in " + p);
  }

  @Test
  void everyKey_bindsToItsWorkloadAction() throws Exception {
    SimulationSpec s = load(String.join("\n",
        "events:",
        "  - {at: 1h, finishWorkload: {workload: train-3}}",
        "  - {at: 1h, failWorkload: {workload: team-a/train-1}}",
        "  - {at: 1h, deleteWorkload: {workload: bench}}",
        "  - {at: 1h, deactivateWorkload: {workload: team-a/bench}}",
        "  - {at: 1h, activateWorkload: {workload: bench}}",
        "  - {at: 1h, setWorkloadPriority: {workload: bench, priorityClass: high}}",
        "  - {at: 1h, setWorkloadPriority: {workload: bench, priority: -5}}",
        "  - {at: 1h, moveWorkload: {workload: bench, localQueue: team-a/b}}",
        "  - {at: 1h, setAdmissionCheck: {workload: bench, check: prov, state: Retry, message: later}}",
        "  - {at: 1h, setProvisioningRequest: {workload: bench, condition: CapacityRevoked}}",
        ""));
    List<ClusterAction> a = s.timeline().stream().map(e -> e.action()).toList();
    assertEquals(List.of(new WorkloadAction.Finish("train-3", true), new WorkloadAction.Finish("team-a/train-1", false),
        new WorkloadAction.Delete("bench"), new WorkloadAction.SetActive("team-a/bench", false),
        new WorkloadAction.SetActive("bench", true), new WorkloadAction.SetPriority("bench", 1000, "high"),
        new WorkloadAction.SetPriority("bench", -5, null), new WorkloadAction.Move("bench", "team-a/b"),
        new WorkloadAction.SetCheckState("bench", "prov", CheckVerdict.RETRY, "later"),
        new WorkloadAction.SetProvisioningCondition("bench", null, ProvisioningCondition.CAPACITY_REVOKED)), a);
  }

  @Test
  void namesNoSourceProduces_andUnknownReferences_areLocatedProblems() {
    List<String> p = problems(String.join("\n",
        "events:",
        "  - {at: 1h, finishWorkload: {workload: train-4}}",
        "  - {at: 1h, finishWorkload: {workload: train-0}}",
        "  - {at: 1h, deleteWorkload: {workload: other/bench}}",
        "  - {at: 1h, moveWorkload: {workload: bench, localQueue: team-a/c}}",
        "  - {at: 1h, setWorkloadPriority: {workload: bench, priorityClass: low}}",
        "  - {at: 1h, setWorkloadPriority: {workload: bench, priority: 1, priorityClass: high}}",
        "  - {at: 1h, setAdmissionCheck: {workload: bench, check: gate, state: Ready}}",
        "  - {at: 1h, setAdmissionCheck: {workload: bench, check: prov, state: Done}}",
        "  - {at: 1h, setProvisioningRequest: {workload: bench, condition: Gone}}",
        "  - {at: 1h, activateWorkload: {}}",
        ""));
    assertProblem(p, "27:41", "unknown workload 'train-4': no listed workload, workload class or trace produces it"
        + " (known: bench, team-a/bench, train-N)");
    assertProblem(p, "28:41", "unknown workload 'train-0'");
    assertProblem(p, "29:41", "unknown workload 'other/bench'");
    assertProblem(p, "30:58", "unknown LocalQueue 'team-a/c'");
    assertProblem(p, "31:68", "unknown priority class 'low' (known: high)");
    assertProblem(p, "32:35", "setWorkloadPriority needs exactly one of priority, priorityClass");
    assertProblem(p, "33:58", "unknown admission check (of any ClusterQueue) 'gate' (known: prov)");
    assertProblem(p, "34:71", "Done");
    assertProblem(p, "35:67", "Gone");
    assertProblem(p, "36:32", "missing required field 'workload'");
  }

  @Test
  void underVolcano_theWorkloadActionsAreRefusedByName() {
    List<String> p = problems(String.join("\n",
        "scheduler: volcano",
        "events:",
        "  - {at: 1h, deactivateWorkload: {workload: bench}}",
        "  - {at: 1h, setAdmissionCheck: {workload: bench, check: prov, state: Ready}}",
        ""));
    assertProblem(p, "28:14", "deactivateWorkload is not supported under scheduler: volcano");
    assertProblem(p, "29:14", "setAdmissionCheck is not supported under scheduler: volcano");
  }
}
