package batchsim.core.volcano;

import static batchsim.core.volcano.Fixture.node;
import static batchsim.core.volcano.Fixture.pg;
import static batchsim.core.volcano.Fixture.req;
import static batchsim.core.volcano.Fixture.rl;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The invariant checks report what they should (they are only useful if they can fail). */
class HierarchyInvariantTest {
  static List<VolcanoQueueSpec> tree() {
    return List.of(VolcanoQueueSpec.of("root"), VolcanoQueueSpec.of("q6").withCapability(rl(2, 4)),
        VolcanoQueueSpec.of("q61").withParent("q6"), VolcanoQueueSpec.of("q62").withParent("q6"));
  }

  @Test
  void allocatedWorkAboveAnAncestorsCapabilityIsReported() {
    VolcanoEngine e = Fixture.engine(VolcanoConfig.capacity(true), tree(), node("n1", 8, 8, 11));
    pg(e, "ns/a", "q61", 1, null, PodGroupPhase.RUNNING);
    e.addRunningPod(PodSpec.of("ns/a-0", "ns/a", req(2, 1)), "n1");
    pg(e, "ns/b", "q62", 1, null, PodGroupPhase.RUNNING);
    e.addRunningPod(PodSpec.of("ns/b-0", "ns/b", req(1, 1)), "n1");
    List<HierarchyInvariant.Violation> v = e.checkInvariants();
    assertEquals(List.of(new HierarchyInvariant.Violation("allocated", "q6", "cpu", 3000, 2000)), v,
        "q61 and q62 inherit q6's 2 cpu: each is fine, their parent is not");
  }

  @Test
  void reservationsAboveAnAncestorAreReportedByTheStrictCheck() {
    VolcanoEngine e = Fixture.engine(VolcanoConfig.capacity(true), tree(), node("n1", 8, 8, 11));
    pg(e, "ns/a", "q61", 1, rl(2, 4), PodGroupPhase.INQUEUE);
    pg(e, "ns/b", "q62", 1, rl(2, 4), PodGroupPhase.INQUEUE);
    assertEquals(List.of(new HierarchyInvariant.Violation("enqueued+allocated", "q6", "cpu", 4000, 2000),
        new HierarchyInvariant.Violation("enqueued+allocated", "q6", "memory", 8L << 30, 4L << 30)),
        e.checkReservations());
  }

  @Test
  void theAdmissionAuditCatchesALeafOnlyDecision() {
    // What Volcano before PR #4119 did: admit pg11 because q62 had room, ignoring q6.
    VolcanoEngine e = Fixture.engine(VolcanoConfig.capacity(true), tree(), node("n1", 8, 8, 11));
    pg(e, "ns1/pg10", "q61", 1, rl(2, 4), PodGroupPhase.INQUEUE);
    pg(e, "ns1/pg11", "q62", 1, rl(2, 4), PodGroupPhase.PENDING);
    Session ssn = new Session(e, 1, 0);
    ssn.freeze();
    new AdmissionAudit(ssn).admitted(ssn.jobsById.get("ns1/pg11"));
    List<HierarchyInvariant.Violation> v = e.checkInvariants();
    assertEquals(2, v.size(), v.toString());
    assertEquals("admission of ns1/pg11 at q6 on cpu: 4000 > 2000", v.get(0).toString());
  }

  @Test
  void nodesAreCheckedOnEveryDimension() {
    VolcanoEngine e = Fixture.engine(VolcanoConfig.capacity(false), List.of(VolcanoQueueSpec.of("q")),
        node("n1", 2, 8, 1));
    pg(e, "ns/a", "q", 1, null, PodGroupPhase.RUNNING);
    e.addRunningPod(PodSpec.of("ns/a-0", "ns/a", req(1, 1)), "n1");
    e.addRunningPod(PodSpec.of("ns/a-1", "ns/a", req(1, 1)), "n1");
    assertEquals(List.of(new HierarchyInvariant.Violation("node", "n1", "pods", 2, 1)), e.checkInvariants());
  }
}
