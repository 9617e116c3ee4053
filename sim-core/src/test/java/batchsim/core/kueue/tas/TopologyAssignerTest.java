package batchsim.core.kueue.tas;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.core.model.ResourceFlavorSpec;
import batchsim.core.model.ResourceSpace;
import batchsim.core.model.Resources;
import batchsim.core.model.Taint;
import batchsim.core.model.Toleration;
import batchsim.core.model.TopologyRequest;
import batchsim.core.model.TopologySpec;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The placement algorithm on small trees: the KEP's worked examples (keps/2724, "Example" under the
 * algorithm selection and under two-level scheduling) and cases from Kueue's TestFindTopologyAssignments
 * (pkg/cache/scheduler/tas_cache_test.go), with Kueue's expected assignments.
 */
class TopologyAssignerTest {
  static final ResourceSpace RES = ResourceSpace.of(List.of("cpu", "memory", "pods"));
  static final String BLOCK = "cloud.com/topology-block";
  static final String RACK = "cloud.com/topology-rack";
  static final String HOST = TopologySpec.HOSTNAME;

  /** A node {@code name} at block/rack with {@code cpu} cores and 10 pods (110 when pods is 0). */
  static TasNode node(String block, String rack, String name, long cpu, long pods) {
    TreeMap<String, String> labels = new TreeMap<>();
    if (block != null) {
      labels.put(BLOCK, block);
    }
    labels.put(RACK, rack);
    labels.put(HOST, name);
    return new TasNode(name, labels, List.of(), Resources.wrap(new long[] {cpu * 1000, 64L << 30, pods}));
  }

  static TasFlavorSnapshot snapshot(List<String> levels, TasNode... nodes) {
    TasFlavorSnapshot s = new TasFlavorSnapshot(ResourceFlavorSpec.plain("tas"), new TopologySpec("topo", levels), RES);
    for (TasNode n : nodes) {
      s.addNode(n, true);
    }
    return s;
  }

  static PodSetRequest pods(int count, long milliCpu, TopologyRequest r) {
    return new PodSetRequest("main", new long[] {milliCpu, 0, 1}, count, r, new TreeMap<>(), List.of());
  }

  static List<String> place(TasFlavorSnapshot s, PodSetRequest ps) {
    TopologyAssigner.Result r = s.assigner.assign(ps, null, false, null);
    assertNull(r.failure(), () -> "unexpected failure: " + r.failure());
    return r.assignment().describe();
  }

  // ------------------------------------------------------------------ KEP worked examples

  /** One rack of nodes with room for 3, 3, 2 and 1 pods (a pod is 1 cpu). */
  static TasFlavorSnapshot kepRack3321() {
    return snapshot(List.of(RACK, HOST), node(null, "r1", "n1", 3, 10), node(null, "r1", "n2", 3, 10),
        node(null, "r1", "n3", 2, 10), node(null, "r1", "n4", 1, 10));
  }

  @Test
  void kepBestFitTakesTheLargestNodesThenTheTightestLast() {
    // KEP: "BestFit ... selects the first two nodes, each with 3 ... and selects the node that can accommodate exactly 1 pod".
    assertEquals(List.of("n1:3", "n2:3", "n4:1"), place(kepRack3321(), pods(7, 1000, TopologyRequest.required(RACK))));
    assertEquals(List.of("n1:3", "n2:3", "n4:1"), place(kepRack3321(), pods(7, 1000, TopologyRequest.preferred(RACK))));
  }

  @Test
  void kepLeastFreeCapacityTakesTheSmallestNodesFirst() {
    // KEP: "LeastFreeCapacity ... selects the nodes with 1, 2, 3, and 3 available pods, reserving capacity for only 1 pod on the last node".
    assertEquals(List.of("n1:3", "n2:1", "n3:2", "n4:1"),
        place(kepRack3321(), pods(7, 1000, TopologyRequest.unconstrained())));
    // Implied TAS (no request in a TAS-only ClusterQueue) is unconstrained at the lowest level too.
    assertEquals(List.of("n1:3", "n2:1", "n3:2", "n4:1"), place(kepRack3321(), pods(7, 1000, null)));
  }

  /** One rack of nodes with room for 6, 5, 4, 3 and 2 pods. */
  static TasFlavorSnapshot kepRack65432() {
    return snapshot(List.of(RACK, HOST), node(null, "r1", "n6", 6, 10), node(null, "r1", "n5", 5, 10),
        node(null, "r1", "n4", 4, 10), node(null, "r1", "n3", 3, 10), node(null, "r1", "n2", 2, 10));
  }

  @Test
  void kepSlicesBestFit() {
    // KEP two-level table: BestFit, 12 pods, slices of 2 on hosts -> 6 . 4 . 2
    TopologyRequest r = TopologyRequest.required(RACK).withSlice(HOST, 2);
    assertEquals(List.of("n2:2", "n4:4", "n6:6"), place(kepRack65432(), pods(12, 1000, r)));
  }

