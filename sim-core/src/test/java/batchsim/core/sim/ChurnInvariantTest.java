package batchsim.core.sim;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.core.model.LongDistribution;
import batchsim.core.model.PodSetSpec;
import batchsim.core.model.PreemptionSpec;
import batchsim.core.model.QuotaSpec;
import batchsim.core.model.ServingSpec;
import org.junit.jupiter.api.Test;

/** The PodGroup invariant fires when a deletion removes the newer PodGroup of the same name. */
class ChurnInvariantTest {
  @Test
  void deleteByName_removingTheScaledUpPodGroup_isAViolation() {
    Specs s = new Specs().pool("gpu", 1, 64_000, 8).flavor("a100", "gpu")
        .gpuQueue("team-a", null, "a100", 8, QuotaSpec.UNLIMITED, QuotaSpec.UNLIMITED, PreemptionSpec.NEVER);
    s.serving.add(new ServingSpec("web", "team-a", 0, PodSetSpec.of("main", 1, Specs.res(0, 1)), 0,
        LongDistribution.constant(600_000), LongDistribution.constant(60_000), 3, LongDistribution.constant(0), 0,
        LongDistribution.constant(1_000)));
    Simulation sim = new Simulation(s.build());
    sim.runUntil(700_000); // scaled down at 10 min, scaled up again at 11 min (web#2)
    assertTrue(sim.churn.checkInvariants().isEmpty());
    sim.churn.deleteNewestByName("web"); // the bug: a stale delete-by-name hits web#2
    assertFalse(sim.churn.checkInvariants().isEmpty());
  }

  @Test
  void operationOnAFinishedWorkload_isAViolation() {
    Specs s = new Specs().pool("gpu", 1, 64_000, 8).flavor("a100", "gpu")
        .gpuQueue("team-a", null, "a100", 8, QuotaSpec.UNLIMITED, QuotaSpec.UNLIMITED, PreemptionSpec.NEVER)
        .job("j1", "team-a", 0, 0, 1, 8, 1_000);
    Simulation sim = new Simulation(s.build());
    sim.runUntil(10_000);
    var w = sim.kueue.reservedWorkloads();
    assertTrue(w.isEmpty(), "j1 finished");
    assertTrue(sim.kueue.takeOperationViolations().isEmpty());
    sim.kueue.delete(findFinished(sim)); // deleting a finished workload is refused and reported
    assertFalse(sim.kueue.takeOperationViolations().isEmpty());
  }

  private static batchsim.core.kueue.Workload findFinished(Simulation sim) {
    return sim.finishedForTest();
  }
}
