package batchsim.core.world;

import static org.junit.jupiter.api.Assertions.assertEquals;

import batchsim.core.engine.Event;
import batchsim.core.engine.EventLoop;
import batchsim.core.metrics.RunResult;
import batchsim.core.model.ClusterAction;
import batchsim.core.model.LongDistribution;
import batchsim.core.model.PreemptionSpec;
import batchsim.core.model.QuotaSpec;
import batchsim.core.model.SimulationSpec;
import batchsim.core.model.TimelineEvent;
import batchsim.core.sim.Specs;
import batchsim.core.volcano.ResourceList;
import batchsim.core.volcano.VolcanoConfig;
import batchsim.core.volcano.VolcanoQueueSpec;
import batchsim.core.volcano.VolcanoSetup;
import batchsim.core.world.kueue.KueueAdmission;
import batchsim.core.world.volcano.VolcanoAdmission;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Two clusters on one event loop — one under Kueue, one under Volcano, each with its own nodes, timeline and
 * workloads — end exactly as each does alone: every event goes to the cluster part that scheduled it. (The
 * shape MultiKueue needs: a manager and workers sharing one clock.)
 */
class SharedLoopTest {
  private static final long HOUR = 3_600_000;

  private static SimulationSpec spec(int nodes, long firstJobMs) {
    Specs s = new Specs().pool("gpu", nodes, 64_000, 8).flavor("a100", "gpu")
        .gpuQueue("team-a", "org", "a100", 8, QuotaSpec.UNLIMITED, QuotaSpec.UNLIMITED, PreemptionSpec.NEVER)
        .gpuQueue("team-b", "org", "a100", 8, QuotaSpec.UNLIMITED, QuotaSpec.UNLIMITED, PreemptionSpec.NEVER);
    for (int i = 0; i < 30; i++) {
      s.job("j" + i, i % 2 == 0 ? "team-a" : "team-b", firstJobMs + i * 137_000L, i % 3, 1 + i % 2, 4, HOUR / 2);
    }
    s.timeline.add(TimelineEvent.once(HOUR, new ClusterAction.FailNodes("gpu", 1, null,
        LongDistribution.constant(HOUR / 3))));
    return s.build();
  }

  /** Two capacity queues deserving 8 GPUs each, named as the teams' LocalQueues (shared with other world tests). */
  static VolcanoSetup volcano() {
    TreeMap<String, String> queueFor = new TreeMap<>();
    queueFor.put("team-a", "team-a");
    queueFor.put("team-b", "team-b");
    return new VolcanoSetup(VolcanoConfig.capacity(false), List.of(
        VolcanoQueueSpec.of("team-a").withDeserved(ResourceList.of("nvidia.com/gpu", 8)),
        VolcanoQueueSpec.of("team-b").withDeserved(ResourceList.of("nvidia.com/gpu", 8))), queueFor, 0);
  }

  @Test
  void twoClustersOnOneLoop_endAsEachEndsAlone() {
    SimulationSpec a = spec(2, 0);
    SimulationSpec b = spec(3, 45_000);
    EventLoop loop = new EventLoop();
    SimulatedCluster kueue = new SimulatedCluster(a, loop, KueueAdmission::new);
    SimulatedCluster volcano = new SimulatedCluster(b, loop, ctx -> new VolcanoAdmission(ctx, volcano()));
    kueue.start(new SplittableRandom(a.seed()));
    volcano.start(new SplittableRandom(b.seed()));
    Event e;
    while ((e = loop.next(Long.MAX_VALUE)) != null) {
      e.dispatch();
    }
    long end = loop.now();
    RunResult sharedA = kueue.result(end, loop.processed());
    RunResult sharedB = volcano.result(end, loop.processed());

    RunResult aloneA = new World(a, KueueAdmission::new).run();
    RunResult aloneB = new World(b, ctx -> new VolcanoAdmission(ctx, volcano())).run();
    assertEquals(30, sharedA.overall().finished());
    assertEquals(30, sharedB.overall().finished());
    assertEquals(1, sharedA.pools().get(0).failures(), "each cluster's own timeline ran");
    assertEquals(aloneA.workloads(), sharedA.workloads());
    assertEquals(aloneB.workloads(), sharedB.workloads());
    for (int i = 0; i < 2; i++) { // node-hours differ: the shared run ends when the later cluster does
      RunResult alone = i == 0 ? aloneA : aloneB;
      RunResult shared = i == 0 ? sharedA : sharedB;
      assertEquals(alone.pools().get(0).failures(), shared.pools().get(0).failures());
      assertEquals(alone.pools().get(0).podsLost(), shared.pools().get(0).podsLost());
    }
  }
}
