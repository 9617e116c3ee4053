package batchsim.core.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.core.metrics.RunResult;
import batchsim.core.metrics.WorkloadRecord;
import batchsim.core.model.ClusterAction;
import batchsim.core.model.NodeAction;
import batchsim.core.model.PodSetSpec;
import batchsim.core.model.PreemptionSpec;
import batchsim.core.model.QuotaSpec;
import batchsim.core.model.Taint;
import batchsim.core.model.TimelineEvent;
import batchsim.core.model.Toleration;
import batchsim.core.model.WorkloadSpec;
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

/** Timeline actions on nodes named exactly, and what kube, Kueue and Volcano do about them. */
class NamedNodeActionsTest {
  private static final long NO = QuotaSpec.UNLIMITED;
  private static final long MIN = 60_000;
  private static final long HOUR = 3_600_000;
  /** kube's DefaultTolerationSeconds for node.kubernetes.io/not-ready:NoExecute. */
  private static final long EVICTION = 300_000;

  private static Specs oneQueue(int nodes) {
    return new Specs().pool("gpu", nodes, 64_000, 8).flavor("a100", "gpu")
        .gpuQueue("team-a", null, "a100", 16, NO, NO, PreemptionSpec.NEVER);
  }

  private static Map<String, WorkloadRecord> byId(RunResult r) {
    Map<String, WorkloadRecord> m = new HashMap<>();
    r.workloads().forEach(w -> m.put(w.id(), w));
    return m;
  }

  private static void at(Specs s, long ms, ClusterAction a) {
    s.timeline.add(TimelineEvent.once(ms, a));
  }

  private static RunResult kueue(Specs s) {
    return new Simulation(s.build()).checked(true).run();
  }

  private static WorkloadSpec job(String id, long atMs, long gpu, long runtimeMs, Map<String, String> selector,
      List<Toleration> tolerations) {
    PodSetSpec ps = new PodSetSpec("main", 1, PodSetSpec.NO_MIN_COUNT, Specs.res(0, gpu), new TreeMap<>(selector),
        tolerations);
    return new WorkloadSpec(id, "job", "team-a", atMs, 0, null, List.of(ps), runtimeMs);
  }

  private static NodeAction.SetReady ready(boolean ready, String... nodes) {
    return new NodeAction.SetReady(List.of(nodes), ready);
  }

  private static NodeAction.SetTaint taint(String effect, boolean add, String... nodes) {
    return new NodeAction.SetTaint(List.of(nodes), new Taint("maintenance", "", effect), add);
  }

  // ------------------------------------------------------------------ Kueue (kube-scheduler emulation)

  @Test
  void notReady_podsRunUntilTheNodeLifecycleEviction_thenTheJobRestartsElsewhere() {
    Specs s = oneQueue(2).job("j1", "team-a", 0, 0, 1, 8, HOUR); // LeastAllocated: gpu-0
    at(s, 30 * MIN, ready(false, "gpu-0"));
    RunResult r = kueue(s);
    WorkloadRecord j1 = byId(r).get("j1");
    assertEquals(30 * MIN + EVICTION, j1.startedMs(), "evicted after 300 s, restarted on gpu-1");
    assertEquals(30 * MIN + EVICTION + HOUR, j1.finishedMs());
    assertEquals(0, j1.evictions(), "lost pods with spare capacity are a restart, as on failNodes");
    assertEquals(1, r.pools().get(0).failures());
  }

  @Test
  void notReady_readyBeforeTheTimeout_losesNothing_butTakesNoNewPodsMeanwhile() {
    Specs s = oneQueue(1).job("j1", "team-a", 0, 0, 1, 4, HOUR).job("j2", "team-a", 31 * MIN, 0, 1, 4, 10 * MIN);
    at(s, 30 * MIN, ready(false, "gpu-0"));
    at(s, 32 * MIN, ready(true, "gpu-0"));
    Map<String, WorkloadRecord> w = byId(kueue(s));
    assertEquals(HOUR, w.get("j1").finishedMs(), "its pod kept running");
    assertEquals(31 * MIN, w.get("j2").quotaReservedMs(), "Kueue admits on quota");
    assertEquals(32 * MIN, w.get("j2").startedMs(), "its pod is bound once the node is Ready");
  }

  @Test
  void noScheduleTaint_keepsNewPodsOff_untilRemoved() {
    Specs s = oneQueue(2).job("j1", "team-a", 0, 0, 1, 8, HOUR).job("j2", "team-a", 0, 0, 1, 8, HOUR);
    at(s, 0, taint("NoSchedule", true, "gpu-0"));
    at(s, 10 * MIN, new NodeAction.SetTaint(List.of("gpu-0"), new Taint("maintenance", "", null), false));
    Map<String, WorkloadRecord> w = byId(kueue(s));
    assertEquals(0, w.get("j1").startedMs());
    assertEquals(10 * MIN, w.get("j2").startedMs(), "gpu-0 takes pods once untainted");
  }

