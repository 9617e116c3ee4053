package batchsim.core.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.core.metrics.RunResult;
import batchsim.core.metrics.ServingStats;
import batchsim.core.metrics.WorkloadRecord;
import batchsim.core.model.ClusterAction;
import batchsim.core.model.LongDistribution;
import batchsim.core.model.PodSetSpec;
import batchsim.core.model.PreemptionSpec;
import batchsim.core.model.QuotaSpec;
import batchsim.core.model.ServingSpec;
import batchsim.core.model.TimelineEvent;
import batchsim.core.volcano.ResourceList;
import batchsim.core.volcano.VolcanoConfig;
import batchsim.core.volcano.VolcanoQueueSpec;
import batchsim.core.volcano.VolcanoSetup;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Runs under Volcano, always with the invariant checker on (the hierarchical-queue invariant every session). */
class VolcanoSimulationTest {
  private static final long NO = QuotaSpec.UNLIMITED;
  private static final long HOUR = 3_600_000;

  private static Specs twoTeams(int nodes) {
    return new Specs().pool("gpu", nodes, 64_000, 8).flavor("a100", "gpu")
        .gpuQueue("team-a", "org", "a100", 8, NO, NO, PreemptionSpec.NEVER)
        .gpuQueue("team-b", "org", "a100", 8, NO, NO, PreemptionSpec.NEVER);
  }

  private static VolcanoQueueSpec queue(String name, String parent, long deservedGpu, long capabilityGpu) {
    VolcanoQueueSpec q = VolcanoQueueSpec.of(name).withParent(parent);
    if (deservedGpu > 0) {
      q = q.withDeserved(ResourceList.of("nvidia.com/gpu", deservedGpu));
    }
    return capabilityGpu > 0 ? q.withCapability(ResourceList.of("nvidia.com/gpu", capabilityGpu)) : q;
  }

  private static VolcanoSetup setup(VolcanoConfig config, List<VolcanoQueueSpec> queues) {
    TreeMap<String, String> queueFor = new TreeMap<>(Map.of("team-a", "team-a", "team-b", "team-b"));
    return new VolcanoSetup(config, queues, queueFor, 0);
  }

  private static VolcanoSetup flatTeams(VolcanoConfig config) {
    return setup(config, List.of(queue("team-a", null, 8, 16), queue("team-b", null, 8, 16)));
  }

  private static RunResult run(Specs s, VolcanoSetup setup) {
    return Runs.run(s.build(), setup, true);
  }

  private static Map<String, WorkloadRecord> byId(RunResult r) {
    Map<String, WorkloadRecord> m = new HashMap<>();
    r.workloads().forEach(w -> m.put(w.id(), w));
    return m;
  }

  @Test
  void gang_waitsUntilItFitsWhole_andIsAdmittedWhenAllPodsAreBound() {
    Specs s = twoTeams(2)
        .job("a1", "team-a", 0, 0, 2, 8, HOUR)    // both nodes
        .job("a2", "team-a", 1_500, 0, 1, 8, HOUR); // same queue: nothing to reclaim
    RunResult r = run(s, flatTeams(VolcanoConfig.capacity(false)));
    Map<String, WorkloadRecord> w = byId(r);
    assertEquals(0, w.get("a1").quotaReservedMs());
    assertEquals(0, w.get("a1").startedMs());
    assertEquals(HOUR, w.get("a1").finishedMs());
    // a2 waits for room; the first session after a1 finished (on the 1 s grid) enqueues and allocates it.
    assertEquals(HOUR, w.get("a2").quotaReservedMs());
    assertEquals(2 * HOUR, w.get("a2").finishedMs());
    assertEquals(List.of("team-a", "team-b"), r.queues().stream().map(q -> q.name()).toList());
    assertEquals(2, r.overall().finished());
    assertEquals(0, r.overall().evicted());
  }

