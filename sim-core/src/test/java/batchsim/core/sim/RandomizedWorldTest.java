package batchsim.core.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.core.metrics.RunResult;
import batchsim.core.model.ClusterAction;
import batchsim.core.model.LongDistribution;
import batchsim.core.model.PodSetSpec;
import batchsim.core.model.PreemptionPolicy;
import batchsim.core.model.PreemptionSpec;
import batchsim.core.model.QuotaSpec;
import batchsim.core.model.ServingSpec;
import batchsim.core.model.TimelineEvent;
import batchsim.core.volcano.ResourceList;
import batchsim.core.volcano.VolcanoConfig;
import batchsim.core.volcano.VolcanoQueueSpec;
import batchsim.core.volcano.VolcanoSetup;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.stream.LongStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The world's timeline under both engines: random node failures, cordons, drains, uncordons, added and removed
 * nodes and a serving Deployment over random gangs, run with every invariant checked after every event (a
 * violation throws), under Kueue and under Volcano alike; every batch workload ends in exactly one state.
 */
class RandomizedWorldTest {
  static LongStream seeds() {
    return LongStream.range(1, 21);
  }

  private static Specs scenario(long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    Specs s = new Specs().pool("gpu", 2 + r.nextInt(4), 64_000, 8).flavor("a100", "gpu");
    PreemptionSpec reclaim = new PreemptionSpec(PreemptionPolicy.LOWER_PRIORITY, PreemptionPolicy.ANY,
        PreemptionPolicy.NEVER, null);
    s.gpuQueue("team-a", "org", "a100", 8, QuotaSpec.UNLIMITED, QuotaSpec.UNLIMITED, reclaim);
    s.gpuQueue("team-b", "org", "a100", 8, QuotaSpec.UNLIMITED, QuotaSpec.UNLIMITED, reclaim);
    int jobs = 30 + r.nextInt(40);
    long t = 0;
    for (int j = 0; j < jobs; j++) {
      t += r.nextInt(300_000);
      s.job("j" + j, r.nextBoolean() ? "team-a" : "team-b", t, r.nextInt(2), 1 + r.nextInt(3), 1L << r.nextInt(4),
          60_000 + r.nextInt(3_600_000));
    }
    List<ClusterAction> actions = List.of(
        new ClusterAction.FailNodes("gpu", 1, null, LongDistribution.constant(1_800_000)),
        new ClusterAction.CordonNodes("gpu", 1, null, false),
        new ClusterAction.CordonNodes("gpu", 1, null, true),
        new ClusterAction.UncordonNodes("gpu", 2, null),
        new ClusterAction.AddNodes("gpu", 1),
        new ClusterAction.RemoveNodes("gpu", 1),
        new ClusterAction.ScaleArrivals("job", 2.0));
    for (int k = 0; k < 8; k++) {
      s.timeline.add(TimelineEvent.once(r.nextInt((int) Math.max(1, t)), actions.get(r.nextInt(actions.size()))));
    }
    if (r.nextBoolean()) {
      s.serving.add(new ServingSpec("web", "team-a", r.nextInt(600_000), PodSetSpec.of("main", 1 + r.nextInt(2),
          Specs.res(0, 2)), 1, LongDistribution.constant(1_200_000), LongDistribution.constant(300_000),
          2 + r.nextInt(4), LongDistribution.constant(10_000), 0.3, LongDistribution.constant(5_000)));
    }
    s.horizon = t + 6 * 3_600_000L;
    return s;
  }

  private static VolcanoSetup volcano() {
    List<VolcanoQueueSpec> queues = new ArrayList<>();
    for (String q : List.of("team-a", "team-b")) {
      queues.add(VolcanoQueueSpec.of(q).withDeserved(ResourceList.of("nvidia.com/gpu", 8)));
    }
    TreeMap<String, String> queueFor = new TreeMap<>();
    queueFor.put("team-a", "team-a");
    queueFor.put("team-b", "team-b");
    return new VolcanoSetup(VolcanoConfig.capacity(false), queues, queueFor, 30_000);
  }

  private static void assertEveryWorkloadAccountedFor(RunResult res) {
    var o = res.overall();
    assertEquals(o.arrived(), o.finished() + o.pendingAtEnd() + o.admittedAtEnd() + o.runningAtEnd());
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void underKueue(long seed) {
    assertEveryWorkloadAccountedFor(new Simulation(scenario(seed).build()).checked(true).maxEvents(400_000).run());
  }

  /**
   * The status record changes nothing in the run, arrives in time order, and (checked) its queue counts are the
   * engine's at the end of every instant.
   */
  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void underKueue_withTheStatusRecord(long seed) {
    long[] last = {0};
    int[] records = {0};
    RunResult recorded = new Simulation(scenario(seed).build()).checked(true).maxEvents(400_000)
        .recordStatus(r -> {
          assertTrue(r.timeMs() >= last[0], "time order");
          last[0] = r.timeMs();
          records[0]++;
        }).run();
    RunResult plain = new Simulation(scenario(seed).build()).run();
    assertEquals(plain.overall(), recorded.overall());
    assertEquals(plain.workloads(), recorded.workloads());
    assertTrue(records[0] > plain.overall().arrived(), "every workload is written at least once");
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void underVolcano(long seed) {
    assertEveryWorkloadAccountedFor(
        new Simulation(scenario(seed).build(), volcano()).checked(true).maxEvents(400_000).run());
  }
}
