package batchsim.core.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.core.metrics.PreemptionStats;
import batchsim.core.metrics.RunResult;
import batchsim.core.metrics.WorkloadRecord;
import batchsim.core.model.ClusterQueueSpec;
import batchsim.core.model.CohortSpec;
import batchsim.core.model.FlavorFungibility;
import batchsim.core.model.FlavorQuotaSpec;
import batchsim.core.model.KueueConfig;
import batchsim.core.model.LocalQueueSpec;
import batchsim.core.model.PodSetSpec;
import batchsim.core.model.PreemptionPolicy;
import batchsim.core.model.PreemptionSpec;
import batchsim.core.model.QueueingStrategy;
import batchsim.core.model.QuotaSpec;
import batchsim.core.model.ResourceGroupSpec;
import batchsim.core.model.WorkloadSpec;
import batchsim.core.world.InvariantViolation;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A reclaim loop under fair sharing, as Kueue @ ff69552e decides it: team-b's preemptor P stays within its
 * GPU quota, so it reclaims regardless of shares (FairSharingPreemptWithinNominal, preemption.go
 * runFirstFsStrategy); but once the victim V's quota is back, the tournament (fair_sharing_iterator.go
 * entryComparer.less) ranks V first, since P would borrow cpu (share 62.5) while V borrows one GPU (31.25).
 * V is readmitted and P preempts it again. In a cluster each round waits for V's pods to terminate.
 */
class ReclaimLoopTest {
  private static final long HOUR = 3_600_000;

  private static ClusterQueueSpec queue(String name, long gpu, long gpuLending) {
    Map<String, QuotaSpec> q = new LinkedHashMap<>();
    q.put("cpu", QuotaSpec.nominal(128_000));
    q.put("nvidia.com/gpu", new QuotaSpec(gpu, QuotaSpec.UNLIMITED, gpuLending));
    PreemptionSpec p = new PreemptionSpec(PreemptionPolicy.LOWER_PRIORITY, PreemptionPolicy.ANY,
        PreemptionPolicy.NEVER, null);
    return new ClusterQueueSpec(name, "pool", List.of(new ResourceGroupSpec(List.of("cpu", "nvidia.com/gpu"),
        List.of(new FlavorQuotaSpec("a100", q)))), QueueingStrategy.BEST_EFFORT_FIFO, p, FlavorFungibility.DEFAULT,
        1.0, List.of());
  }

  private static void job(Specs s, String id, String queue, long at, int priority, long cpuMilli, long gpu,
      long graceMs) {
    s.workloads.add(new WorkloadSpec(id, "job", queue, at, priority, null,
        List.of(PodSetSpec.of("main", 1, Specs.res(cpuMilli, gpu))), HOUR, graceMs));
  }

  private static RunResult run(long graceMs) {
    return run(graceMs, WorkloadSpec.SCENARIO_GRACE, false);
  }

  private static RunResult run(long graceMs, long victimGraceMs) {
    return run(graceMs, victimGraceMs, false);
  }

  /** {@code victimGraceMs}: V's own grace period, or SCENARIO_GRACE for the scenario's {@code graceMs}. */
  private static RunResult run(long graceMs, long victimGraceMs, boolean prioritizePreemptors) {
    Specs s = new Specs().pool("gpu", 6, 64_000, 8).flavor("a100", "gpu");
    s.cohorts.add(new CohortSpec("pool", null, List.of(), 1.0));
    s.cqs.add(queue("team-a", 16, 16));
    s.cqs.add(queue("team-b", 24, 16));
    s.lqs.add(new LocalQueueSpec("team-a", "team-a"));
    s.lqs.add(new LocalQueueSpec("team-b", "team-b"));
    s.kueue = new KueueConfig(true, KueueConfig.DEFAULT_STRATEGIES, 0, 1_000, graceMs, true, true)
        .withPrioritizePreemptorWorkloads(prioritizePreemptors);
    long scenario = WorkloadSpec.SCENARIO_GRACE;
    job(s, "b1", "team-b", 0, 1000, 48_000, 8, scenario);
    job(s, "b2", "team-b", 0, 1000, 48_000, 8, scenario);
    job(s, "a1", "team-a", 0, 0, 32_000, 8, scenario);
    job(s, "a-dev", "team-a", 0, 10, 4_000, 1, scenario);
    job(s, "V", "team-a", 60_000, 0, 32_000, 8, victimGraceMs);
    job(s, "P", "team-b", 60_000, 1000, 48_000, 8, scenario);
    return new Simulation(s.build()).checked(true).run();
  }

  /** Preemptions of V, one per grace period from its arrival at 1 m until the others finish at 1 h. */
  private static int rounds(long graceMs) {
    return (int) (1 + (HOUR - 60_000 - 1) / graceMs);
  }

  private static WorkloadRecord record(RunResult r, String id) {
    return r.workloads().stream().filter(w -> w.id().equals(id)).findFirst().orElseThrow();
  }

  @Test
  void evictionThatTakesNoTimeLoopsAndTheLivelockGuardNamesTheVictim() {
    InvariantViolation v = assertThrows(InvariantViolation.class, () -> run(0));
    assertEquals(List.of("livelock: workload V was evicted and readmitted 11 times within one virtual minute "
        + "(more than 10)"), v.violations());
    assertTrue(v.getMessage().startsWith("invariant violated at 600"), v::getMessage); // within a second
  }

  @Test
  void eachRoundWaitsForTheGracePeriodAndTheVictimIsReportedAsChurning() {
    RunResult r = run(KueueConfig.DEFAULT_TERMINATION_GRACE_MS); // checked: no livelock at 30 s a round
    WorkloadRecord victim = record(r, "V");
    WorkloadRecord preemptor = record(r, "P");
    // From V's arrival at 1 m until the first jobs finish at 1 h (then both fit), one round per 30 s.
    assertEquals(rounds(30_000), victim.preemptions());
    assertEquals(0, preemptor.preemptions());
    assertTrue(victim.quotaReservedMs() >= HOUR, () -> "last reserved at " + victim.quotaReservedMs());
    assertEquals("FINISHED", victim.state());
    assertEquals("FINISHED", preemptor.state());
    PreemptionStats all = r.preemptionOverall();
    assertEquals(Map.of("V", rounds(30_000)), all.frequentlyPreempted());
  }

  @Test
  void theVictimsOwnGracePeriodSetsTheLengthOfARound() {
    RunResult r = run(KueueConfig.DEFAULT_TERMINATION_GRACE_MS, 300_000); // V's pods take 5 minutes to go
    assertEquals(rounds(300_000), record(r, "V").preemptions());
    assertTrue(r.preemptionOverall().frequentlyPreempted().containsKey("V"));
  }

  @Test
  void withPrioritizePreemptorWorkloadsThePreemptorTakesWhatItsVictimFreed() {
    // Kueue's gate (alpha, off by default): P, waiting for its victim, goes first in the tournament.
    RunResult r = run(0, WorkloadSpec.SCENARIO_GRACE, true);
    WorkloadRecord victim = record(r, "V");
    WorkloadRecord preemptor = record(r, "P");
    assertEquals(1, victim.preemptions());
    assertTrue(preemptor.startedMs() < 61_000, () -> "P started at " + preemptor.startedMs());
    // V, now without a GPU to borrow and unable to preempt P (team-b is within nominal), waits for the
    // first jobs to finish at 1 h.
    assertTrue(victim.quotaReservedMs() >= HOUR, () -> "V readmitted at " + victim.quotaReservedMs());
    assertTrue(r.preemptionOverall().frequentlyPreempted().isEmpty());
  }
}
