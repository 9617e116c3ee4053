package batchsim.scenarios;

import static batchsim.scenarios.ScenarioProblemsTest.problems;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** What binds cleanly but can never mean what it says: refused at load time, located. */
class SemanticRefusalsTest {
  /** Two 8-cpu nodes, quota for them, one class of 1-cpu pods; cases append one part (line 12 onwards). */
  private static final String BASE = """
      name: t
      horizon: 1h
      cluster: {nodePools: [{name: gpu, count: 2, allocatable: {cpu: 8, nvidia.com/gpu: 4}}]}
      resourceFlavors: [{name: f}]
      clusterQueues:
        - {name: cq, resourceGroups: [{coveredResources: [cpu, nvidia.com/gpu], flavors: [{name: f,
           resources: [{name: cpu, nominalQuota: 16}, {name: nvidia.com/gpu, nominalQuota: 8}]}]}]}
      localQueues: [{name: lq, clusterQueue: cq}]
      workloads:
        classes:
          - {name: w, queue: lq, arrival: {every: 10m}, count: 3, runtime: 5m, podSets: [{requests: {cpu: 1}}]}
      """;

  @Test
  void failNodes_countMoreThanThePoolEverHas() {
    assertEquals(List.of("t.yaml:12:49: events[0].failNodes.count: count 7 is more than pool gpu ever has: 2 nodes "
        + "and no addNodes event or autoscaling adds any"),
        problems("t.yaml", BASE + "events: [{at: 5m, failNodes: {pool: gpu, count: 7}}]\n"));
  }

  @Test
  void failNodes_countIsFineWhenThePoolGrows() throws Exception {
    ScenarioLoader.parse("t.yaml", BASE + "events: [{at: 1m, addNodes: {pool: gpu, count: 5}},\n"
        + "  {at: 5m, failNodes: {pool: gpu, count: 7}}]\n");
  }

  @Test
  void failNodes_aNamedNodeThatNeverExists() {
    assertEquals(List.of("t.yaml:12:39: events[0].failNodes.nodes[0]: node gpu-7 never exists: pool gpu has 2 nodes "
        + "(gpu-0 .. gpu-1) and no addNodes event or autoscaling adds any"),
        problems("t.yaml", BASE + "events: [{at: 5m, failNodes: {nodes: [gpu-7]}}]\n"));
  }

  @Test
  void recurringEvent_every0s_isRefusedAsAClassIs() {
    assertEquals(List.of("t.yaml:12:26: events[0].every: every 0s never advances time; give a positive interval, "
        + "or leave every out for a one-off event"),
        problems("t.yaml", BASE + "events: [{at: 5m, every: 0s, failNodes: {pool: gpu, count: 1}}]\n"));
    assertEquals(List.of("t.yaml:12:26: events[0].every: every 0s never advances time; give a positive interval, "
        + "or leave every out for a one-off event"),
        problems("t.yaml", BASE + "events: [{at: 5m, every: {uniform: {min: 0s, max: 0s}}, failNodes: {pool: gpu}}]\n"));
  }

  @Test
  void aClassNeedingAResourceNoNodeHas() {
    String yaml = BASE.replace("{cpu: 8, nvidia.com/gpu: 4}", "{cpu: 8}");
    assertEquals(List.of("t.yaml:11:14: workloads.classes[0].name: workload class 'w' can never run: pod set 'main' "
        + "needs nvidia.com/gpu, no node has it"),
        problems("t.yaml", yaml.replace("requests: {cpu: 1}", "requests: {cpu: 1, nvidia.com/gpu: 1}")));
  }

  @Test
  void aPodLargerThanEveryNode_isLeftToTheRun() throws Exception {
    // Kueue admits it by quota and its pods wait: waitForPodsReady scenarios rely on that
    ScenarioLoader.parse("t.yaml", BASE + "  list:\n    - {name: big, queue: lq, runtime: 1m, podSets: [{requests: {cpu: 9}}]}\n");
  }

  @Test
  void aPoolWithCountAndTopologyShape() {
    List<String> p = problems("t.yaml", TopologyBinderTest.TOP.replace("{name: gpu, topology:", "{name: gpu, count: 24, topology:")
        + "workloads: {list: [{name: w, queue: q, runtime: 1h, podSets: [{requests: {nvidia.com/gpu: 1}}]}]}\n");
    assertEquals(List.of("t.yaml:6:26: cluster.nodePools[0].count: give either count or topology.shape, not both: the "
        + "shape makes 24 nodes; leave count out"), p);
  }

  @Test
  void aSliceSizeThatDoesNotDivideThePodCount_orExceedsIt() {
    String tas = TopologyBinderTest.TOP + "workloads:\n  list:\n";
    List<String> p = problems("t.yaml", tas
        + "    - {name: a, queue: q, runtime: 1h, podSets: [{count: 6, requests: {nvidia.com/gpu: 1}, "
        + "topology: {sliceLevel: example.com/rack, sliceSize: 4}}]}\n"
        + "    - {name: b, queue: q, runtime: 1h, podSets: [{count: 2, requests: {nvidia.com/gpu: 1}, "
        + "topology: {slices: [{level: example.com/rack, size: 4}]}}]}\n");
    assertEquals(List.of(
        "t.yaml:17:144: workloads.list[0].podSets[0].topology.sliceSize: slice size 4 does not divide the pod set count 6: "
            + "every pod must be in a whole slice; use a divisor of 6 or change count",
        "t.yaml:18:144: workloads.list[1].podSets[0].topology.slices[0].size: slice size 4 must not be greater than pod "
            + "set count 2 (Kueue's webhook refuses it)"), p);
  }
}
