package batchsim.scenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.core.model.ClusterAction;
import batchsim.core.model.SimulationSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

class TimelineBinderTest {
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
      "  - {name: a, clusterQueue: team-a}",
      "workloads:",
      "  classes:",
      "    - {name: train, queue: a, arrival: {every: 1m}, count: 3, runtime: 1h,",
      "       podSets: [{count: 1, requests: {nvidia.com/gpu: 1}}]}",
      "");

  private static SimulationSpec load(String extra) throws Exception {
    return ScenarioLoader.parse("t.yaml", BASE + extra).spec();
  }

  private static List<String> problems(String extra) {
    ScenarioException e = assertThrows(ScenarioException.class, () -> load(extra));
    return e.problems().stream().map(Object::toString).toList();
  }

  @Test
  void events_bindToTimelineActionsInOrder() throws Exception {
    SimulationSpec s = load(String.join("\n",
        "events:",
        "  - {at: 36h, failNodes: {pool: gpu, count: 1, for: 4h}}",
        "  - {at: 1h, every: 30m, until: 3h, drainNodes: {nodes: [gpu-1]}}",
        "  - {at: 2h, setQuota: {clusterQueue: team-a, flavor: a100, resource: nvidia.com/gpu, nominalQuota: 16}}",
        "  - {at: 3h, stopClusterQueue: {name: team-a, policy: HoldAndDrain}}",
        "  - {at: 4h, deleteLocalQueue: {name: a}}",
        "  - {at: 5h, scaleArrivals: {class: train, factor: 2}}",
        "failures:",
        "  - {pool: gpu, timeBetweenFailures: {exponential: {mean: 10d}}, repairTime: 4h}",
        "kueue:",
        "  waitForPodsReady: {timeout: 10m, requeuingStrategy: {backoffLimitCount: 3}}",
        ""));
    assertEquals(6, s.timeline().size());
    var fail = assertInstanceOf(ClusterAction.FailNodes.class, s.timeline().get(0).action());
    assertEquals(36 * 3_600_000L, s.timeline().get(0).atMs());
    assertEquals(4 * 3_600_000L, fail.repairAfter().sample(new java.util.SplittableRandom(1)));
    var drain = assertInstanceOf(ClusterAction.CordonNodes.class, s.timeline().get(1).action());
    assertTrue(drain.drain());
    assertNotNull(s.timeline().get(1).every());
    assertEquals(3 * 3_600_000L, s.timeline().get(1).untilMs());
    var quota = assertInstanceOf(ClusterAction.SetQuota.class, s.timeline().get(2).action());
    assertEquals(16, quota.quota().nominal());
    assertEquals(ClusterAction.StopPolicy.HOLD_AND_DRAIN,
        assertInstanceOf(ClusterAction.StopQueue.class, s.timeline().get(3).action()).policy());
    assertEquals(1, s.failureModels().size());
    assertEquals(600_000, s.kueue().waitForPodsReady().timeoutMs());
    assertEquals(3, s.kueue().waitForPodsReady().backoffLimitCount());
  }

  @Test
  void events_badReferencesAndValues_areLocatedProblems() {
    List<String> p = problems(String.join("\n",
        "events:",
        "  - {at: 1h, failNodes: {pool: cpu, count: 1}}",
        "  - {at: 2h, setQuota: {clusterQueue: team-x, flavor: a100, resource: nvidia.com/gpu, nominalQuota: 2}}",
        "  - {at: soon, addNodes: {pool: gpu}}",
        "  - {at: 3h, explodeNodes: {pool: gpu}}",
        "serving:",
        "  - {name: web, queue: nope, up: 5m, down: 1m}",
        ""));
    assertTrue(p.stream().anyMatch(x -> x.startsWith("t.yaml:19:32: ") && x.contains("unknown node pool 'cpu'")), p.toString());
    assertTrue(p.stream().anyMatch(x -> x.startsWith("t.yaml:20:39: ") && x.contains("unknown ClusterQueue 'team-x'")), p.toString());
    assertTrue(p.stream().anyMatch(x -> x.startsWith("t.yaml:21:10: ") && x.contains("'soon' is not a duration")), p.toString());
    assertTrue(p.stream().anyMatch(x -> x.startsWith("t.yaml:22:14: ") && x.contains("unknown key 'explodeNodes'")), p.toString());
    assertTrue(p.stream().anyMatch(x -> x.startsWith("t.yaml:24:24: ") && x.contains("unknown LocalQueue 'nope'")), p.toString());
  }
}
