package batchsim.core.world.kueue;

import static org.junit.jupiter.api.Assertions.assertEquals;

import batchsim.core.kueue.Scheduler.CycleOutcome;
import batchsim.core.model.ControllerPaceConfig;
import org.junit.jupiter.api.Test;

class CycleCostTest {
  private final CycleCost cost = new CycleCost(1_000, 20, 200, 5);

  @Test
  void aCycleCostsItsSnapshotItsHeadsAndItsPreemptionCandidates() {
    // 30 ClusterQueues snapshotted, 30 heads, 120 candidates visited by preemption searches.
    assertEquals(1_000 + 30 * 20 + 30 * 200 + 120 * 5, cost.micros(new CycleOutcome(30, 2, 1, true, 120, 5), 30));
    // Twice the heads cost more, the admissions and writes themselves are the client's (not the cycle's).
    assertEquals(1_000 + 30 * 20 + 60 * 200, cost.micros(new CycleOutcome(60, 60, 0, true, 0, 0), 30));
  }

  @Test
  void withNoHeadsKueuesLoopWaitsAndTakesNoSnapshot() {
    assertEquals(0, cost.micros(new CycleOutcome(0, 0, 0, false, 0, 0), 1_000));
  }

  @Test
  void theDefaultsAreTheConfiguredOnes() {
    ControllerPaceConfig d = ControllerPaceConfig.defaults();
    assertEquals(new CycleCost(d.cycleBaseUs(), d.perClusterQueueUs(), d.perHeadUs(), d.perCandidateUs()),
        CycleCost.of(d));
    assertEquals(50, d.clientQps());
    assertEquals(100, d.clientBurst());
  }
}
