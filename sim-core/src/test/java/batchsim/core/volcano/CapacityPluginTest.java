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

import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The capacity plugin's queue rules, one test per rule (plugins/capacity/capacity.go). */
class CapacityPluginTest {
  static final List<String> ENQUEUE_RECLAIM_ALLOCATE = List.of("enqueue", "reclaim", "allocate");

  @Test
  void enqueueChecksEveryAncestorBeforeReserving() {
    // Volcano issue #4118 / PR #4119: sibling leaves under a parent capped at 2 cpu / 4Gi.
    VolcanoEngine e = Fixture.engine(Fixture.capacityTest(true, ENQUEUE_RECLAIM_ALLOCATE),
        List.of(VolcanoQueueSpec.of("root"), VolcanoQueueSpec.of("q6").withCapability(rl(2, 4)),
            VolcanoQueueSpec.of("q61").withParent("q6"), VolcanoQueueSpec.of("q62").withParent("q6")),
        node("n1", 8, 8, 11));
    PodGroup a = pg(e, "ns1/pg10", "q61", 1, rl(2, 4), PodGroupPhase.PENDING);
    PodGroup b = pg(e, "ns1/pg11", "q62", 1, rl(2, 4), PodGroupPhase.PENDING);
    e.runSession();
    assertEquals(PodGroupPhase.INQUEUE, a.phase());
    assertEquals(PodGroupPhase.PENDING, b.phase());
    assertTrue(b.lastCondition().contains("q6"), b.lastCondition());
    assertEquals(List.of(), e.checkInvariants());
  }

  @Test
  void aRejectedCandidateReservesNothingAnywhere() {
    // pgA fails at the parent; the leaf q62 must not keep a reservation that would block pgB (1 cpu).
    VolcanoEngine e = Fixture.engine(Fixture.capacityTest(true, List.of("enqueue")),
        List.of(VolcanoQueueSpec.of("root"), VolcanoQueueSpec.of("p").withCapability(rl(3, 8)),
            VolcanoQueueSpec.of("a").withParent("p"), VolcanoQueueSpec.of("b").withParent("p").withCapability(rl(2, 8)),
            VolcanoQueueSpec.of("c").withParent("root")),
        node("n1", 8, 8, 11));
    pg(e, "ns/a1", "a", 1, rl(2, 1), PodGroupPhase.PENDING);
    PodGroup tooBig = pg(e, "ns/b1", "b", 1, rl(2, 1), PodGroupPhase.PENDING);
    PodGroup fits = pg(e, "ns/b2", "b", 1, rl(1, 1), PodGroupPhase.PENDING);
    e.runSession();
    assertEquals(PodGroupPhase.PENDING, tooBig.phase(), "p would hold 4 cpu > 3");
    assertEquals(PodGroupPhase.INQUEUE, fits.phase(), "b1's failed check left nothing behind in b or p");
  }

  @Test
  void enqueueVoteIsSideEffectFree() {
    // Volcano issue #5387 / PR #5339: a co-tier plugin vetoes pgA after capacity permitted it.
    PluginSpec cap = Fixture.plugin("capacity", ExtensionPoint.JOB_ENQUEUED);
    PluginSpec rejecter = Fixture.plugin("test-rejecter", ExtensionPoint.JOB_ENQUEUED).withArgument("rejectJob", "pgA");
    VolcanoEngine e = Fixture.engine(Fixture.config(List.of("enqueue"), cap, rejecter),
        List.of(VolcanoQueueSpec.of("q1").withCapability(ResourceList.of("cpu", 1000L, "memory", 4_000_000_000L))
            .withDeserved(ResourceList.of("cpu", 1000L, "memory", 4_000_000_000L))),
        node("n1", 4, 4, 10));
    PodGroup a = pg(e, "ns1/pgA", "q1", 1, ResourceList.of("cpu", 1000L, "memory", 1_000_000_000L), PodGroupPhase.PENDING);
    PodGroup b = pg(e, "ns1/pgB", "q1", 1, ResourceList.of("cpu", 1000L, "memory", 1_000_000_000L), PodGroupPhase.PENDING);
    e.runSession();
    assertEquals(PodGroupPhase.PENDING, a.phase());
    assertEquals(PodGroupPhase.INQUEUE, b.phase());
  }

  @Test
  void inqueueDoesNotCountBindingTasksTwice() {
    // Volcano PR #5130 (TestNoDoubleCountingForInqueueJobWithBindingTasks): binds still in flight keep the
    // PodGroup Inqueue; its reservation is minResources minus what is already allocated.
    PluginSpec cap = Fixture.plugin("capacity", ExtensionPoint.ALLOCATABLE, ExtensionPoint.OVERUSED,
        ExtensionPoint.JOB_ENQUEUED);
    VolcanoEngine e = Fixture.engine(Fixture.config(List.of("enqueue", "allocate"), cap),
        List.of(VolcanoQueueSpec.of("q1").withCapability(rl(4, 8))), node("n1", 4, 8, 10));
    PodGroup a = pg(e, "ns1/pgA", "q1", 3, rl(3, 3), PodGroupPhase.INQUEUE);
    for (int i = 1; i <= 3; i++) {
      pod(e, "ns1/pA" + i, "ns1/pgA", req(1, 1));
    }
    SessionOutcome first = e.runSession(List.of("allocate"), Set.of("enqueue"));
    assertEquals(3, first.binds().size());
    assertEquals(PodGroupPhase.INQUEUE, a.phase(), "Binding tasks are not scheduled yet");
    pg(e, "ns1/pgB", "q1", 1, rl(1, 1), PodGroupPhase.PENDING);
    pod(e, "ns1/pB1", "ns1/pgB", req(1, 1));
    SessionOutcome second = e.runSession(List.of("enqueue", "allocate"), Set.of("enqueue"));
    assertEquals(List.of("ns1/pB1->n1"), binds(second));
    assertEquals(List.of(), e.checkInvariants());
  }

