package batchsim.core.volcano;

import static batchsim.core.volcano.Fixture.binds;
import static batchsim.core.volcano.Fixture.evictions;
import static batchsim.core.volcano.Fixture.node;
import static batchsim.core.volcano.Fixture.pg;
import static batchsim.core.volcano.Fixture.pod;
import static batchsim.core.volcano.Fixture.req;
import static batchsim.core.volcano.Fixture.rl;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Gang, proportion, preempt, backfill and overcommit behaviours, one rule per test. */
class ActionsTest {
  static VolcanoConfig defaults(List<String> actions) {
    VolcanoConfig d = VolcanoConfig.defaults();
    return new VolcanoConfig(actions, null, d.tiers(), 1000, 0);
  }

  @Test
  void gangIsAllOrNothing() {
    VolcanoEngine e = Fixture.engine(VolcanoConfig.defaults(), List.of(VolcanoQueueSpec.of("q")),
        node("n1", 2, 8, 10), node("n2", 2, 8, 10));
    // minResources (4 cpu) pass overcommit (4 cpu x 1.2), but the three 2-cpu pods do not all fit.
    PodGroup big = pg(e, "ns/big", "q", 3, rl(4, 3), PodGroupPhase.PENDING);
    for (int i = 0; i < 3; i++) {
      pod(e, "ns/big-w-" + i, "ns/big", req(2, 1));
    }
    SessionOutcome o = e.runSession();
    assertEquals(List.of(), binds(o), "only 2 of 3 pods fit: nothing binds");
    assertEquals(PodGroupPhase.INQUEUE, big.phase());
    assertTrue(big.lastCondition().startsWith("Unschedulable"), big.lastCondition());
  }

  @Test
  void gangBindsTogetherWhenItFits() {
    VolcanoEngine e = Fixture.engine(VolcanoConfig.defaults(), List.of(VolcanoQueueSpec.of("q")),
        node("n1", 4, 8, 10), node("n2", 4, 8, 10));
    PodGroup g = pg(e, "ns/g", "q", 3, rl(6, 3), PodGroupPhase.PENDING);
    for (int i = 0; i < 3; i++) {
      pod(e, "ns/g-w-" + i, "ns/g", req(2, 1));
    }
    SessionOutcome o = e.runSession();
    assertEquals(3, o.binds().size());
    assertEquals(PodGroupPhase.INQUEUE, g.phase(), "binds in flight: not scheduled yet");
    for (Pod p : g.pods()) {
      e.bindComplete(p);
    }
    e.runSession();
    assertEquals(PodGroupPhase.RUNNING, g.phase());
    assertTrue(g.runningAtMs() >= 0);
  }

  @Test
  void proportionCapsEachQueueAtItsWaterFilledShare() {
    // Two equal-weight queues each asking for 4 cpu on a 4-cpu cluster: deserved 2 cpu each.
    VolcanoEngine e = Fixture.engine(defaults(List.of("enqueue", "allocate")),
        List.of(VolcanoQueueSpec.of("a"), VolcanoQueueSpec.of("b")), node("n1", 4, 16, 20));
    for (String q : List.of("a", "b")) {
      pg(e, "ns/" + q, q, 1, null, PodGroupPhase.PENDING);
      for (int i = 0; i < 4; i++) {
        pod(e, "ns/" + q + "-p-" + i, "ns/" + q, req(1, 1));
      }
    }
    SessionOutcome o = e.runSession();
    long a = o.binds().stream().filter(b -> b.pod().podGroup().queueName().equals("a")).count();
    long b = o.binds().stream().filter(x -> x.pod().podGroup().queueName().equals("b")).count();
    assertEquals(2, a);
    assertEquals(2, b);
  }

