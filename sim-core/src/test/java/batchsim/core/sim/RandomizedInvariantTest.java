package batchsim.core.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import batchsim.core.metrics.RunResult;
import batchsim.core.model.CohortSpec;
import batchsim.core.model.FairSharingStrategy;
import batchsim.core.model.KueueConfig;
import batchsim.core.model.PreemptionPolicy;
import batchsim.core.model.PreemptionSpec;
import batchsim.core.model.QuotaSpec;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Random cohort trees, quotas, limits, preemption policies and workloads, run with every invariant checked
 * after every event: no queue or cohort above what its limits allow, node allocation within allocatable,
 * every workload in exactly one state and the structures that state implies. A violation throws, and so
 * does a run that needs more than 400,000 events for about an hour of activity.
 */
class RandomizedInvariantTest {
  static LongStream seeds() {
    return LongStream.range(1, 41);
  }

  private static PreemptionPolicy pick(SplittableRandom r, PreemptionPolicy... ps) {
    return ps[r.nextInt(ps.length)];
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void randomScenario_runsWithoutInvariantViolations(long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    Specs s = new Specs().pool("gpu", 2 + r.nextInt(6), 64_000, 8).flavor("a100", "gpu");
    int cohorts = 1 + r.nextInt(3);
    for (int c = 0; c < cohorts; c++) {
      String parent = c == 0 ? null : "c" + r.nextInt(c);
      s.cohorts.add(new CohortSpec("c" + c, parent, List.of(), 1.0));
    }
    int queues = 2 + r.nextInt(4);
    for (int q = 0; q < queues; q++) {
      long nominal = 4L * r.nextInt(5);
      long borrow = r.nextBoolean() ? QuotaSpec.UNLIMITED : 4L * r.nextInt(4);
      long lend = r.nextBoolean() ? QuotaSpec.UNLIMITED : Math.min(nominal, 4L * r.nextInt(3));
      PreemptionPolicy reclaim = pick(r, PreemptionPolicy.NEVER, PreemptionPolicy.LOWER_PRIORITY, PreemptionPolicy.ANY);
      PreemptionPolicy borrowWithin = reclaim == PreemptionPolicy.NEVER ? PreemptionPolicy.NEVER
          : pick(r, PreemptionPolicy.NEVER, PreemptionPolicy.LOWER_PRIORITY);
      PreemptionSpec p = new PreemptionSpec(
          pick(r, PreemptionPolicy.NEVER, PreemptionPolicy.LOWER_PRIORITY, PreemptionPolicy.LOWER_OR_NEWER_EQUAL_PRIORITY),
          reclaim, borrowWithin, r.nextBoolean() ? null : r.nextInt(3));
      s.gpuQueue("q" + q, "c" + r.nextInt(cohorts), "a100", nominal, borrow, lend, p);
    }
    boolean fair = r.nextBoolean();
    s.kueue = new KueueConfig(fair, fair && r.nextBoolean()
        ? List.of(FairSharingStrategy.LESS_THAN_INITIAL_SHARE) : KueueConfig.DEFAULT_STRATEGIES,
        r.nextInt(3) * 100L, 1_000, 15_000 + r.nextInt(3) * 15_000L, r.nextBoolean(), true);
    int jobs = 40 + r.nextInt(80);
    long t = 0;
    for (int j = 0; j < jobs; j++) {
      t += r.nextInt(120_000);
      s.job("j" + j, "q" + r.nextInt(queues), t, r.nextInt(3), 1 + r.nextInt(3), 1L << r.nextInt(4),
          60_000 + r.nextInt(1_800_000));
    }
    // Some random policy mixes thrash (a preemptor's freed quota is taken by another head, as Kueue allows
    // with PrioritizePreemptorWorkloads off), so the run is bounded by a horizon, not by completion. Each
    // round costs the victim's grace period (15 s to 45 s here, as pods take to terminate), so a thrash stays
    // below the livelock guard's rate; a zero-time loop would trip it.
    s.horizon = t + 3_600_000;
    RunResult res = new Simulation(s.build()).checked(true).maxEvents(400_000).run();
    var o = res.overall();
    assertEquals(o.arrived(), o.finished() + o.pendingAtEnd() + o.admittedAtEnd() + o.runningAtEnd());
  }
}