  @Test
  void allocationChecksEveryAncestorsRealCapability() {
    // Volcano issue #3932 / PR #3940 (capacity_test case4).
    VolcanoEngine e = Fixture.engine(Fixture.capacityTest(true, ENQUEUE_RECLAIM_ALLOCATE),
        List.of(VolcanoQueueSpec.of("root"),
            VolcanoQueueSpec.of("q3").withCapability(rl(4, 4)).withDeserved(rl(4, 4)),
            VolcanoQueueSpec.of("q31").withParent("q3").withCapability(rl(4, 4)).withDeserved(rl(2, 2)),
            VolcanoQueueSpec.of("q33").withParent("q3").withCapability(rl(4, 4))),
        node("n1", 8, 8, 11));
    pg(e, "ns1/run", "q31", 1, null, PodGroupPhase.RUNNING);
    e.addRunningPod(PodSpec.of("ns1/r1", "ns1/run", req(4, 4)), "n1");
    pg(e, "ns1/new", "q33", 1, null, PodGroupPhase.INQUEUE);
    pod(e, "ns1/p", "ns1/new", req(3, 3));
    SessionOutcome o = e.runSession();
    assertEquals(List.of(), binds(o), "q33 alone has room, q3 does not");
    assertEquals(List.of(), e.checkInvariants());
  }

  @Test
  void reclaimTakesFromTheSiblingOverItsDeservedFirst() {
    VolcanoEngine e = Fixture.engine(Fixture.capacityTest(true, ENQUEUE_RECLAIM_ALLOCATE),
        List.of(VolcanoQueueSpec.of("root"),
            VolcanoQueueSpec.of("q3").withCapability(rl(4, 4)).withDeserved(rl(4, 4)),
            VolcanoQueueSpec.of("q31").withParent("q3").withCapability(rl(4, 4)).withDeserved(rl(2, 2)),
            VolcanoQueueSpec.of("q32").withParent("q3").withCapability(rl(4, 4)).withDeserved(rl(2, 2)),
            VolcanoQueueSpec.of("q4").withCapability(rl(4, 4)).withDeserved(rl(2, 2))),
        node("n1", 8, 8, 11));
    pg(e, "ns1/pg4", "q4", 1, null, PodGroupPhase.RUNNING);
    e.addRunningPod(PodSpec.of("ns1/p5", "ns1/pg4", req(4, 4)), "n1");
    pg(e, "ns1/pg5", "q31", 1, null, PodGroupPhase.RUNNING);
    e.addRunningPod(PodSpec.of("ns1/p7", "ns1/pg5", req(2, 2)), "n1");
    e.addRunningPod(PodSpec.of("ns1/p6", "ns1/pg5", req(2, 2)), "n1");
    pg(e, "ns1/pg6", "q32", 1, null, PodGroupPhase.INQUEUE);
    pod(e, "ns1/p8", "ns1/pg6", req(2, 2));
    SessionOutcome o = e.runSession();
    assertEquals(1, o.evictions().size());
    assertTrue(evictions(o).get(0).startsWith("ns1/p"), evictions(o).toString());
    assertEquals("q31", e.pod(evictions(o).get(0)).podGroup().queueName(), "sibling before cousin");
    assertEquals(List.of("n1"), o.pipelined().get("ns1/pg6"));
  }

  @Test
  void guaranteeProtectsVictims() {
    PluginSpec cap = new PluginSpec("capacity", EnumSet.of(ExtensionPoint.ALLOCATABLE, ExtensionPoint.PREEMPTIVE,
        ExtensionPoint.RECLAIMABLE, ExtensionPoint.QUEUE_ORDER, ExtensionPoint.JOB_ENQUEUED), false, null);
    VolcanoEngine e = Fixture.engine(Fixture.config(ENQUEUE_RECLAIM_ALLOCATE, cap,
            Fixture.plugin("gang", ExtensionPoint.JOB_STARVING)),
        List.of(VolcanoQueueSpec.of("a").withDeserved(rl(2, 2)),
            VolcanoQueueSpec.of("b").withDeserved(rl(1, 1)).withGuarantee(rl(4, 4))),
        node("n1", 4, 4, 10));
    pg(e, "ns/b", "b", 1, null, PodGroupPhase.RUNNING);
    e.addRunningPod(PodSpec.of("ns/b1", "ns/b", req(2, 2)), "n1");
    e.addRunningPod(PodSpec.of("ns/b2", "ns/b", req(2, 2)), "n1");
    pg(e, "ns/a", "a", 1, null, PodGroupPhase.INQUEUE);
    pod(e, "ns/a1", "ns/a", req(2, 2));
    SessionOutcome o = e.runSession();
    assertEquals(List.of(), evictions(o), "b is over deserved but not above its guarantee");
  }
}
