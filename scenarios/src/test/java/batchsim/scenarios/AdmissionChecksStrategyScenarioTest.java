package batchsim.scenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.core.metrics.RunResult;
import batchsim.core.metrics.WorkloadRecord;
import batchsim.core.model.QueueObjectAction;
import batchsim.core.sim.Simulation;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** A ClusterQueue's admissionChecksStrategy from YAML: a check that applies to one flavor only, and its refusals. */
class AdmissionChecksStrategyScenarioTest {
  private static final long MIN = 60_000;

  private static String scenario(String checks) {
    return String.join("\n",
        "name: strategy",
        "cluster:",
        "  nodePools:",
        "    - {name: fixed, count: 1, labels: {pool: fixed}, allocatable: {cpu: 64, memory: 256Gi, nvidia.com/gpu: 8}}",
        "    - {name: spot, count: 0, labels: {pool: spot}, allocatable: {cpu: 64, memory: 256Gi, nvidia.com/gpu: 8}}",
        "autoscaling:",
        "  - {pool: spot, min: 0, max: 2}",
        "admissionChecks:",
        "  - {name: prov, provisioningRequest: {pool: spot, delay: 5m}}",
        "  - {name: audit}",
        "resourceFlavors:",
        "  - {name: reserved, nodeLabels: {pool: fixed}}",
        "  - {name: spot, nodeLabels: {pool: spot}}",
        "clusterQueues:",
        "  - name: ml",
        checks,
        "    resourceGroups:",
        "      - coveredResources: [nvidia.com/gpu]",
        "        flavors:",
        "          - {name: reserved, resources: [{name: nvidia.com/gpu, nominalQuota: 8}]}",
        "          - {name: spot, resources: [{name: nvidia.com/gpu, nominalQuota: 8}]}",
        "localQueues:",
        "  - {name: ml, clusterQueue: ml}",
        "workloads:",
        "  list:",
        "    - {name: first, queue: ml, at: 0s, runtime: 1h, podSets: [{count: 1, requests: {nvidia.com/gpu: 8}}]}",
        "    - {name: second, queue: ml, at: 0s, runtime: 1h, podSets: [{count: 1, requests: {nvidia.com/gpu: 8}}]}",
        "");
  }

  private static List<String> problems(String checks) {
    ScenarioException e = assertThrows(ScenarioException.class,
        () -> ScenarioLoader.parse("t.yaml", scenario(checks)).spec());
    return e.problems().stream().map(Object::toString).toList();
  }

  @Test
  void provisioningOnSpotOnly() throws Exception {
    String yaml = scenario(String.join("\n",
        "    admissionChecksStrategy:",
        "      admissionChecks:",
        "        - {name: prov, onFlavors: [spot]}"));
    RunResult r = new Simulation(ScenarioLoader.parse("t.yaml", yaml).spec()).checked(true).run();
    Map<String, WorkloadRecord> w = r.workloads().stream()
        .collect(Collectors.toMap(WorkloadRecord::id, Function.identity()));
    assertEquals(0, w.get("first").admittedMs(), "reserved: no check applies");
    assertEquals(5 * MIN, w.get("second").admittedMs(), "spot: admitted when its ProvisioningRequest is Provisioned");
    assertEquals("FINISHED", w.get("second").state());
    assertEquals(1, r.provisioning().requests());
  }

  @Test
  void timelineUpdate_setsTheStrategy() throws Exception {
    String yaml = scenario("    admissionChecks: [audit]") + String.join("\n",
        "events:",
        "  - {at: 1h, updateClusterQueue: {name: ml, admissionChecksStrategy: {admissionChecks: [{name: prov, "
            + "onFlavors: [spot]}]}}}",
        "");
    var update = (QueueObjectAction.UpdateClusterQueue) ScenarioLoader.parse("t.yaml", yaml).spec().timeline().get(0)
        .action();
    assertTrue(update.fields().contains("admissionChecks"));
    assertEquals(List.of("prov"), update.patch().admissionChecks());
    assertEquals(Map.of("prov", List.of("spot")), update.patch().checkFlavors());
  }

  @Test
  void refusals_areLocated() {
    List<String> p = problems(String.join("\n",
        "    admissionChecks: [prov]",
        "    admissionChecksStrategy: {admissionChecks: [{name: prov}]}"));
    assertTrue(p.stream().anyMatch(x -> x.startsWith("t.yaml:17:5: ")
        && x.contains("give either 'admissionChecks' or 'admissionChecksStrategy', not both")), p.toString());
    p = problems("    admissionChecksStrategy: {admissionChecks: [{name: nope}, {name: audit, onFlavors: [gpu]}]}");
    assertTrue(p.stream().anyMatch(x -> x.startsWith("t.yaml:16:56: ") && x.contains("admission check 'nope'")),
        p.toString());
    assertTrue(p.stream().anyMatch(x -> x.startsWith("t.yaml:16:89: ")
        && x.contains("onFlavors: 'gpu' is not a flavor of this ClusterQueue's resourceGroups (its flavors: reserved, "
        + "spot)")), p.toString());
  }
}
