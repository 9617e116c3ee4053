package batchsim.core.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import batchsim.core.model.NodePoolSpec;
import batchsim.core.model.PodSetSpec;
import batchsim.core.model.ResourceFlavorSpec;
import batchsim.core.model.ResourceSpace;
import batchsim.core.model.Resources;
import batchsim.core.model.ScoringStrategy;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** A retry pass visits only owners with a pod that may fit, in line order, each once. */
class WaitingPodsTest {
  static final ResourceSpace RES = ResourceSpace.of(List.of("cpu", "pods"));

  private final ClusterState cluster = new ClusterState(RES,
      List.of(new NodePoolSpec("a", 2, new TreeMap<>(), List.of(), Resources.wrap(new long[] {8_000, 110}))),
      ScoringStrategy.LEAST_ALLOCATED);
  private final PodBinder binder = new PodBinder(cluster,
      List.of(new ResourceFlavorSpec("default", new TreeMap<>(), List.of(), List.of(), null)), (o, p, r, s) -> {});
  private final WaitingPods waiting = new WaitingPods(cluster);

  /** Pods asking {@code cpu[i]} millicores each, one podSet per entry, unbound. */
  private PodBinder.Pods pods(long... cpu) {
    List<PodSetSpec> podSets = new ArrayList<>();
    int[] counts = new int[cpu.length];
    int[][] flavors = new int[cpu.length][];
    for (int i = 0; i < cpu.length; i++) {
      podSets.add(PodSetSpec.of("ps" + i, 1, Resources.wrap(new long[] {cpu[i], 0})));
      counts[i] = 1;
      flavors[i] = new int[] {0, -1};
    }
    return binder.pods(podSets, counts, flavors);
  }

  private List<Object> pass() {
    List<Object> visited = new ArrayList<>();
    waiting.startPass();
    for (WaitingPods.Waiter w; (w = waiting.next()) != null; ) {
      visited.add(w.owner);
    }
    return visited;
  }

  @Test
  void pass_skipsOwnersWhosePodsFitNoNode_andVisitsEachOwnerOnceInLine() {
    waiting.put("big1", pods(16_000));
    waiting.put("small1", pods(1_000));
    waiting.put("both", pods(16_000, 1_000, 2_000));
    waiting.put("big2", pods(16_000));
    waiting.put("small2", pods(1_000));
    assertEquals(List.of("small1", "both", "small2"), pass());
  }

  @Test
  void pass_dropsAGroupOnceOneOfItsPodsFoundNoNode() {
    PodBinder.Pods first = pods(4_000);
    waiting.put("first", first);
    waiting.put("other", pods(1_000));
    waiting.put("second", pods(4_000));
    waiting.startPass();
    WaitingPods.Waiter w = waiting.next();
    assertEquals("first", w.owner);
    waiting.fail(first, 0); // its 4-cpu pod found no node: the same shape later in line is not visited
    assertEquals("other", waiting.next().owner);
    assertEquals(null, waiting.next());
    assertEquals(List.of("first", "other", "second"), pass(), "a new pass tries the shape again");
  }

  @Test
  void line_anOwnerWaitingAgainKeepsItsPlace_oneThatWasDoneGoesLast() {
    PodBinder.Pods a = pods(1_000);
    waiting.put("a", a);
    waiting.put("b", pods(2_000));
    waiting.put("c", pods(1_000));
    waiting.put("a", a);
    assertEquals(List.of("a", "b", "c"), pass());
    waiting.remove("a");
    waiting.put("a", a);
    assertEquals(List.of("b", "c", "a"), pass());
  }
}