  @Test
  void proportionWeightsSplitTheCluster() {
    VolcanoEngine e = Fixture.engine(defaults(List.of("enqueue", "allocate")),
        List.of(VolcanoQueueSpec.of("a").withWeight(3), VolcanoQueueSpec.of("b")), node("n1", 4, 16, 20));
    for (String q : List.of("a", "b")) {
      pg(e, "ns/" + q, q, 1, null, PodGroupPhase.PENDING);
      for (int i = 0; i < 4; i++) {
        pod(e, "ns/" + q + "-p-" + i, "ns/" + q, req(1, 1));
      }
    }
    SessionOutcome o = e.runSession();
    long a = o.binds().stream().filter(x -> x.pod().podGroup().queueName().equals("a")).count();
    assertEquals(3, a);
    assertEquals(4, o.binds().size());
  }

  /** Volcano's helm chart configuration: gang and drf do not filter preemption victims. */
  static VolcanoConfig helm(List<String> actions) {
    java.util.EnumSet<ExtensionPoint> noPreemptable = java.util.EnumSet.allOf(ExtensionPoint.class);
    noPreemptable.remove(ExtensionPoint.PREEMPTABLE);
    return new VolcanoConfig(actions, null, List.of(
        List.of(PluginSpec.defaults("priority"), new PluginSpec("gang", noPreemptable, false, null),
            PluginSpec.defaults("conformance")),
        List.of(PluginSpec.defaults("overcommit"), new PluginSpec("drf", noPreemptable, false, null),
            PluginSpec.defaults("predicates"), PluginSpec.defaults("proportion"), PluginSpec.defaults("nodeorder"))),
        1000, 0);
  }

  @Test
  void gangKeepsASingleTaskJobFromBeingAVictim() {
    VolcanoEngine e = Fixture.engine(defaults(List.of("enqueue", "allocate", "preempt")),
        List.of(VolcanoQueueSpec.of("q")), node("n1", 2, 8, 10));
    e.addPodGroup(new PodGroupSpec("ns/low", "q", 1, null, null, 1, 0), PodGroupPhase.RUNNING);
    e.addRunningPod(PodSpec.of("ns/low-0", "ns/low", req(2, 1)), "n1");
    e.addPodGroup(new PodGroupSpec("ns/high", "q", 1, null, null, 10, 1), PodGroupPhase.PENDING);
    pod(e, "ns/high-0", "ns/high", req(2, 1));
    assertEquals(List.of(), evictions(e.runSession()), "gang (preemptable on) keeps minMember running");
  }

  @Test
  void preemptEvictsLowerPriorityJobsOfTheSameQueue() {
    VolcanoEngine e = Fixture.engine(helm(List.of("enqueue", "allocate", "preempt")),
        List.of(VolcanoQueueSpec.of("q")), node("n1", 2, 8, 10));
    e.addPodGroup(new PodGroupSpec("ns/low", "q", 1, null, null, 1, 0), PodGroupPhase.RUNNING);
    e.addRunningPod(PodSpec.of("ns/low-0", "ns/low", req(2, 1)), "n1");
    e.addPodGroup(new PodGroupSpec("ns/high", "q", 1, null, null, 10, 1), PodGroupPhase.PENDING);
    pod(e, "ns/high-0", "ns/high", req(2, 1));
    SessionOutcome o = e.runSession();
    assertEquals(List.of("ns/low-0"), evictions(o));
    assertEquals(List.of("n1"), o.pipelined().get("ns/high"));
    e.evictionComplete(e.pod("ns/low-0"));
    SessionOutcome next = e.runSession();
    assertTrue(binds(next).contains("ns/high-0->n1"), binds(next).toString());
  }

  @Test
  void preemptNeverTakesFromEqualPriority() {
    VolcanoEngine e = Fixture.engine(helm(List.of("enqueue", "allocate", "preempt")),
        List.of(VolcanoQueueSpec.of("q")), node("n1", 2, 8, 10));
    e.addPodGroup(new PodGroupSpec("ns/a", "q", 1, null, null, 5, 0), PodGroupPhase.RUNNING);
    e.addRunningPod(PodSpec.of("ns/a-0", "ns/a", req(2, 1)), "n1");
    e.addPodGroup(new PodGroupSpec("ns/b", "q", 1, null, null, 5, 1), PodGroupPhase.PENDING);
    pod(e, "ns/b-0", "ns/b", req(2, 1));
    assertEquals(List.of(), evictions(e.runSession()));
  }