  @Test
  void noExecuteTaint_evictsPodsThatDoNotTolerateIt() {
    List<Toleration> tolerates = List.of(new Toleration("maintenance", "Exists", "", null));
    Specs s = oneQueue(2);
    s.workloads.add(job("j1", 0, 8, HOUR, Map.of(), List.of()));       // gpu-0
    s.workloads.add(job("j2", 0, 8, HOUR, Map.of(), tolerates));       // gpu-1
    at(s, 30 * MIN, taint("NoExecute", true, "gpu-0", "gpu-1"));
    at(s, 40 * MIN, taint("NoExecute", false, "gpu-0"));
    Map<String, WorkloadRecord> w = byId(kueue(s));
    assertEquals(HOUR, w.get("j2").finishedMs(), "tolerates the taint: stays");
    assertEquals(40 * MIN, w.get("j1").startedMs(), "evicted at 30m, back on gpu-0 once untainted");
  }

  @Test
  void labels_letPendingPodsMatchANodeSelector_andRemovingOneEvictsNothing() {
    Specs s = oneQueue(2);
    s.workloads.add(job("j1", 0, 8, HOUR, Map.of("zone", "a"), List.of()));
    at(s, 10 * MIN, new NodeAction.SetLabels(List.of("gpu-1"), new TreeMap<>(Map.of("zone", "a"))));
    TreeMap<String, String> remove = new TreeMap<>();
    remove.put("zone", null);
    at(s, 20 * MIN, new NodeAction.SetLabels(List.of("gpu-1"), remove));
    WorkloadRecord j1 = byId(kueue(s)).get("j1");
    assertEquals(10 * MIN, j1.startedMs());
    assertEquals(10 * MIN + HOUR, j1.finishedMs(), "node selectors bind at scheduling only");
  }

  @Test
  void delete_podsFailAsOnRemoval_andALaterActionNamingTheNodeIsRefused() {
    Specs s = oneQueue(2).job("j1", "team-a", 0, 0, 1, 8, HOUR);
    at(s, 30 * MIN, new NodeAction.Delete(List.of("gpu-0")));
    WorkloadRecord j1 = byId(kueue(s)).get("j1");
    assertEquals(30 * MIN, j1.startedMs());
    assertEquals(30 * MIN + HOUR, j1.finishedMs());

    at(s, 40 * MIN, new ClusterAction.CordonNodes(null, 1, List.of("gpu-0"), false));
    TimelineError e = assertThrows(TimelineError.class, () -> kueue(s));
    assertTrue(e.getMessage().endsWith("at 40m: node gpu-0 does not exist: it was removed at 30m"), e.getMessage());
  }

  @Test
  void aNodeThatHasNotJoinedYet_isRefused() {
    Specs s = oneQueue(1).job("j1", "team-a", 0, 0, 1, 8, HOUR);
    at(s, MIN, ready(false, "gpu-1"));
    TimelineError e = assertThrows(TimelineError.class, () -> kueue(s));
    assertTrue(e.getMessage().contains("node gpu-1 does not exist: no node of that name has joined"), e.getMessage());
    Specs grown = oneQueue(1).job("j1", "team-a", 0, 0, 1, 8, HOUR);
    at(grown, 0, new ClusterAction.AddNodes("gpu", 1));
    at(grown, MIN, ready(false, "gpu-1"));
    assertEquals(HOUR, byId(kueue(grown)).get("j1").finishedMs(), "gpu-1 exists once added");
  }

  // ------------------------------------------------------------------ Kueue TAS

  @Test
  void tas_notReadyNode_isUnhealthyOnlyOnceItsPodsAreEvicted_thenTheSecondPassReplacesIt() {
    // Kueue node_controller.go (TASReplaceNodeOnPodTermination): running pods keep the node healthy.
    List<WorkloadSpec> jobs = List.of(TasSimulationTest.rackJob("j1", 0, 3));
    List<TimelineEvent> tl = List.of(TimelineEvent.once(10 * MIN, ready(false, "rack-a-0")));
    RunResult r = new Simulation(TasSimulationTest.spec(jobs, tl)).checked(true).run();
    WorkloadRecord j1 = TasSimulationTest.byId(r).get("j1");
    assertEquals(10 * MIN + EVICTION + 1_000, j1.startedMs(), "second pass 1 s after the eviction");
    assertEquals(1, r.tas().nodeRepairs());
    assertEquals(0, j1.evictions());
  }