  @Test
  void kepSlicesLeastFreeCapacity() {
    // KEP two-level table: LeastFreeCapacity, 10 pods, slices of 2 on hosts -> . 2 4 2 2
    TopologyRequest r = TopologyRequest.unconstrained().withSlice(HOST, 2);
    assertEquals(List.of("n2:2", "n3:2", "n4:4", "n5:2"), place(kepRack65432(), pods(10, 1000, r)));
  }

  // ------------------------------------------------------------------ Kueue TestFindTopologyAssignments

  @Test
  void minimizeRacksBeforeNodes() {
    // "minimize the number of used racks before optimizing the number of nodes; BestFit"
    TasFlavorSnapshot s = snapshot(List.of(BLOCK, RACK, HOST),
        node("b1", "r1", "x3", 2, 10), node("b1", "r2", "x5", 2, 20), node("b1", "r3", "x1", 1, 10),
        node("b1", "r3", "x6", 1, 10), node("b1", "r3", "x2", 1, 10), node("b1", "r3", "x4", 1, 10));
    assertEquals(List.of("x1:1", "x2:1", "x4:1", "x6:1"), place(s, pods(4, 1000, TopologyRequest.required(BLOCK))));
  }

  @Test
  void chooseTheNodeThatHoldsAllPods() {
    TasFlavorSnapshot s = snapshot(List.of(BLOCK, RACK, HOST),
        node("b1", "r1", "x3", 2, 10), node("b1", "r1", "x5", 1, 10), node("b1", "r1", "x1", 1, 10));
    assertEquals(List.of("x3:2"), place(s, pods(2, 1000, TopologyRequest.required(BLOCK))));
  }

  static TasFlavorSnapshot scattered() {
    return snapshot(List.of(BLOCK, RACK, HOST), node("b1", "r1", "x3", 4, 10), node("b1", "r1", "x5", 1, 10),
        node("b1", "r1", "x1", 1, 10), node("b2", "r1", "x6", 2, 10), node("b2", "r1", "x2", 1, 10));
  }

  @Test
  void unconstrainedScattersOverTheLeastFreeHosts() {
    // "unconstrained; 6 pods fit into hosts scattered across the whole datacenter even they could fit into single rack"
    List<String> want = List.of("x1:1", "x3:1", "x5:1", "x2:1", "x6:2");
    assertEquals(want, place(scattered(), pods(6, 1000, TopologyRequest.unconstrained())));
    assertEquals(want, place(scattered(), pods(6, 1000, null)));
  }

  /** Kueue's binaryTreesNodes: two blocks of two racks of two 1-cpu hosts. */
  static TasFlavorSnapshot binaryTrees() {
    return snapshot(List.of(BLOCK, RACK, HOST),
        node("b1", "r1", "x3", 1, 10), node("b1", "r1", "x5", 1, 10), node("b1", "r2", "x1", 1, 10),
        node("b1", "r2", "x6", 1, 10), node("b2", "r1", "x2", 1, 10), node("b2", "r1", "x4", 1, 10),
        node("b2", "r2", "x7", 1, 10), node("b2", "r2", "x8", 1, 10));
  }

  @Test
  void blockRequiredFourPodsOnePerHost() {
    assertEquals(List.of("x3:1", "x5:1", "x1:1", "x6:1"),
        place(binaryTrees(), pods(4, 1000, TopologyRequest.required(BLOCK))));
  }

  @Test
  void requiredFailsWithKueuesMessage() {
    TopologyAssigner.Result r = binaryTrees().assigner.assign(pods(3, 1000, TopologyRequest.required(RACK)), null,
        false, null);
    assertFalse(r.ok());
    assertEquals("topology \"topo\" allows to fit only 2 out of 3 pod(s)", r.failure());
    r = binaryTrees().assigner.assign(pods(1, 2000, TopologyRequest.required(RACK)), null, false, null);
    assertEquals("topology \"topo\" doesn't allow to fit any of 1 pod(s). Total nodes: 8; excluded: resource \"cpu\": 8",
        r.failure());
  }

  @Test
  void preferredMovesUpALevelThenSpreadsOverTopDomains() {
    // rack preferred, 3 pods: no rack holds 3 -> block b1 (BestFit ties on values).
    assertEquals(List.of("x3:1", "x5:1", "x1:1"), place(binaryTrees(), pods(3, 1000, TopologyRequest.preferred(RACK))));
    // block preferred, 6 pods: no block holds 6 -> several blocks.
    assertEquals(6, binaryTrees().assigner.assign(pods(6, 1000, TopologyRequest.preferred(BLOCK)), null, false, null)
        .assignment().total());
    assertFalse(binaryTrees().assigner.assign(pods(9, 1000, TopologyRequest.preferred(BLOCK)), null, false, null).ok());
  }

  /** Kueue's defaultNodes with levels block and rack only: a leaf sums its nodes (1, 3, 1, 2 cpu). */
  static TasFlavorSnapshot defaultTwoLevels() {
    return snapshot(List.of(BLOCK, RACK), node("b1", "r1", "x3", 1, 10), node("b1", "r2", "x5", 1, 10),
        node("b1", "r2", "x1", 1, 10), node("b1", "r2", "x6", 1, 10), node("b2", "r1", "x2", 1, 10),
        node("b2", "r2", "x4", 2, 40));
  }

