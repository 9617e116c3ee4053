package batchsim.core.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.core.model.NodePoolSpec;
import batchsim.core.model.PodSetSpec;
import batchsim.core.model.ResourceFlavorSpec;
import batchsim.core.model.ResourceSpace;
import batchsim.core.model.Resources;
import batchsim.core.model.ScoringStrategy;
import batchsim.core.model.Taint;
import batchsim.core.model.Toleration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class PodBinderTest {
  static final ResourceSpace RES = ResourceSpace.of(List.of("cpu", "memory", "pods", "nvidia.com/gpu"));

  private static NodePoolSpec pool(String name, int count, long gpu, List<Taint> taints) {
    TreeMap<String, String> labels = new TreeMap<>();
    labels.put("pool", name);
    return new NodePoolSpec(name, count, labels, taints, Resources.wrap(new long[] {32_000, 1L << 37, 110, gpu}));
  }

  private static ResourceFlavorSpec flavor(String name, String pool, List<Toleration> tolerations) {
    TreeMap<String, String> labels = new TreeMap<>();
    labels.put("pool", pool);
    return new ResourceFlavorSpec(name, labels, List.of(), tolerations, null);
  }

  private static PodSetSpec podSet(int count, long cpu, long gpu) {
    return PodSetSpec.of("main", count, Resources.wrap(new long[] {cpu, 0, 0, gpu}));
  }

  private final List<String> bound = new ArrayList<>();

  private PodBinder binder(ClusterState c, List<ResourceFlavorSpec> flavors) {
    return new PodBinder(c, flavors, (owner, ps, req, sign) -> bound.add(owner + (sign > 0 ? "+" : "-")));
  }

  @Test
  void bind_leastAllocated_spreadsPodsAcrossNodes() {
    ClusterState c = new ClusterState(RES, List.of(pool("cpu", 3, 0, List.of())), ScoringStrategy.LEAST_ALLOCATED);
    PodBinder b = binder(c, List.of(flavor("default", "cpu", List.of())));
    PodBinder.Pods pods = b.pods(List.of(podSet(3, 4_000, 0)), new int[] {3}, new int[][] {{0, -1, -1, -1}});
    assertTrue(b.bind("w", pods));
    assertEquals(List.of("cpu-0", "cpu-1", "cpu-2"), b.placement(pods));
  }

  @Test
  void bind_mostAllocated_packsPodsOnOneNode() {
    ClusterState c = new ClusterState(RES, List.of(pool("cpu", 3, 0, List.of())), ScoringStrategy.MOST_ALLOCATED);
    PodBinder b = binder(c, List.of(flavor("default", "cpu", List.of())));
    PodBinder.Pods pods = b.pods(List.of(podSet(3, 4_000, 0)), new int[] {3}, new int[][] {{0, -1, -1, -1}});
    assertTrue(b.bind("w", pods));
    assertEquals(List.of("cpu-0", "cpu-0", "cpu-0"), b.placement(pods));
  }

  @Test
  void bind_flavorLabelsAndTaints_filterPools() {
    Taint gpuTaint = new Taint("nvidia.com/gpu", "true", "NoSchedule");
    ClusterState c = new ClusterState(RES, List.of(pool("cpu", 2, 0, List.of()), pool("gpu", 1, 8, List.of(gpuTaint))),
        ScoringStrategy.LEAST_ALLOCATED);
    Toleration tol = new Toleration("nvidia.com/gpu", "Exists", null, "NoSchedule");
    PodBinder b = binder(c, List.of(flavor("a100", "gpu", List.of(tol)), flavor("bare", "gpu", List.of())));
    PodBinder.Pods ok = b.pods(List.of(podSet(1, 1_000, 8)), new int[] {1}, new int[][] {{0, -1, -1, 0}});
    assertTrue(b.bind("tolerated", ok));
    assertEquals(List.of("gpu-0"), b.placement(ok));
    // Without the flavor's toleration the tainted GPU node is filtered out, and no other node has the labels.
    PodBinder.Pods blocked = b.pods(List.of(podSet(1, 1_000, 0)), new int[] {1}, new int[][] {{1, -1, -1, -1}});
    assertFalse(b.bind("untolerated", blocked));
  }

  @Test
  void retryWaiting_bindsPendingPodsWhenCapacityIsReleased() {
    ClusterState c = new ClusterState(RES, List.of(pool("gpu", 1, 8, List.of())), ScoringStrategy.LEAST_ALLOCATED);
    PodBinder b = binder(c, List.of(flavor("a100", "gpu", List.of())));
    int[][] fl = {{0, -1, -1, 0}};
    PodBinder.Pods first = b.pods(List.of(podSet(2, 1_000, 4)), new int[] {2}, fl);
    PodBinder.Pods second = b.pods(List.of(podSet(1, 1_000, 4)), new int[] {1}, fl);
    assertTrue(b.bind("first", first));
    assertFalse(b.bind("second", second), "the node is full");
    assertTrue(b.retryWaiting().isEmpty());
    b.release("first", first);
    assertEquals(List.of("second"), b.retryWaiting());
    assertEquals(List.of("first+", "first+", "first-", "first-", "second+"), bound);
    assertTrue(c.checkInvariants().isEmpty());
  }
}
