package batchsim.core.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.core.metrics.RunResult;
import batchsim.core.metrics.WorkloadRecord;
import batchsim.core.model.ClusterAction;
import batchsim.core.model.ClusterAction.StopPolicy;
import batchsim.core.model.KueueConfig;
import batchsim.core.model.LongDistribution;
import batchsim.core.model.PodSetSpec;
import batchsim.core.model.PreemptionSpec;
import batchsim.core.model.QuotaSpec;
import batchsim.core.model.ServingSpec;
import batchsim.core.model.TimelineEvent;
import batchsim.core.model.WaitForPodsReady;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The event timeline and Kubernetes' reactions to it. */
class TimelineTest {
  private static final long NO = QuotaSpec.UNLIMITED;

  private static Map<String, WorkloadRecord> byId(RunResult r) {
    Map<String, WorkloadRecord> m = new HashMap<>();
    r.workloads().forEach(w -> m.put(w.id(), w));
    return m;
  }

  private static Specs oneQueue(long quota, int nodes) {
    return new Specs().pool("gpu", nodes, 64_000, 8).flavor("a100", "gpu")
        .gpuQueue("team-a", null, "a100", quota, NO, NO, PreemptionSpec.NEVER);
  }

  @Test
  void failNodes_runningJobRestartsOnAnotherNodeAndLosesItsProgress() {
    Specs s = oneQueue(16, 2).job("j1", "team-a", 0, 0, 1, 8, 3_600_000);
    // LeastAllocated puts j1 on gpu-0; it fails at 30 min, the pod moves to gpu-1 and runs a full hour again.
    s.timeline.add(TimelineEvent.once(1_800_000, new ClusterAction.FailNodes("gpu", 0, List.of("gpu-0"), null)));
    RunResult r = new Simulation(s.build()).checked(true).run();
    WorkloadRecord j1 = byId(r).get("j1");
    assertEquals(1_800_000, j1.startedMs(), "restarted when the replacement pod ran");
    assertEquals(5_400_000, j1.finishedMs());
    assertEquals(0, j1.evictions(), "a pod failure with spare capacity is a restart, not an eviction");
    assertEquals(1, r.pools().get(0).failures());
    assertEquals(8.0 * 3_600_000 / 2, r.preemption().get(0).lostResourceMs().get("nvidia.com/gpu"), 1e-6,
        "half an hour of 8 GPUs lost");
  }

  @Test
  void failNodes_noSpareCapacity_podsReadyRecoveryTimeoutEvictsWithBackoff() {
    Specs s = oneQueue(8, 1).job("j1", "team-a", 0, 0, 1, 8, 3_600_000);
    s.kueue = KueueConfig.defaults().withWaitForPodsReady(
        new WaitForPodsReady(true, 600_000, 300_000, 60_000, 3_600_000, -1, false));
    // The only node fails for 2 h; after the 5 min recovery timeout the job is evicted (PodsReadyTimeout),
    // requeued after a 60 s backoff, readmitted, and times out again (10 min) while the node is down.
    s.timeline.add(TimelineEvent.once(600_000, new ClusterAction.FailNodes("gpu", 1, List.of(),
        LongDistribution.constant(7_200_000))));
    RunResult r = new Simulation(s.build()).checked(true).run();
    WorkloadRecord j1 = byId(r).get("j1");
    assertTrue(j1.evictions() >= 2, "evicted on recovery timeout, then on the admission timeout");
    assertEquals("FINISHED", j1.state());
    assertTrue(j1.startedMs() >= 7_800_000, "ran again only after the node was repaired");
    assertTrue(r.preemption().get(0).evictionsByReason().get("PodsReadyTimeout") >= 2);
  }

  @Test
  void setQuota_raisingNominal_admitsParkedWorkloads() {
    Specs s = oneQueue(8, 4).job("j1", "team-a", 0, 0, 1, 8, 3_600_000).job("j2", "team-a", 0, 0, 1, 8, 3_600_000);
    s.timeline.add(TimelineEvent.once(600_000, new ClusterAction.SetQuota("team-a", "a100", "nvidia.com/gpu",
        QuotaSpec.nominal(16))));
    RunResult r = new Simulation(s.build()).checked(true).run();
    // Kueue: a ClusterQueue change retries the parked workloads (after the 1 s batch delay).
    assertEquals(601_000, byId(r).get("j2").quotaReservedMs());
  }

  @Test
  void setQuota_loweringBelowUsage_evictsNothingAndBlocksNewAdmissions() {
    Specs s = oneQueue(16, 4).job("j1", "team-a", 0, 0, 2, 8, 3_600_000).job("j2", "team-a", 60_000, 0, 1, 8, 60_000);
    s.timeline.add(TimelineEvent.once(1_000, new ClusterAction.SetQuota("team-a", "a100", "nvidia.com/gpu",
        QuotaSpec.nominal(8))));
    RunResult r = new Simulation(s.build()).checked(true).run();
    assertEquals(0, byId(r).get("j1").evictions());
    assertEquals(3_601_000, byId(r).get("j2").quotaReservedMs(), "waits until j1 drains below the new quota");
  }