  @Test
  void nonHostnameLeavesSumTheirNodes() {
    // "rack preferred; but only block can accommodate the workload; BestFit"
    assertEquals(List.of("b1,r1:1", "b1,r2:3"), place(defaultTwoLevels(), pods(4, 1000, TopologyRequest.preferred(RACK))));
    // "rack preferred; but only multiple blocks can accommodate the workload; BestFit"
    assertEquals(List.of("b1,r1:1", "b1,r2:3", "b2,r2:2"),
        place(defaultTwoLevels(), pods(6, 1000, TopologyRequest.preferred(RACK))));
  }

  @Test
  void slicesNeverStraddleSliceDomains() {
    // block required, rack slices of 2: b1 has two racks of 2 -> 2 slices.
    TopologyRequest r = TopologyRequest.required(BLOCK).withSlice(RACK, 2);
    assertEquals(List.of("x3:1", "x5:1", "x1:1", "x6:1"), place(binaryTrees(), pods(4, 1000, r)));
    TopologyAssigner.Result bad = binaryTrees().assigner.assign(pods(6, 1000, r), null, false, null);
    assertEquals("topology \"topo\" allows to fit only 2 out of 3 slice(s)", bad.failure());
  }

  @Test
  void multiLayerSlices() {
    // block required; rack slices of 4; host slices of 2: hosts of 3 cpu give 1 host-slice each -> 2 per rack.
    TasFlavorSnapshot s = snapshot(List.of(BLOCK, RACK, HOST),
        node("b1", "r1", "a", 3, 10), node("b1", "r1", "b", 3, 10), node("b1", "r2", "c", 4, 10),
        node("b1", "r2", "d", 1, 10));
    TopologyRequest r = TopologyRequest.required(BLOCK).withSlice(RACK, 4).withSlice(HOST, 2);
    assertEquals(List.of("a:2", "b:2"), place(s, pods(4, 1000, r)));
    // Rounded to host slices the racks hold 4 (a, b) and 4 (c; d's single pod is no host slice).
    assertEquals(List.of("a:2", "b:2", "c:4"), place(s, pods(8, 1000, r)));
    assertFalse(s.assigner.assign(pods(12, 1000, r), null, false, null).ok());
  }

  @Test
  void taintsAndSelectorsExcludeNodes() {
    TreeMap<String, String> labels = new TreeMap<>(java.util.Map.of(RACK, "r1", HOST, "t1"));
    TasNode tainted = new TasNode("t1", labels, List.of(new Taint("gpu", "true", "NoSchedule")),
        Resources.wrap(new long[] {8000, 1L << 30, 10}));
    TasFlavorSnapshot s = snapshot(List.of(RACK, HOST), node(null, "r1", "n1", 1, 10));
    s.addNode(tainted, true);
    TopologyAssigner.Result r = s.assigner.assign(pods(2, 1000, TopologyRequest.required(RACK)), null, false, null);
    assertEquals("topology \"topo\" allows to fit only 1 out of 2 pod(s). Total nodes: 2; excluded: taint \"gpu=true:NoSchedule\": 1",
        r.failure());
    PodSetRequest tolerant = new PodSetRequest("main", new long[] {1000, 0, 1}, 2, TopologyRequest.required(RACK),
        new TreeMap<>(), List.of(new Toleration("gpu", "Exists", null, "NoSchedule")));
    assertEquals(List.of("t1:2"), s.assigner.assign(tolerant, null, false, null).assignment().describe());
  }

  @Test
  void usageAbsentNodesAndSimulateEmpty() {
    TasFlavorSnapshot s = binaryTrees();
    Domain x3 = s.leafOfNode("x3");
    s.addTasUsage(x3, new long[] {1000, 0, 1}, 1, +1);
    s.addNonTasUsage("x5", new long[] {1000, 0, 1}, +1);
    // b1/r1 is full: a rack-required pair goes to b1/r2.
    assertEquals(List.of("x1:1", "x6:1"), place(s, pods(2, 1000, TopologyRequest.required(RACK))));
    // Without TAS usage (preempting every TAS workload) x3 is free again, but x5's non-TAS pod stays.
    TopologyAssigner.Result empty = s.assigner.assign(pods(3, 1000, TopologyRequest.required(BLOCK)), null, true, null);
    assertEquals(List.of("x3:1", "x1:1", "x6:1"), empty.assignment().describe());
    assertEquals(1, s.freeDomains(0)); // b2
    assertEquals(3, s.freeDomains(1)); // b1/r2, b2/r1, b2/r2
    s.setNodePresent("x1", false);
    assertFalse(s.assigner.assign(pods(2, 1000, TopologyRequest.required(RACK)), null, false, null).assignment()
        .describe().contains("x1:1"));
    assertTrue(s.nodePresent("x6"));
  }
}
