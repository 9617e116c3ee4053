package batchsim.core.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.core.metrics.Decision;
import batchsim.core.metrics.RunResult;
import batchsim.core.metrics.WorkloadRecord;
import batchsim.core.model.ClusterAction;
import batchsim.core.model.PreemptionSpec;
import batchsim.core.model.QuotaSpec;
import batchsim.core.model.TimelineEvent;
import batchsim.core.model.VolcanoAction;
import batchsim.core.model.WorkloadAction;
import batchsim.core.volcano.ResourceList;
import batchsim.core.volcano.VolcanoConfig;
import batchsim.core.volcano.VolcanoQueueSpec;
import batchsim.core.volcano.VolcanoSetup;
import batchsim.core.world.TimelineError;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Volcano's queue, PodGroup and job deletions applied by the timeline, over runs with the invariant checker on. */
class VolcanoTimelineTest {
  private static final long NO = QuotaSpec.UNLIMITED;
  private static final long MIN = 60_000;
  private static final long HOUR = 3_600_000;

  /** Two 8-GPU nodes; hierarchical capacity queues org → team-a, team-b. */
  private static Specs cluster() {
    return new Specs().pool("gpu", 2, 64_000, 8).flavor("a100", "gpu")
        .gpuQueue("team-a", "org", "a100", 8, NO, NO, PreemptionSpec.NEVER)
        .gpuQueue("team-b", "org", "a100", 8, NO, NO, PreemptionSpec.NEVER);
  }

  private static VolcanoSetup hierarchy() {
    ResourceList gpus = ResourceList.of("nvidia.com/gpu", 16);
    List<VolcanoQueueSpec> queues = List.of(VolcanoQueueSpec.of("org").withCapability(gpus).withDeserved(gpus),
        VolcanoQueueSpec.of("team-a").withParent("org"), VolcanoQueueSpec.of("team-b").withParent("org"));
    return new VolcanoSetup(VolcanoConfig.capacity(true), queues,
        new TreeMap<>(Map.of("team-a", "team-a", "team-b", "team-b")), 60_000);
  }

  private static void at(Specs s, long ms, ClusterAction a) {
    s.timeline.add(TimelineEvent.once(ms, a));
  }

  private static RunResult run(Specs s) {
    return Runs.run(s.build(), hierarchy(), true, true);
  }

  private static Map<String, WorkloadRecord> byId(RunResult r) {
    Map<String, WorkloadRecord> m = new HashMap<>();
    r.workloads().forEach(w -> m.put(w.id(), w));
    return m;
  }

  private static List<String> story(RunResult r, String id) {
    return r.decisions().get(id).stream().map(Decision::reason).toList();
  }

  @Test
  void closingAParentClosesItsChildren_aChildCannotOpenBeforeIt_openingItReopensThem() {
    Specs s = cluster().job("b1", "team-b", 20 * MIN, 0, 1, 1, HOUR).job("b2", "team-b", 2 * HOUR, 0, 1, 1, HOUR);
    at(s, 10 * MIN, new VolcanoAction.CloseQueue("org"));
    at(s, HOUR, new VolcanoAction.OpenQueue("org"));
    Map<String, WorkloadRecord> w = byId(run(s));
    // queue controller: closeHierarchicalQueue closes the children (closed-by-parent); no PodGroups → Closed
    assertEquals("can only submit job to queue with state `Open`, queue `team-b` status is `Closed`",
        w.get("b1").lastMessage());
    assertEquals("FINISHED", w.get("b2").state(), "openHierarchicalQueue reopened the children it closed");

    Specs t = cluster().job("a1", "team-a", 0, 0, 1, 1, HOUR);
    at(t, 10 * MIN, new VolcanoAction.CloseQueue("org"));
    at(t, 20 * MIN, new VolcanoAction.OpenQueue("team-a"));
    TimelineError e = assertThrows(TimelineError.class, () -> run(t));
    assertTrue(e.getMessage().endsWith("Failed to open queue team-a because its parent queue org is closing or closed."
        + " Open the parent queue first."), e.getMessage());
  }

  @Test
  void aClosingQueueIsClosedOnceItsLastPodGroupIsGone() {
    Specs s = cluster().job("a1", "team-a", 0, 0, 1, 1, HOUR).job("a2", "team-a", 30 * MIN, 0, 1, 1, HOUR)
        .job("a3", "team-a", 2 * HOUR, 0, 1, 1, HOUR);
    at(s, 10 * MIN, new VolcanoAction.CloseQueue("team-a"));
    Map<String, WorkloadRecord> w = byId(run(s));
    assertEquals("FINISHED", w.get("a1").state());
    assertTrue(w.get("a2").lastMessage().endsWith("status is `Closing`"), w.get("a2").lastMessage());
    assertTrue(w.get("a3").lastMessage().endsWith("status is `Closed`"), w.get("a3").lastMessage());
  }

