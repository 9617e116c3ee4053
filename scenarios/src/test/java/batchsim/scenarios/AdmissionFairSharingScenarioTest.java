package batchsim.scenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.core.model.AdmissionFairSharing;
import batchsim.core.model.AdmissionMode;
import batchsim.core.model.SimulationSpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** kueue.admissionFairSharing and a ClusterQueue's admissionScope from YAML, with Kueue's validation. */
class AdmissionFairSharingScenarioTest {
  private static String scenario(String afs, String scope, String events) {
    return String.join("\n",
        "name: afs",
        "cluster:",
        "  nodePools:",
        "    - {name: gpu, count: 1, allocatable: {cpu: 64, memory: 64Gi, nvidia.com/gpu: 8}}",
        "kueue:",
        afs,
        "resourceFlavors:",
        "  - {name: a100}",
        "clusterQueues:",
        "  - name: ml",
        scope,
        "    resourceGroups:",
        "      - coveredResources: [nvidia.com/gpu]",
        "        flavors: [{name: a100, resources: [{name: nvidia.com/gpu, nominalQuota: 8}]}]",
        "localQueues:",
        "  - {name: ml, clusterQueue: ml, fairSharing: {weight: 4}}",
        "workloads:",
        "  list:",
        "    - {name: w, queue: ml, at: 0s, runtime: 1h, podSets: [{count: 1, requests: {nvidia.com/gpu: 8}}]}",
        events,
        "");
  }

  private static SimulationSpec spec(String afs, String scope, String events) throws Exception {
    return ScenarioLoader.parse("t.yaml", scenario(afs, scope, events)).spec();
  }

  private static List<String> problems(String afs, String scope, String events) {
    ScenarioException e = assertThrows(ScenarioException.class, () -> spec(afs, scope, events));
    return e.problems().stream().map(Object::toString).toList();
  }

  private static final String SCOPE = "    admissionScope: {admissionMode: UsageBasedAdmissionFairSharing}";

  @Test
  void block_bindsKueuesFieldsAndDefaults() throws Exception {
    SimulationSpec s = spec("  admissionFairSharing: {usageHalfLifeTime: 1h, resourceWeights: {nvidia.com/gpu: 2}}",
        SCOPE, "");
    AdmissionFairSharing a = s.kueue().admissionFairSharing();
    assertEquals(3_600_000, a.usageHalfLifeMs());
    assertEquals(AdmissionFairSharing.DEFAULT_SAMPLING_MS, a.usageSamplingMs());
    assertEquals(Map.of("nvidia.com/gpu", 2.0), a.resourceWeights());
    assertEquals(AdmissionMode.USAGE_BASED_ADMISSION_FAIR_SHARING, s.clusterQueues().get(0).admissionMode());
    assertEquals(4.0, s.localQueues().get(0).fairWeight());
  }

  @Test
  void featureGateOff_orNoBlock_turnsItOff() throws Exception {
    assertNull(spec("  featureGates: {AdmissionFairSharing: false}\n  admissionFairSharing: {usageHalfLifeTime: 1h}",
        SCOPE, "").kueue().admissionFairSharing());
    assertNull(spec("  terminationGracePeriod: 0s", "", "").kueue().admissionFairSharing());
  }

  @Test
  void badValues_areLocatedProblems() {
    List<String> p = problems("  admissionFairSharing: {usageSamplingInterval: 0s, resourceWeights: {cpu: -1}, x: 1}",
        "    admissionScope: {admissionMode: Usage}", "");
    String all = String.join("\n", p);
    assertTrue(all.contains("usageHalfLifeTime"), all);
    assertTrue(all.contains("usageSamplingInterval must be greater than 0"), all);
    assertTrue(all.contains("'x'") || all.contains(" x"), all);
    assertTrue(all.contains("UsageBasedAdmissionFairSharing"), all);
    assertTrue(p.stream().allMatch(s -> s.startsWith("t.yaml:")), all);
  }

  @Test
  void updateClusterQueue_refusesAdmissionScope() {
    String all = String.join("\n", problems("  admissionFairSharing: {usageHalfLifeTime: 1h}", SCOPE, String.join("\n",
        "events:",
        "  - {at: 1m, updateClusterQueue: {name: ml, admissionScope: {admissionMode: NoAdmissionFairSharing}}}")));
    assertTrue(all.contains("admissionScope cannot be changed by updateClusterQueue"), all);
  }
}
