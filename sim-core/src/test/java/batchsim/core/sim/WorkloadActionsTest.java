package batchsim.core.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.core.metrics.RunResult;
import batchsim.core.metrics.WorkloadRecord;
import batchsim.core.model.PreemptionSpec;
import batchsim.core.model.QuotaSpec;
import batchsim.core.model.TimelineEvent;
import batchsim.core.model.WorkloadAction;
import batchsim.core.world.TimelineError;
import batchsim.core.world.volcano.VolcanoAdmission;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The workload timeline actions under Kueue, in checked runs (every touched workload's state is verified). */
class WorkloadActionsTest {
  private static final long NO = QuotaSpec.UNLIMITED;
  private static final long MIN = 60_000;
  private static final long HOUR = 3_600_000;

  /** Two 8-GPU queues on two 8-GPU nodes; j1 runs in team-a, j2 waits behind it. */
  private static Specs twoQueues() {
    return new Specs().pool("gpu", 2, 64_000, 8).flavor("a100", "gpu")
        .gpuQueue("team-a", null, "a100", 8, NO, NO, PreemptionSpec.NEVER)
        .gpuQueue("team-b", null, "a100", 8, NO, NO, PreemptionSpec.NEVER)
        .job("j1", "team-a", 0, 0, 1, 8, 3 * HOUR)
        .job("j2", "team-a", MIN, 0, 1, 8, HOUR);
  }

  private static Map<String, WorkloadRecord> run(Specs s, WorkloadAction... actions) {
    for (int i = 0; i < actions.length; i++) {
      s.timeline.add(TimelineEvent.once((i + 1) * 10 * MIN, actions[i]));
    }
    RunResult r = new Simulation(s.build()).checked(true).run();
    Map<String, WorkloadRecord> m = new HashMap<>();
    r.workloads().forEach(w -> m.put(w.id(), w));
    return m;
  }

  @Test
  void finish_releasesTheQuotaAtOnce() {
    Map<String, WorkloadRecord> r = run(twoQueues(), new WorkloadAction.Finish("j1", true));
    assertEquals(10 * MIN, r.get("j1").finishedMs());
    assertEquals("FINISHED", r.get("j1").state());
    assertTrue(r.get("j2").quotaReservedMs() <= 10 * MIN + 1000, "j2 takes the quota: " + r.get("j2"));
  }

  @Test
  void deactivateThenActivate_evictsAndRequeues() {
    Map<String, WorkloadRecord> r = run(twoQueues(), new WorkloadAction.SetActive("j1", false),
        new WorkloadAction.SetActive("j1", true));
    WorkloadRecord j1 = r.get("j1");
    assertEquals(1, j1.evictions());
    assertEquals("FINISHED", j1.state());
    assertTrue(j1.startedMs() >= r.get("j2").finishedMs(), "j1 waits for j2, which took its quota: " + j1);
  }

  @Test
  void move_aPendingWorkloadRunsInTheOtherClusterQueue() {
    Map<String, WorkloadRecord> r = run(twoQueues(), new WorkloadAction.Move("j2", "team-b"));
    assertEquals("team-b", r.get("j2").clusterQueue());
    assertEquals(10 * MIN, r.get("j2").quotaReservedMs(), "reserved in the cycle right after the move");
  }

  @Test
  void finishOrDeleteWhileEvicted_leaveNothingBehind() {
    Map<String, WorkloadRecord> r = run(twoQueues(), new WorkloadAction.SetActive("j1", false),
        new WorkloadAction.Delete("j2"));
    assertEquals("DELETED", r.get("j2").state());
    Specs s = twoQueues();
    // Deactivated at 10m, its pods terminate for 30 s; it finishes within that grace period.
    s.timeline.add(TimelineEvent.once(10 * MIN + 10_000, new WorkloadAction.Finish("j1", false)));
    r = run(s, new WorkloadAction.SetActive("j1", false));
    assertEquals("FINISHED", r.get("j1").state());
  }

  @Test
  void priority_reordersThePendingWorkloads() {
    Specs s = twoQueues().job("j3", "team-a", 2 * MIN, 0, 1, 8, HOUR);
    Map<String, WorkloadRecord> r = run(s, new WorkloadAction.SetPriority("j3", 5, null),
        new WorkloadAction.Finish("j1", true));
    assertTrue(r.get("j3").quotaReservedMs() < r.get("j2").quotaReservedMs(), "j3 before j2: " + r);
    assertEquals(5, r.get("j3").priority());
  }

  @Test
  void anActionOnAWorkloadThatIsGone_stopsTheRun() {
    Specs s = twoQueues();
    s.timeline.add(TimelineEvent.once(10 * MIN, new WorkloadAction.Finish("j1", true)));
    s.timeline.add(TimelineEvent.once(20 * MIN, new WorkloadAction.SetActive("j1", false)));
    TimelineError e = assertThrows(TimelineError.class, () -> new Simulation(s.build()).checked(true).run());
    assertEquals("timeline: at 20m: workload j1 does not exist: it finished at 10m", e.getMessage());
    Specs early = twoQueues();
    early.timeline.add(TimelineEvent.once(0, new WorkloadAction.Move("j2", "team-b")));
    e = assertThrows(TimelineError.class, () -> new Simulation(early.build()).run());
    assertEquals("timeline: at 0s: workload j2 does not exist: it has not arrived (yet)", e.getMessage());
  }

  @Test
  void underVolcano_theWorkloadActionsAreRefusedWithTheirLocation() {
    Specs s = twoQueues();
    s.timeline.add(new TimelineEvent(10 * MIN, null, Long.MAX_VALUE, new WorkloadAction.SetActive("j1", false),
        "s.yaml:30:5: events[0]"));
    assertEquals(List.of("s.yaml:30:5: events[0]: timeline action SetActive[workload=j1, active=false] is not supported"
        + " under Volcano (a Kueue workload action)"), VolcanoAdmission.unsupported(s.build()));
  }
}
