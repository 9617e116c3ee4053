package batchsim.core.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The livelock guard's and the frequent-preemption warning's thresholds, at their edges. */
class RecorderChurnTest {
  private static Recorder recorder() {
    return new Recorder(List.of("q"), 1, 1, 0);
  }

  @Test
  void moreThanThreeReadmissionsInOneInstantIsALivelock() {
    Recorder r = recorder();
    for (int i = 0; i < Recorder.LIVELOCK_READMISSIONS_PER_INSTANT; i++) {
      r.readmitted(0, "w", 5_000, 0);
    }
    r.readmitted(0, "other", 5_000, 0);
    assertTrue(r.livelocks().isEmpty(), "three in one instant is allowed");
    r.readmitted(0, "w", 5_000, 0);
    assertEquals(List.of("livelock: workload w was evicted and readmitted 4 times within one virtual instant "
        + "(more than 3)"), r.livelocks());
  }

  @Test
  void moreThanTenReadmissionsInOneMinuteIsALivelock() {
    Recorder r = recorder();
    // 6 s apart: ten fit in any minute, never eleven
    for (int i = 0; i < 40; i++) {
      r.readmitted(0, "slow", i * 6_000L, 6_000);
    }
    assertTrue(r.livelocks().isEmpty(), () -> r.livelocks().toString());
    for (int i = 0; i < 11; i++) {
      r.readmitted(0, "fast", 100_000 + i * 5_900L, 5_900);
    }
    assertEquals(List.of("livelock: workload fast was evicted and readmitted 11 times within one virtual "
        + "minute (more than 10)"), r.livelocks());
  }

  @Test
  void workloadsPreemptedMoreThanTenTimesInOneHourAreNamedWithTheirWorstHour() {
    Recorder r = recorder();
    for (int i = 0; i < 30; i++) { // every 5 minutes: 12 in any hour
      r.evicted(0, "churn", i * 300_000L, "Preempted", "InCohortReclamation");
    }
    for (int i = 0; i < 30; i++) { // every 6 minutes: 10 in any hour, the threshold itself
      r.evicted(0, "steady", i * 360_000L, "Preempted", "InCohortFairSharing");
    }
    for (int i = 0; i < 30; i++) { // not preemptions
      r.evicted(0, "failing", i * 1_000L, "PodsReadyTimeout", null);
    }
    assertEquals(Map.of("churn", 12), r.preemptionStats(0).frequentlyPreempted());
    assertEquals(Map.of("churn", 12), r.overallPreemptionStats().frequentlyPreempted());
  }
}
