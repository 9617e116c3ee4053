package batchsim.core.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.core.metrics.RunResult;
import batchsim.core.metrics.WorkloadRecord;
import batchsim.core.model.PreemptionPolicy;
import batchsim.core.model.PreemptionSpec;
import batchsim.core.model.QuotaSpec;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SimulationTest {
  private static final long NO = QuotaSpec.UNLIMITED;

  private static Map<String, WorkloadRecord> byId(RunResult r) {
    Map<String, WorkloadRecord> m = new HashMap<>();
    for (WorkloadRecord w : r.workloads()) {
      m.put(w.id(), w);
    }
    return m;
  }

  @Test
  void run_workloadsBeyondQuota_waitForQuotaReleasedOnFinish() {
    // One queue, 8 GPUs of quota on a 16-GPU pool: two 8-GPU jobs run one after the other.
    Specs s = new Specs().pool("gpu", 2, 64_000, 8).flavor("a100", "gpu")
        .gpuQueue("team-a", null, "a100", 8, NO, NO, PreemptionSpec.NEVER)
        .job("j1", "team-a", 0, 0, 1, 8, 3_600_000)
        .job("j2", "team-a", 1_000, 0, 1, 8, 3_600_000);
    RunResult r = new Simulation(s.build()).checked(true).run();
    Map<String, WorkloadRecord> w = byId(r);
    assertEquals(0, w.get("j1").quotaReservedMs());
    assertEquals(3_600_000, w.get("j1").finishedMs());
    // j2 is parked (NoFit → inadmissible) and returns after Kueue's 1 s batch delay.
    assertEquals(3_601_000, w.get("j2").quotaReservedMs());
    assertEquals(7_201_000, w.get("j2").finishedMs());
    assertEquals(2, r.overall().finished());
  }

  @Test
  void run_cohortBorrowing_admitsAboveNominalWhenLenderIsIdle() {
    Specs s = new Specs().pool("gpu", 4, 64_000, 8).flavor("a100", "gpu")
        .gpuQueue("team-a", "org", "a100", 16, NO, NO, PreemptionSpec.NEVER)
        .gpuQueue("team-b", "org", "a100", 16, NO, NO, PreemptionSpec.NEVER)
        .job("a1", "team-a", 0, 0, 3, 8, 60_000);
    RunResult r = new Simulation(s.build()).checked(true).run();
    assertEquals(0, byId(r).get("a1").quotaReservedMs(), "24 GPUs = 16 nominal + 8 borrowed from team-b");
    var usage = r.queueUsage().stream().filter(u -> u.clusterQueue().equals("team-a")).findFirst().orElseThrow();
    assertEquals(24, usage.peakUsage());
    assertTrue(usage.meanBorrowed() > 0);
  }

  @Test
  void run_podsThatDoNotFitNodes_waitForCapacityAfterAdmission() {
    // Quota (16) exceeds physical capacity (8): the second job is admitted but its pod waits for a node.
    Specs s = new Specs().pool("gpu", 1, 64_000, 8).flavor("a100", "gpu")
        .gpuQueue("team-a", null, "a100", 16, NO, NO, PreemptionSpec.NEVER)
        .job("j1", "team-a", 0, 0, 1, 8, 10_000)
        .job("j2", "team-a", 0, 0, 1, 8, 10_000);
    RunResult r = new Simulation(s.build()).checked(true).run();
    Map<String, WorkloadRecord> w = byId(r);
    assertEquals(0, w.get("j2").quotaReservedMs());
    assertEquals(10_000, w.get("j2").startedMs());
    assertEquals(20_000, w.get("j2").finishedMs());
  }

  @Test
  void run_reclaimWithinCohort_preemptsBorrowerAndReadmitsLater() {
    PreemptionSpec reclaim = new PreemptionSpec(PreemptionPolicy.NEVER, PreemptionPolicy.ANY, PreemptionPolicy.NEVER, null);
    Specs s = new Specs().pool("gpu", 2, 64_000, 8).flavor("a100", "gpu")
        .gpuQueue("team-a", "org", "a100", 8, NO, NO, reclaim)
        .gpuQueue("team-b", "org", "a100", 8, NO, NO, reclaim)
        .job("b-borrow", "team-b", 0, 0, 2, 8, 100_000)
        .job("a-own", "team-a", 10_000, 0, 1, 8, 50_000);
    s.kueue = new batchsim.core.model.KueueConfig(false, batchsim.core.model.KueueConfig.DEFAULT_STRATEGIES, 0, 1_000,
        5_000, true, true);
    RunResult r = new Simulation(s.build()).checked(true).run();
    Map<String, WorkloadRecord> w = byId(r);
    assertEquals(1, w.get("b-borrow").preemptions());
    // Evicted at 10 s, pods gone after the 5 s grace period, then team-a's job is admitted.
    assertEquals(15_000, w.get("a-own").quotaReservedMs());
    assertEquals("FINISHED", w.get("b-borrow").state());
    assertTrue(w.get("b-borrow").quotaReservedMs() >= 65_000, "readmitted after a-own finished");
  }

  @Test
  void run_sameSpecTwice_identicalRecords() {
    Specs s = new Specs().pool("gpu", 2, 64_000, 8).flavor("a100", "gpu")
        .gpuQueue("team-a", "org", "a100", 8, NO, NO, PreemptionSpec.NEVER)
        .gpuQueue("team-b", "org", "a100", 8, NO, NO, PreemptionSpec.NEVER);
    for (int i = 0; i < 50; i++) {
      s.job("j" + i, i % 2 == 0 ? "team-a" : "team-b", i * 7_000L, i % 3, 1 + i % 3, 2, 30_000 + i * 1_000L);
    }
    RunResult a = new Simulation(s.build()).checked(true).run();
    RunResult b = new Simulation(s.build()).checked(true).run();
    assertEquals(a.workloads(), b.workloads());
    assertEquals(a.events(), b.events());
  }
}