  @Test
  void stopClusterQueue_holdAndDrain_evictsAndResumeReadmits() {
    Specs s = oneQueue(8, 1).job("j1", "team-a", 0, 0, 1, 8, 3_600_000);
    s.timeline.add(TimelineEvent.once(600_000, new ClusterAction.StopQueue("team-a", null, StopPolicy.HOLD_AND_DRAIN)));
    s.timeline.add(TimelineEvent.once(1_200_000, new ClusterAction.StopQueue("team-a", null, StopPolicy.NONE)));
    RunResult r = new Simulation(s.build()).checked(true).run();
    WorkloadRecord j1 = byId(r).get("j1");
    assertEquals(1, j1.evictions());
    assertEquals(1_201_000, j1.quotaReservedMs(), "readmitted after the restart (and the 1 s requeue batch)");
    assertEquals(1_201_000 + 3_600_000, j1.finishedMs());
  }

  @Test
  void deleteLocalQueue_laterArrivalsAreReportedPendingNotLost() {
    Specs s = oneQueue(8, 1).job("j1", "team-a", 600_000, 0, 1, 8, 60_000);
    s.timeline.add(TimelineEvent.once(0, new ClusterAction.DeleteQueue(null, "team-a")));
    RunResult r = new Simulation(s.build()).checked(true).run();
    WorkloadRecord j1 = byId(r).get("j1");
    assertEquals("PENDING", j1.state());
    assertTrue(j1.lastMessage().contains("LocalQueue team-a doesn't exist"), j1.lastMessage());
    assertEquals(1, r.overall().pendingAtEnd());
  }

  @Test
  void addAndRemoveNodes_capacityIsIntegratedOverTime() {
    Specs s = oneQueue(64, 1);
    s.horizon = 4_000_000;
    s.timeline.add(TimelineEvent.once(1_000_000, new ClusterAction.AddNodes("gpu", 3)));
    s.timeline.add(TimelineEvent.once(3_000_000, new ClusterAction.RemoveNodes("gpu", 2)));
    RunResult r = new Simulation(s.build()).checked(true).run();
    // 1 node for 1000 s, 4 for 2000 s, 2 for 1000 s = 11,000 node-seconds over 4000 s = 2.75 nodes.
    var gpu = r.utilization().stream().filter(u -> u.flavor().equals("a100") && u.resource().equals("nvidia.com/gpu"))
        .findFirst().orElseThrow();
    assertEquals(2.75 * 8, gpu.meanCapacity(), 1e-9);
    assertEquals(11_000.0 / 3_600, r.pools().get(0).nodeHours(), 1e-9);
  }

  @Test
  void serving_quickScaleUpDuringSlowDelete_newerPodGroupSurvivesAndRuns() {
    Specs s = oneQueue(16, 2);
    PodSetSpec pod = PodSetSpec.of("main", 1, Specs.res(0, 1));
    // Up 10 min, down 1 min, deletes take 2 min and half of the attempts fail (retry after 5 min): the old
    // PodGroup is often still being deleted when the next one of the same name is created.
    s.serving.add(new ServingSpec("web", "team-a", 0, pod, 0, LongDistribution.constant(600_000),
        LongDistribution.constant(60_000), 200, LongDistribution.constant(120_000), 0.5, LongDistribution.constant(300_000)));
    RunResult r = new Simulation(s.build()).checked(true).run();
    var web = r.serving().get(0);
    assertEquals(200, web.scaleUps());
    assertEquals(200, web.scaleUpsRan(), "every scale-up's pods ran");
    assertTrue(web.deleteRetries() > 50, "retries happened: " + web.deleteRetries());
    assertTrue(web.newerPodGroupsKept() > 0, "some retries found a newer PodGroup and left it alone");
  }

  @Test
  void failureModel_overThirtyDays_failsAndRepairsNodes() {
    Specs s = oneQueue(64, 8);
    s.horizon = 30L * 86_400_000;
    for (int i = 0; i < 200; i++) {
      s.job("j" + i, "team-a", i * 3_600_000L, 0, 1, 8, 7_200_000);
    }
    s.failures.add(new batchsim.core.model.FailureModel("gpu", rnd -> Math.round(-5 * 86_400_000.0 * Math.log(1 - rnd.nextDouble())),
        LongDistribution.constant(4 * 3_600_000)));
    RunResult r = new Simulation(s.build()).checked(true).run();
    // 8 nodes × 30 days / 5 days MTBF ≈ 48 failures.
    assertTrue(r.pools().get(0).failures() > 25 && r.pools().get(0).failures() < 80, "" + r.pools().get(0).failures());
    assertTrue(r.pools().get(0).failedNodeHours() > 50);
  }
}