  @Test
  void tas_readyAgainBeforeTheEviction_needsNoReplacement() {
    List<WorkloadSpec> jobs = List.of(TasSimulationTest.rackJob("j1", 0, 3));
    List<TimelineEvent> tl = List.of(TimelineEvent.once(10 * MIN, ready(false, "rack-a-0")),
        TimelineEvent.once(12 * MIN, ready(true, "rack-a-0")));
    RunResult r = new Simulation(TasSimulationTest.spec(jobs, tl)).checked(true).run();
    assertEquals(HOUR, TasSimulationTest.byId(r).get("j1").finishedMs());
    assertEquals(0, r.tas().nodeRepairs());
  }

  @Test
  void tas_noExecuteTaint_makesTheNodeUnhealthyForTheEvictedWorkload() {
    // Kueue node_controller.go (TASReplaceNodeOnNodeTaints): an untolerated taint whose pods terminated.
    List<WorkloadSpec> jobs = List.of(TasSimulationTest.rackJob("j1", 0, 3));
    List<TimelineEvent> tl = List.of(TimelineEvent.once(10 * MIN, taint("NoExecute", true, "rack-a-0")));
    RunResult r = new Simulation(TasSimulationTest.spec(jobs, tl)).checked(true).run();
    assertEquals(10 * MIN + 1_000, TasSimulationTest.byId(r).get("j1").startedMs());
    assertEquals(1, r.tas().nodeRepairs());
  }

  @Test
  void tas_noScheduleTaint_whileItsPodsRun_leavesTheWorkloadHealthy() {
    // Kueue node_controller.go: an untolerated taint makes the node unhealthy only once no pod runs there.
    List<WorkloadSpec> jobs = List.of(TasSimulationTest.rackJob("j1", 0, 3));
    List<TimelineEvent> tl = List.of(TimelineEvent.once(10 * MIN, taint("NoSchedule", true, "rack-a-0")));
    RunResult r = new Simulation(TasSimulationTest.spec(jobs, tl)).checked(true).run();
    assertEquals(HOUR, TasSimulationTest.byId(r).get("j1").finishedMs());
    assertEquals(0, r.tas().nodeRepairs());
  }

  // ------------------------------------------------------------------ Volcano

  private static RunResult volcano(Specs s) {
    VolcanoQueueSpec q = VolcanoQueueSpec.of("team-a").withDeserved(ResourceList.of("nvidia.com/gpu", 16));
    VolcanoSetup setup = new VolcanoSetup(VolcanoConfig.capacity(false), List.of(q),
        new TreeMap<>(Map.of("team-a", "team-a")), 0);
    return Runs.run(s.build(), setup, true);
  }

  @Test
  void volcano_notReady_keepsTheNodeInSessionsButPlacesNothingThere_andEvictsAfterTheTimeout() {
    Specs s = oneQueue(1).job("a1", "team-a", 0, 0, 1, 4, HOUR).job("a2", "team-a", 31 * MIN, 0, 1, 4, 10 * MIN);
    at(s, 30 * MIN, ready(false, "gpu-0"));
    at(s, 32 * MIN, ready(true, "gpu-0"));
    Map<String, WorkloadRecord> w = byId(volcano(s));
    assertEquals(HOUR, w.get("a1").finishedMs(), "Ready again before the eviction: nothing lost");
    assertTrue(w.get("a2").startedMs() >= 32 * MIN, "the not-ready taint kept a2 off until Ready");

    Specs lost = oneQueue(2).job("a1", "team-a", 0, 0, 1, 8, HOUR);
    at(lost, 30 * MIN, ready(false, "gpu-0"));
    WorkloadRecord a1 = byId(volcano(lost)).get("a1");
    assertTrue(a1.startedMs() >= 30 * MIN + EVICTION && a1.startedMs() < 30 * MIN + EVICTION + 5_000,
        () -> "restarted on gpu-1 after the eviction, at " + a1.startedMs());
  }

  @Test
  void volcano_taintsAndLabels_areSeenBySessions() {
    Specs s = oneQueue(2);
    s.workloads.add(job("a1", 0, 8, HOUR, Map.of(), List.of()));                  // gpu-0
    s.workloads.add(job("a2", 0, 8, 10 * MIN, Map.of("zone", "a"), List.of()));   // no node has zone=a
    at(s, 20 * MIN, new NodeAction.SetLabels(List.of("gpu-1"), new TreeMap<>(Map.of("zone", "a"))));
    at(s, 30 * MIN, taint("NoExecute", true, "gpu-0"));
    Map<String, WorkloadRecord> w = byId(volcano(s));
    assertTrue(w.get("a2").startedMs() >= 20 * MIN && w.get("a2").startedMs() < 21 * MIN, "placed once labelled");
    assertTrue(w.get("a1").startedMs() >= 30 * MIN, "evicted by the NoExecute taint, restarted on gpu-1");
  }
}
