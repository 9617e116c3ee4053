package batchsim.scenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.core.model.ClusterAction;
import batchsim.core.model.NodeAction;
import batchsim.core.model.SimulationSpec;
import batchsim.core.model.Taint;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The node-by-name actions' YAML: what binds, and names or labels refused where they are written. */
class NodeActionsTest {
  private static final String BASE = String.join("\n",
      "name: t",
      "cluster:",
      "  nodePools:",
      "    - {name: gpu, count: 2, allocatable: {cpu: 8, memory: 8Gi, nvidia.com/gpu: 8}}",
      "    - {name: gpu-spot, count: 1, allocatable: {cpu: 8, memory: 8Gi, nvidia.com/gpu: 8}}",
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
      "  list: [{name: w, queue: a, runtime: 1h, podSets: [{requests: {nvidia.com/gpu: 1}}]}]",
      "");

  private static SimulationSpec load(String extra) throws Exception {
    return ScenarioLoader.parse("t.yaml", BASE + extra).spec();
  }

  private static List<String> problems(String extra) {
    ScenarioException e = assertThrows(ScenarioException.class, () -> load(extra));
    return e.problems().stream().map(Object::toString).toList();
  }

  @Test
  void everyActionBinds() throws Exception {
    SimulationSpec s = load(String.join("\n",
        "events:",
        "  - {at: 1m, setNodeNotReady: {nodes: [gpu-0]}}",
        "  - {at: 2m, setNodeReady: {nodes: [gpu-0, gpu-spot-0]}}",
        "  - {at: 3m, taintNodes: {nodes: [gpu-1], key: maintenance, value: 'true', effect: NoExecute}}",
        "  - {at: 4m, untaintNodes: {nodes: [gpu-1], key: maintenance}}",
        "  - {at: 5m, labelNodes: {nodes: [gpu-1], labels: {zone: a, tier: gold}}}",
        "  - {at: 6m, unlabelNodes: {nodes: [gpu-1], keys: [zone]}}",
        "  - {at: 7m, deleteNodes: {nodes: [gpu-spot-0]}}",
        ""));
    List<ClusterAction> a = s.timeline().stream().map(e -> e.action()).toList();
    assertEquals(new NodeAction.SetReady(List.of("gpu-0"), false), a.get(0));
    assertEquals(new NodeAction.SetReady(List.of("gpu-0", "gpu-spot-0"), true), a.get(1));
    assertEquals(new NodeAction.SetTaint(List.of("gpu-1"), new Taint("maintenance", "true", "NoExecute"), true), a.get(2));
    var untaint = assertInstanceOf(NodeAction.SetTaint.class, a.get(3));
    assertNull(untaint.taint().effect(), "no effect: every effect of the key");
    assertEquals(java.util.Map.of("tier", "gold", "zone", "a"), assertInstanceOf(NodeAction.SetLabels.class, a.get(4)).labels());
    assertTrue(assertInstanceOf(NodeAction.SetLabels.class, a.get(5)).labels().containsKey("zone"));
    assertNull(assertInstanceOf(NodeAction.SetLabels.class, a.get(5)).labels().get("zone"), "null: removed");
    assertEquals(new NodeAction.Delete(List.of("gpu-spot-0")), a.get(6));
  }

  @Test
  void namesNoNodeCanEverHave_areRefusedWhereWritten() {
    List<String> p = problems(String.join("\n",
        "events:",
        "  - {at: 1m, setNodeNotReady: {nodes: [gpu-2]}}",
        "  - {at: 1m, deleteNodes: {nodes: [cpu-0]}}",
        "  - {at: 1m, cordonNodes: {nodes: [gpu-07]}}",
        "  - {at: 1m, failNodes: {pool: gpu, nodes: [gpu-0]}}",
        "  - {at: 1m, taintNodes: {nodes: [gpu-0, gpu-0], key: k, effect: Sometimes}}",
        "  - {at: 1m, drainNodes: {nodes: []}}",
        ""));
    assertEquals(List.of(
        "t.yaml:18:40: events[0].setNodeNotReady.nodes[0]: node gpu-2 never exists: pool gpu has 2 nodes "
            + "(gpu-0 .. gpu-1) and no addNodes event or autoscaling adds any",
        "t.yaml:19:36: events[1].deleteNodes.nodes[0]: unknown node 'cpu-0': nodes are named <pool>-<number> "
            + "(pools: gpu, gpu-spot)",
        "t.yaml:20:36: events[2].cordonNodes.nodes[0]: unknown node 'gpu-07': nodes are named <pool>-<number> "
            + "(pools: gpu, gpu-spot)",
        "t.yaml:21:37: events[3].failNodes.nodes: give either 'pool' or 'nodes', not both",
        "t.yaml:22:42: events[4].taintNodes.nodes[1]: node gpu-0 is named twice",
        "t.yaml:22:66: events[4].taintNodes.effect: 'Sometimes' is not one of NoSchedule, PreferNoSchedule, NoExecute",
        "t.yaml:23:34: events[5].drainNodes.nodes: must not be empty"), p);
  }

  @Test
  void aGrowingPool_mayNameNodesBeyondItsCount_checkedWhenApplied() throws Exception {
    SimulationSpec s = load(String.join("\n",
        "events:",
        "  - {at: 1m, addNodes: {pool: gpu, count: 1}}",
        "  - {at: 2m, setNodeNotReady: {nodes: [gpu-2, gpu-5]}}",
        ""));
    assertEquals(2, s.timeline().size());
  }

  @Test
  void topologyLevelsAndTasFlavorLabels_cannotBeChanged() {
    ScenarioException e = assertThrows(ScenarioException.class, () -> ScenarioLoader.parse("t.yaml",
        TopologyBinderTest.TOP + String.join("\n",
            "workloads: {list: [{name: w, queue: q, runtime: 1h, podSets: [{requests: {nvidia.com/gpu: 1}}]}]}",
            "events:",
            "  - {at: 1m, labelNodes: {nodes: [gpu-b0-r0-0], labels: {example.com/rack: r9, pool: cpu, ok: 'yes'}}}",
            "  - {at: 1m, unlabelNodes: {nodes: [gpu-b0-r0-0], keys: [kubernetes.io/hostname]}}",
            "")));
    List<String> p = e.problems().stream().map(Object::toString).toList();
    assertTrue(p.stream().anyMatch(x -> x.contains("labelNodes.labels.example.com/rack") || x.contains(
        "label example.com/rack is a level of topology dc: changing it mid-run would move the node between "
            + "topology domains")), p.toString());
    assertTrue(p.stream().anyMatch(x -> x.contains("label pool is a node label of TAS flavor tas")), p.toString());
    assertTrue(p.stream().anyMatch(x -> x.contains("label kubernetes.io/hostname is the node's name")), p.toString());
    assertTrue(p.stream().noneMatch(x -> x.contains("label ok")), p.toString());
  }
}
