package batchsim.scenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.core.metrics.PreemptionStats;
import batchsim.core.metrics.RunResult;
import batchsim.core.metrics.WorkloadRecord;
import batchsim.core.sim.Runs;
import batchsim.core.world.InvariantViolation;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * README's fair-sharing what-if (issue 16, defect 2): six GPU nodes, team-b's GPU quota 24, fair sharing on.
 * team-b's b-train-4 is within nominal on GPUs, so Kueue lets it reclaim regardless of shares
 * (FairSharingPreemptWithinNominal); once the victim's quota is back, the fair-sharing tournament ranks
 * team-a's a-train-4 first again (team-b would borrow cpu and memory, a larger dominant share), so a-train-4
 * is readmitted and preempted again, as in Kueue. Each round costs the victim's termination grace period.
 */
class FairSharingChurnTest {
  private static final Path QUICKSTART = Path.of("examples/quickstart.yaml");
  private static final List<String> WHAT_IF = List.of("nodePools.gpu.count=6",
      "clusterQueues.team-b.quota.a100.nvidia.com/gpu=24", "kueue.fairSharing={}");

  private static RunResult run(String... more) throws Exception {
    List<String> sets = new ArrayList<>(WHAT_IF);
    sets.addAll(List.of(more));
    LoadedScenario s = ScenarioLoader.load(QUICKSTART, sets);
    return Runs.run(s.spec(), s.volcano(), true);
  }

  private static WorkloadRecord record(RunResult r, String id) {
    return r.workloads().stream().filter(w -> w.id().equals(id)).findFirst().orElseThrow();
  }

  @Test
  void eachRoundOfReclamationWaitsForTheVictimsPodsToTerminate() throws Exception {
    RunResult r = run(); // the default grace period: Kubernetes' 30 s
    WorkloadRecord a = record(r, "a-train-4");
    // Before: 182,801 preemptions in 19.5 minutes (eviction took no time, one round per 1 ms cycle backoff).
    // Now one round per 30 s at most: its quota is held until its pods are gone.
    long churnMs = a.quotaReservedMs() - a.firstQuotaReservedMs();
    assertTrue(a.preemptions() <= churnMs / 30_000 + 1, () -> a.preemptions() + " preemptions in " + churnMs + " ms");
    assertEquals(39, a.preemptions());
    assertEquals("FINISHED", a.state());
    // The summary names it: more than FREQUENT_PREEMPTIONS_PER_HOUR within one simulated hour.
    assertEquals(39, r.preemptionOverall().frequentlyPreempted().get("a-train-4"));
    assertEquals(List.of("a-train-4"), List.copyOf(r.preemptionOverall().frequentlyPreempted().keySet()));
    PreemptionStats teamB = r.preemption().stream().filter(p -> p.name().equals("team-b")).findFirst().orElseThrow();
    assertTrue(teamB.frequentlyPreempted().isEmpty());
  }

  @Test
  void withoutAGracePeriodTheLivelockGuardStopsTheCheckedRun() {
    InvariantViolation v = assertThrows(InvariantViolation.class, () -> run("kueue.terminationGracePeriod=0s"));
    assertTrue(v.violations().stream().anyMatch(m -> m.contains("livelock: workload a-train-4 was evicted and "
        + "readmitted 11 times within one virtual minute")), () -> v.violations().toString());
  }

  @Test
  void aClassGracePeriodOverridesTheScenarios() throws Exception {
    RunResult r = run("workloads.classes.a-train.terminationGracePeriod=2m");
    WorkloadRecord a = record(r, "a-train-4");
    // One round per 2 minutes now.
    long churnMs = a.quotaReservedMs() - a.firstQuotaReservedMs();
    assertTrue(a.preemptions() > 0 && a.preemptions() <= churnMs / 120_000 + 1,
        () -> a.preemptions() + " preemptions in " + churnMs + " ms");
    assertEquals(10, a.preemptions());
  }

  @Test
  void aClassGracePeriodMustBeADuration() {
    ScenarioException e = assertThrows(ScenarioException.class,
        () -> ScenarioLoader.load(QUICKSTART, List.of("workloads.classes.a-train.terminationGracePeriod=-1s")));
    assertTrue(e.getMessage().contains("workloads.classes[0].terminationGracePeriod: '-1s' is not a duration"),
        e::getMessage);
  }

  @Test
  void prioritizePreemptorWorkloadsEndsTheLoop() throws Exception {
    RunResult r = run("kueue.featureGates.PrioritizePreemptorWorkloads=true");
    assertEquals(1, record(r, "a-train-4").preemptions());
    assertTrue(r.workloads().stream().allMatch(w -> w.preemptions() <= 3));
    assertTrue(r.preemptionOverall().frequentlyPreempted().isEmpty());
  }
}