  @Test
  void deletedPodGroup_isCreatedAgainPending_andTheRunningGangIsRunningAgainAtTheNextSession() {
    Specs s = cluster().job("a1", "team-a", 0, 0, 2, 8, HOUR);
    at(s, 10 * MIN, new VolcanoAction.DeletePodGroup("a1"));
    RunResult r = run(s);
    List<String> story = story(r, "a1");
    int deleted = story.indexOf("PodGroupDeleted");
    assertTrue(deleted > 0, story.toString());
    assertEquals("PodGroupCreated", story.get(deleted + 1));
    assertEquals("PhaseChanged", story.get(deleted + 2)); // Pending -> Running at the next session close
    assertEquals("Pending -> Running", r.decisions().get("a1").get(deleted + 2).message());
    assertEquals(HOUR, byId(r).get("a1").finishedMs());
  }

  @Test
  void aPodGroupDeletedInAClosedQueue_waitsForTheQueueToOpen() {
    Specs s = cluster().job("big", "team-b", 0, 0, 2, 8, HOUR).job("a1", "team-a", MIN, 0, 1, 8, HOUR);
    at(s, 10 * MIN, new VolcanoAction.CloseQueue("team-a"));
    at(s, 20 * MIN, new VolcanoAction.DeletePodGroup("a1"));
    at(s, 3 * HOUR, new VolcanoAction.OpenQueue("team-a"));
    RunResult r = run(s);
    List<String> story = story(r, "a1");
    assertTrue(story.contains("AdmissionRefused"), story.toString());
    assertEquals(3 * HOUR, r.decisions().get("a1").get(story.indexOf("PodGroupCreated")).timeMs());
    assertTrue(byId(r).get("a1").quotaReservedMs() >= 3 * HOUR);
  }

  @Test
  void deletedJob_pendingIsGoneAtOnce_runningHoldsItsNodesForTheGracePeriod() {
    Specs s = cluster().job("a1", "team-a", 0, 0, 2, 8, HOUR).job("b1", "team-b", MIN, 0, 2, 8, HOUR)
        .job("b2", "team-b", 2 * MIN, 0, 2, 8, HOUR);
    at(s, 5 * MIN, new WorkloadAction.Delete("b2"));
    at(s, 10 * MIN, new WorkloadAction.Delete("a1"));
    Map<String, WorkloadRecord> w = byId(run(s));
    assertEquals("DELETED", w.get("a1").state());
    assertEquals("DELETED", w.get("b2").state());
    assertEquals(11 * MIN, w.get("b1").quotaReservedMs(), "after a1's pods' 1m grace period");
    Specs t = cluster().job("a1", "team-a", 0, 0, 1, 1, HOUR);
    at(t, 10 * MIN, new WorkloadAction.Delete("a1"));
    at(t, 20 * MIN, new WorkloadAction.Delete("a1"));
    assertTrue(assertThrows(TimelineError.class, () -> run(t)).getMessage()
        .endsWith("workload a1 does not exist: it was deleted at 10m"));
  }

  @Test
  void aLoweredCapability_evictsNothing_andHoldsNewWorkUntilTheQueueIsBelowIt() {
    Specs s = cluster().job("a1", "team-a", 0, 0, 2, 8, HOUR).job("a2", "team-a", MIN, 0, 1, 4, HOUR);
    TreeMap<String, Long> four = new TreeMap<>(Map.of("nvidia.com/gpu", 4L));
    at(s, 10 * MIN, new VolcanoAction.UpdateQueue("org",
        new VolcanoAction.QueueFields(null, null, four, four, null, null, null)));
    Map<String, WorkloadRecord> w = byId(run(s)); // checked: allocated above the lowered capability is allowed
    assertEquals(HOUR, w.get("a1").finishedMs());
    assertEquals(HOUR, w.get("a2").quotaReservedMs());
  }

  @Test
  void deletedQueueCreatedAgain_schedulesItsJobsAgain() {
    Specs s = cluster().job("big", "team-a", 0, 0, 2, 8, HOUR).job("b1", "team-b", MIN, 0, 1, 8, HOUR);
    at(s, 10 * MIN, new VolcanoAction.DeleteQueue("team-b"));
    at(s, 3 * HOUR, new VolcanoAction.CreateQueue("team-b",
        new VolcanoAction.QueueFields("org", null, null, null, null, null, null)));
    WorkloadRecord b1 = byId(run(s)).get("b1");
    assertTrue(b1.quotaReservedMs() >= 3 * HOUR && b1.quotaReservedMs() < 3 * HOUR + MIN, b1.toString());
  }
}