  @Test
  void sessions_runOnTheSchedulePeriodGrid_andBindsTakeBindDelayPlusStartup() {
    Specs s = twoTeams(2).job("a1", "team-a", 1_200, 0, 1, 8, HOUR);
    VolcanoConfig c = VolcanoConfig.capacity(false).withSchedulePeriodMs(5_000).withBindDelayMs(300);
    RunResult r = run(s, flatTeams(c));
    WorkloadRecord a1 = byId(r).get("a1");
    assertEquals(5_000, a1.quotaReservedMs(), "the first session after the arrival, on the 5 s grid");
    assertEquals(5_300, a1.startedMs());
    assertEquals(5_300 + HOUR, a1.finishedMs());
  }

  /**
   * Gang's Reclaimable keeps minMember ready tasks and so returns no victim for a whole gang, but an empty
   * answer in tier 1 does not stop the vote: the tier yields nil and capacity in tier 2 decides
   * (session_plugins.go Reclaimable), so reclaim takes single pods out of gangs.
   */
  @Test
  void reclaim_takesBackDeservedFromAQueueAboveIt_afterTheGracePeriod() {
    Specs s = twoTeams(2)
        .job("a1", "team-a", 0, 0, 1, 8, HOUR).job("a2", "team-a", 0, 0, 1, 8, HOUR)
        .job("b1", "team-b", 60_000, 0, 1, 8, HOUR);
    VolcanoSetup v = flatTeams(VolcanoConfig.capacity(false));
    v = new VolcanoSetup(v.config(), v.queues(), v.queueFor(), 30_000);
    RunResult r = run(s, v);
    Map<String, WorkloadRecord> w = byId(r);
    assertEquals(1, r.overall().evicted());
    assertEquals(Map.of("Reclaim", 1L), r.preemptionOverall().preemptionsByReason());
    // Evicted at 60 s, gone 30 s later, b1 bound at the next session.
    assertEquals(90_000, w.get("b1").quotaReservedMs());
    WorkloadRecord victim = w.get("a1").evictions() == 1 ? w.get("a1") : w.get("a2");
    assertEquals(1, victim.evictions());
    assertTrue(victim.finishedMs() >= 2 * HOUR, "the victim restarts from scratch once it fits again");
    assertTrue(r.preemptionOverall().lostResourceMs().get("nvidia.com/gpu") > 0);
    assertEquals(3, r.overall().finished());
  }

  @Test
  void hierarchicalQueues_parentCapabilityBoundsSiblings_andTheInvariantHoldsEverySession() {
    // org caps its subtree at 8 GPUs on a 16-GPU cluster: the siblings' jobs run one at a time.
    Specs s = twoTeams(2)
        .job("a1", "team-a", 0, 0, 1, 8, HOUR)
        .job("b1", "team-b", 0, 0, 1, 8, HOUR);
    VolcanoSetup v = setup(VolcanoConfig.capacity(true), List.of(queue("root", null, 0, 0),
        queue("org", "root", 0, 8), queue("team-a", "org", 4, 0), queue("team-b", "org", 4, 0)));
    RunResult r = run(s, v);
    Map<String, WorkloadRecord> w = byId(r);
    assertEquals(0, w.get("a1").quotaReservedMs());
    assertEquals(HOUR, w.get("b1").quotaReservedMs());
    assertEquals(List.of("team-a", "team-b"), r.queues().stream().map(q -> q.name()).toList(), "leaves only");
    var org = r.queueUsage().stream().filter(u -> u.clusterQueue().equals("org")).findFirst().orElseThrow();
    assertEquals(8, org.peakUsage(), "a parent's usage is its subtree's");
  }

  @Test
  void failedNode_failsItsPods_andTheGangRestartsWhenItRunsAgain() {
    Specs s = twoTeams(2).job("a1", "team-a", 0, 0, 2, 8, HOUR);
    s.timeline.add(TimelineEvent.once(10 * 60_000,
        new ClusterAction.FailNodes(null, 1, List.of("gpu-1"), LongDistribution.constant(20 * 60_000))));
    RunResult r = run(s, flatTeams(VolcanoConfig.capacity(false)));
    WorkloadRecord a1 = byId(r).get("a1");
    assertEquals(0, a1.quotaReservedMs(), "a node failure does not take the admission back");
    assertEquals(0, a1.evictions());
    assertEquals(30 * 60_000, a1.startedMs(), "restarted when the node came back");
    assertEquals(30 * 60_000 + HOUR, a1.finishedMs());
    assertEquals(1, r.pools().get(0).failures());
    assertEquals(1, r.pools().get(0).podsLost());
    assertTrue(r.preemptionOverall().lostResourceMs().get("nvidia.com/gpu") > 0);
  }