  @Test
  void backfillPlacesBestEffortPods() {
    VolcanoEngine e = Fixture.engine(VolcanoConfig.defaults(), List.of(VolcanoQueueSpec.of("q")),
        node("n1", 1, 1, 10));
    pg(e, "ns/be", "q", 1, null, PodGroupPhase.PENDING);
    pod(e, "ns/be-0", "ns/be", req(0, 0));
    SessionOutcome o = e.runSession();
    assertEquals(List.of("ns/be-0->n1"), binds(o));
  }

  @Test
  void overcommitFactorBoundsWhatMayWaitInqueue() {
    PluginSpec oc = PluginSpec.defaults("overcommit").withArgument("overcommit-factor", "1.5");
    VolcanoConfig c = new VolcanoConfig(List.of("enqueue"), null, List.of(List.of(oc)), 1000, 0);
    VolcanoEngine e = Fixture.engine(c, List.of(VolcanoQueueSpec.of("q")), node("n1", 4, 16, 10));
    PodGroup a = pg(e, "ns/a", "q", 1, rl(4, 1), PodGroupPhase.PENDING);
    PodGroup b = pg(e, "ns/b", "q", 1, rl(2, 1), PodGroupPhase.PENDING);
    PodGroup d = pg(e, "ns/d", "q", 1, rl(1, 1), PodGroupPhase.PENDING);
    e.runSession();
    assertEquals(PodGroupPhase.INQUEUE, a.phase());
    assertEquals(PodGroupPhase.INQUEUE, b.phase(), "4 + 2 <= 6");
    assertEquals(PodGroupPhase.PENDING, d.phase(), "4 + 2 + 1 > 6");
  }

  @Test
  void withoutEnqueueAllocateAdmitsPendingGroupsItself() {
    VolcanoEngine e = Fixture.engine(defaults(List.of("allocate")), List.of(VolcanoQueueSpec.of("q")),
        node("n1", 4, 16, 10));
    PodGroup g = pg(e, "ns/g", "q", 1, rl(100, 1), PodGroupPhase.PENDING);
    pod(e, "ns/g-0", "ns/g", req(1, 1));
    SessionOutcome o = e.runSession();
    assertEquals(1, o.binds().size(), "no enqueue action: minResources are never checked (Volcano #2657)");
    assertEquals(PodGroupPhase.INQUEUE, g.phase());
  }

  @Test
  void closedQueueAdmitsAndAllocatesNothing() {
    VolcanoEngine e = Fixture.engine(VolcanoConfig.capacity(false),
        List.of(VolcanoQueueSpec.of("q").withState(QueueState.CLOSED)), node("n1", 4, 16, 10));
    PodGroup g = pg(e, "ns/g", "q", 1, rl(1, 1), PodGroupPhase.PENDING);
    pod(e, "ns/g-0", "ns/g", req(1, 1));
    assertEquals(List.of(), binds(e.runSession()));
    assertEquals(PodGroupPhase.PENDING, g.phase());
  }

  @Test
  void lostPodsSendARunningGroupBackToPending() {
    // Volcano issue #2208: scheduled < minMember and not Inqueue -> Pending (must pass enqueue again).
    VolcanoEngine e = Fixture.engine(VolcanoConfig.capacity(false), List.of(VolcanoQueueSpec.of("q")),
        node("n1", 4, 16, 10));
    PodGroup g = pg(e, "ns/g", "q", 2, rl(2, 2), PodGroupPhase.RUNNING);
    Pod p0 = e.addRunningPod(PodSpec.of("ns/g-0", "ns/g", req(1, 1)), "n1");
    e.addRunningPod(PodSpec.of("ns/g-1", "ns/g", req(1, 1)), "n1");
    e.runSession();
    assertEquals(PodGroupPhase.RUNNING, g.phase());
    e.podFinished(p0, false);
    e.runSession();
    assertTrue(g.phase() == PodGroupPhase.UNKNOWN || g.phase() == PodGroupPhase.PENDING, g.phase().toString());
  }
}
