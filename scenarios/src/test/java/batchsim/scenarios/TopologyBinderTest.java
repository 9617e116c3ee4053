package batchsim.scenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.core.model.NodePoolSpec;
import batchsim.core.model.PodSetSpec;
import batchsim.core.model.SimulationSpec;
import batchsim.core.model.TopologyRequest;
import batchsim.core.model.TopologySpec;
import batchsim.core.sim.Simulation;
import batchsim.core.metrics.RunResult;
import batchsim.workloads.WorkloadList;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The TAS parts of the scenario format: topologies, the node generator, flavor and podSet fields. */
class TopologyBinderTest {
  static final String TOP = """
      name: t
      topologies:
        - {name: dc, levels: [example.com/block, example.com/rack, kubernetes.io/hostname]}
      cluster:
        nodePools:
          - {name: gpu, topology: {name: dc, shape: [2, 3, 4]}, labels: {pool: gpu},
             allocatable: {cpu: 8, memory: 32Gi, nvidia.com/gpu: 8}}
      resourceFlavors: [{name: tas, nodeLabels: {pool: gpu}, topologyName: dc}]
      clusterQueues:
        - name: cq
          resourceGroups:
            - coveredResources: [nvidia.com/gpu]
              flavors: [{name: tas, resources: [{name: nvidia.com/gpu, nominalQuota: 192}]}]
      localQueues: [{name: q, clusterQueue: cq}]
      """;

  static SimulationSpec load(String workloads) throws Exception {
    return ScenarioLoader.parse("t.yaml", TOP + workloads).spec();
  }

  @Test
  void generatorMakesOnePoolPerRackWithTheLevelLabels() throws Exception {
    SimulationSpec s = load("workloads: {list: [{name: w, queue: q, runtime: 1h, podSets: [{requests: {nvidia.com/gpu: 1}}]}]}");
    assertEquals(6, s.nodePools().size());
    NodePoolSpec last = s.nodePools().get(5);
    assertEquals("gpu-b1-r2", last.name());
    assertEquals(4, last.count());
    assertEquals("gpu-b1", last.labels().get("example.com/block"));
    assertEquals("gpu-b1-r2", last.labels().get("example.com/rack"));
    assertEquals("gpu", last.labels().get("pool"));
    assertEquals(List.of(new TopologySpec("dc", List.of("example.com/block", "example.com/rack",
        "kubernetes.io/hostname"))), s.topologies());
    assertEquals("dc", s.flavors().get(0).topologyName());
  }

  @Test
  void podSetTopologyRequests() throws Exception {
    SimulationSpec s = load("""
        workloads:
          list:
            - {name: a, queue: q, runtime: 1h, podSets: [{count: 4, requests: {nvidia.com/gpu: 8}, topology: {required: example.com/rack}}]}
            - {name: b, queue: q, runtime: 1h, podSets: [{count: 4, requests: {nvidia.com/gpu: 8}, topology: {preferred: example.com/block, sliceLevel: example.com/rack, sliceSize: 2}}]}
            - {name: c, queue: q, runtime: 1h, podSets: [{count: 8, requests: {nvidia.com/gpu: 8}, topology: {sliceLevel: example.com/rack, sliceSize: 4}}]}
            - {name: d, queue: q, runtime: 1h, podSets: [{count: 8, requests: {nvidia.com/gpu: 8}, topology: {required: example.com/block, slices: [{level: example.com/rack, size: 4}, {level: kubernetes.io/hostname, size: 2}]}}]}
            - {name: e, queue: q, runtime: 1h, podSets: [{count: 1, requests: {nvidia.com/gpu: 8}, topology: {unconstrained: true}}]}
            - {name: f, queue: q, runtime: 1h, podSets: [{count: 1, requests: {nvidia.com/gpu: 8}}]}
        """);
    var list = ((WorkloadList) s.workloadSources().get(0)).workloads();
    List<TopologyRequest> got = list.stream().map(w -> w.podSets().get(0).topology()).toList();
    assertEquals(TopologyRequest.required("example.com/rack"), got.get(0));
    assertEquals(TopologyRequest.preferred("example.com/block").withSlice("example.com/rack", 2), got.get(1));
    assertEquals(TopologyRequest.unconstrained().withSlice("example.com/rack", 4), got.get(2));
    assertEquals(TopologyRequest.required("example.com/block").withSlice("example.com/rack", 4)
        .withSlice("kubernetes.io/hostname", 2), got.get(3));
    assertEquals(TopologyRequest.unconstrained(), got.get(4));
    assertNull(got.get(5));
  }

  @Test
  void mistakesAreReportedWithTheirPlace() {
    List<String> p = ScenarioProblemsTest.problems("t.yaml", TOP.replace("shape: [2, 3, 4]", "shape: [2, 3]")
        .replace("topologyName: dc", "topologyName: dcx") + """
        workloads:
          list:
            - {name: a, queue: q, runtime: 1h, podSets: [{requests: {nvidia.com/gpu: 8}, topology: {required: rack}}]}
            - {name: b, queue: q, runtime: 1h, podSets: [{requests: {nvidia.com/gpu: 8}, topology: {required: example.com/rack, preferred: example.com/rack}}]}
        """);
    assertTrue(p.stream().anyMatch(x -> x.contains("cluster.nodePools[0].topology.shape: shape needs 3 numbers")), p::toString);
    assertTrue(p.stream().anyMatch(x -> x.contains("resourceFlavors[0].topologyName: unknown topology 'dcx'")), p::toString);
    assertTrue(p.stream().anyMatch(x -> x.contains("no topology has the level 'rack'")), p::toString);
    assertTrue(p.stream().anyMatch(x -> x.contains("give at most one of required, preferred, unconstrained")), p::toString);
    List<String> q = ScenarioProblemsTest.problems("t.yaml", TOP.replace(
        "levels: [example.com/block, example.com/rack, kubernetes.io/hostname]",
        "levels: [kubernetes.io/hostname, example.com/rack]"));
    assertTrue(q.stream().anyMatch(x -> x.contains("kubernetes.io/hostname may only be the lowest level")), q::toString);
  }

  @Test
  void examplesRun() throws Exception {
    for (String f : List.of("node-failure.yaml", "fragmentation-4-racks.yaml", "fragmentation-16-racks.yaml")) {
      SimulationSpec spec = ScenarioLoader.load(Path.of("examples/tas").resolve(f)).spec();
      RunResult r = new Simulation(spec).checked(f.equals("node-failure.yaml")).run();
      assertTrue(r.tas() != null, f);
      if (f.equals("node-failure.yaml")) {
        assertEquals(1, r.tas().nodeRepairs());
        assertEquals(1, r.tas().nodeFailureEvictions());
      }
    }
  }
}