  // ---- node actions of the shared world, new under Volcano

  @Test
  void drainedNode_failsItsPods_andTheyWaitUntilItIsUncordoned() {
    Specs s = twoTeams(1).job("a1", "team-a", 0, 0, 1, 8, HOUR);
    s.timeline.add(TimelineEvent.once(10 * 60_000, new ClusterAction.CordonNodes("gpu", 1, null, true)));
    s.timeline.add(TimelineEvent.once(30 * 60_000, new ClusterAction.UncordonNodes("gpu", 1, null)));
    RunResult r = run(s, flatTeams(VolcanoConfig.capacity(false)));
    WorkloadRecord a1 = byId(r).get("a1");
    assertEquals(0, a1.evictions(), "a drain is a pod failure, not an eviction");
    assertEquals(1, r.pools().get(0).podsLost());
    assertTrue(a1.startedMs() >= 30 * 60_000, "no bind on the cordoned node: restarted after the uncordon");
    assertEquals(a1.startedMs() + HOUR, a1.finishedMs(), "the work before the drain is lost");
  }

  @Test
  void cordonedNode_takesNoNewPods_butKeepsItsRunningOnes() {
    Specs s = twoTeams(1).job("a1", "team-a", 0, 0, 1, 4, HOUR).job("b1", "team-b", 20 * 60_000, 0, 1, 4, HOUR);
    s.timeline.add(TimelineEvent.once(10 * 60_000, new ClusterAction.CordonNodes("gpu", 1, null, false)));
    s.timeline.add(TimelineEvent.once(30 * 60_000, new ClusterAction.UncordonNodes("gpu", 1, null)));
    RunResult r = run(s, flatTeams(VolcanoConfig.capacity(false)));
    Map<String, WorkloadRecord> w = byId(r);
    assertEquals(HOUR, w.get("a1").finishedMs(), "a1 kept running on the cordoned node");
    assertTrue(w.get("b1").quotaReservedMs() >= 30 * 60_000, "b1 waited for the uncordon although 4 GPUs were free");
    assertEquals(0, r.pools().get(0).podsLost());
  }

  @Test
  void addedNode_takesTheGangThatDidNotFit() {
    Specs s = twoTeams(1).job("a1", "team-a", 0, 0, 1, 8, HOUR).job("b1", "team-b", 0, 0, 1, 8, HOUR);
    s.timeline.add(TimelineEvent.once(10 * 60_000, new ClusterAction.AddNodes("gpu", 1)));
    RunResult r = run(s, flatTeams(VolcanoConfig.capacity(false)));
    Map<String, WorkloadRecord> w = byId(r);
    long first = Math.min(w.get("a1").quotaReservedMs(), w.get("b1").quotaReservedMs());
    long second = Math.max(w.get("a1").quotaReservedMs(), w.get("b1").quotaReservedMs());
    assertEquals(0, first);
    assertTrue(second >= 10 * 60_000 && second < HOUR, "bound on the new node, not after the first finished: " + second);
    assertEquals(2, r.overall().finished());
  }

  @Test
  void removedNode_failsItsPods_andTheGangRestartsOnANewNode() {
    Specs s = twoTeams(2).job("a1", "team-a", 0, 0, 2, 8, HOUR);
    s.timeline.add(TimelineEvent.once(10 * 60_000, new ClusterAction.RemoveNodes("gpu", 1)));
    s.timeline.add(TimelineEvent.once(30 * 60_000, new ClusterAction.AddNodes("gpu", 1)));
    RunResult r = run(s, flatTeams(VolcanoConfig.capacity(false)));
    WorkloadRecord a1 = byId(r).get("a1");
    assertEquals(1, r.pools().get(0).podsLost());
    assertTrue(a1.startedMs() >= 30 * 60_000, "the 2-pod gang fits again only on the added node");
    assertEquals(a1.startedMs() + HOUR, a1.finishedMs());
  }

