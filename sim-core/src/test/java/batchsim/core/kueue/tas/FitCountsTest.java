package batchsim.core.kueue.tas;

import static org.junit.jupiter.api.Assertions.assertEquals;

import batchsim.core.model.TopologyRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Phase 1 kept between placements and caught up from the log of changed leaves gives what a fresh count
 * over every node gives: the same placements and the same failure messages (with their exclusion stats),
 * while pods land and leave, nodes go and come back, and the log overflows.
 */
class FitCountsTest {
  private static final String BLOCK = TopologyAssignerTest.BLOCK;
  private static final String RACK = TopologyAssignerTest.RACK;

  @Test
  void keptCountsMatchAFreshCountAfterEveryChange() {
    for (int seed = 0; seed < 30; seed++) {
      Random rnd = new Random(seed);
      List<TasNode> nodes = new ArrayList<>();
      for (int b = 0; b < 2; b++) {
        for (int r = 0; r < 3; r++) {
          for (int h = 0; h < 4; h++) {
            nodes.add(TopologyAssignerTest.node("b" + b, "b" + b + "r" + r, "n" + b + r + h, 4 + rnd.nextInt(5), 110));
          }
        }
      }
      TasFlavorSnapshot s = TopologyAssignerTest.snapshot(List.of(BLOCK, RACK, TopologyAssignerTest.HOST),
          nodes.toArray(new TasNode[0]));
      List<PodSetRequest> shapes = List.of(
          TopologyAssignerTest.pods(1, 1000, TopologyRequest.preferred(RACK)),
          TopologyAssignerTest.pods(6, 2000, TopologyRequest.required(RACK)),
          TopologyAssignerTest.pods(12, 3000, TopologyRequest.required(BLOCK)),
          TopologyAssignerTest.pods(5, 1000, TopologyRequest.unconstrained()));
      for (int step = 0; step < 300; step++) {
        Domain leaf = s.leaves().get(rnd.nextInt(s.leaves().size()));
        int change = rnd.nextInt(20);
        if (change == 0) {
          s.setNodePresent(leaf.id, !s.nodePresent(leaf.id)); // a new generation: counted afresh
        } else if (change == 1) {
          for (int i = 0; i < 20_000; i++) { // more changes than the log keeps
            s.addTasUsage(leaf, new long[] {1000, 0, 1}, 1, +1);
            s.addTasUsage(leaf, new long[] {1000, 0, 1}, 1, -1);
          }
        } else {
          long cpu = s.remainingIn(leaf, 0);
          int sign = cpu >= 1000 && rnd.nextBoolean() ? +1 : -1;
          if (sign > 0 || leaf.leafTas[0] >= 1000) {
            s.addTasUsage(leaf, new long[] {1000, 0, 1}, 1 + (sign > 0 ? 0 : rnd.nextInt((int) (leaf.leafTas[0] / 1000))), sign);
          }
        }
        PodSetRequest ps = shapes.get(rnd.nextInt(shapes.size()));
        boolean empty = rnd.nextInt(4) == 0;
        String where = "seed " + seed + " step " + step;
        assertEquals(describe(new TopologyAssigner(s).assign(ps, null, empty, null)),
            describe(s.assigner.assign(ps, null, empty, null)), where);
      }
    }
  }

  private static String describe(TopologyAssigner.Result r) {
    return r.ok() ? r.assignment().describe().toString() : r.failure();
  }
}