  @Test
  void servingChurn_scalesPodGroupsUpAndDown_outsideTheBatchStatistics() {
    Specs s = twoTeams(1).job("b1", "team-b", 0, 0, 1, 4, HOUR);
    s.serving.add(new ServingSpec("web", "team-a", 0, PodSetSpec.of("main", 2, Specs.res(0, 2)), 0,
        LongDistribution.constant(10 * 60_000), LongDistribution.constant(60_000), 3, LongDistribution.constant(0), 0,
        LongDistribution.constant(1_000)));
    RunResult r = run(s, flatTeams(VolcanoConfig.capacity(false)));
    ServingStats web = r.serving().get(0);
    assertEquals(3, web.scaleUps());
    assertEquals(3, web.scaleUpsRan(), "each PodGroup got its gang bound and ran");
    assertEquals(1, r.overall().arrived(), "serving PodGroups are not batch arrivals");
    Map<String, WorkloadRecord> w = byId(r);
    assertEquals("DELETED", w.get("web-3").state());
    assertEquals(11 * 60_000, w.get("web-2").startedMs(), "scaled up again after the 1-minute pause");
    assertEquals(HOUR, w.get("b1").finishedMs(), "the batch job shared the node with the Deployment");
  }

  @Test
  void decisionLog_tellsEachPodGroupsStory_inVolcanosWords() {
    Specs s = twoTeams(2)
        .job("a1", "team-a", 0, 0, 1, 8, HOUR).job("a2", "team-a", 0, 0, 1, 8, HOUR)
        .job("b1", "team-b", 60_000, 0, 1, 8, HOUR);
    VolcanoSetup v = flatTeams(VolcanoConfig.capacity(false));
    RunResult r = Runs.run(s.build(), v, true, true);
    String victim = byId(r).get("a1").evictions() == 1 ? "a1" : "a2";
    List<String> story = r.decisions().get(victim).stream().map(d -> d.condition() + "/" + d.reason()).toList();
    assertEquals(List.of("Pending/Created", "Inqueue/PhaseChanged", "Scheduled/Session", "Bound/GangBound",
        "PodsRunning/Started", "Running/PhaseChanged", "Evicted/Reclaim", "Pending/PhaseChanged",
        "Unschedulable/Session", "Inqueue/PhaseChanged", "Scheduled/Session", "Bound/GangBound",
        "PodsRunning/Started", "Running/PhaseChanged", "Completed/Finished"), story);
    List<String> waiting = r.decisions().get("b1").stream().map(d -> d.condition()).toList();
    assertTrue(waiting.contains("Unschedulable"), "b1 waited for the reclaim: " + waiting);
    assertEquals(null, Runs.run(s.build(), v, true, false).decisions(), "no log unless asked for");
  }

  @Test
  void unsupportedTimelineActions_areRejected() {
    Specs s = twoTeams(1);
    s.timeline.add(TimelineEvent.once(0, new ClusterAction.SetQuota("team-a", "a100", "nvidia.com/gpu",
        new QuotaSpec(16, NO, NO))));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new Simulation(s.build(), flatTeams(VolcanoConfig.capacity(false))));
    assertTrue(e.getMessage().contains("SetQuota"), e.getMessage());
  }

  @Test
  void sameInputs_giveTheSameWorkloadRecords() {
    Specs s = twoTeams(2);
    for (int i = 0; i < 40; i++) {
      s.job("j" + i, i % 3 == 0 ? "team-b" : "team-a", i * 7_000L, i % 2, 1 + i % 2, 4 + 4 * (i % 2), (1 + i % 5) * 600_000L);
    }
    VolcanoSetup v = flatTeams(VolcanoConfig.capacity(false));
    assertEquals(run(s, v).workloads(), run(s, v).workloads());
  }
}
