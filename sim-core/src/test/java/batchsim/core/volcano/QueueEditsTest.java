package batchsim.core.volcano;

import static batchsim.core.volcano.Fixture.node;
import static batchsim.core.volcano.Fixture.pg;
import static batchsim.core.volcano.Fixture.pod;
import static batchsim.core.volcano.Fixture.req;
import static batchsim.core.volcano.Fixture.rl;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.core.model.ActionRefused;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Queue edits as Volcano's queue webhook and queue controller make them. */
class QueueEditsTest {
  private static VolcanoEngine engine(boolean hierarchy) {
    List<VolcanoQueueSpec> queues = List.of(VolcanoQueueSpec.of("org").withCapability(rl(8, 16)).withDeserved(rl(8, 16)),
        VolcanoQueueSpec.of("team-a").withParent(hierarchy ? "org" : null));
    return Fixture.engine(Fixture.capacityTest(hierarchy, List.of("enqueue", "allocate")), queues,
        node("n1", 8, 16, 110));
  }

  private static String refused(Runnable r) {
    return assertThrows(ActionRefused.class, r::run).getMessage();
  }

  @Test
  void closing_whilePodGroupsRemain_thenClosedWhenTheLastIsDeleted() {
    VolcanoEngine e = engine(false);
    QueueEdits q = new QueueEdits(e);
    PodGroup a = pg(e, "ns/a", "team-a", 1, rl(1, 1), PodGroupPhase.PENDING);
    pod(e, "ns/a-0", "ns/a", req(1, 1));
    assertEquals(QueueState.CLOSING, q.close("team-a"));
    assertTrue(e.runSession().binds().isEmpty(), "a closed queue allocates nothing");
    e.deletePodGroup(a);
    assertEquals(QueueState.CLOSED, q.spec("team-a").state());
    assertEquals(QueueState.CLOSED, q.close("org"), "no PodGroups: Closed at once");
    q.open("team-a");
    assertNull(q.jobRefusal("team-a"));
  }

  @Test
  void hierarchy_childrenFollowTheirParent_andTheWebhookKeepsTheTreeConsistent() {
    VolcanoEngine e = engine(true);
    QueueEdits q = new QueueEdits(e);
    q.close("org");
    assertEquals(QueueState.CLOSED, q.spec("team-a").state(), "closed by its parent");
    q.open("org");
    assertEquals(QueueState.OPEN, q.spec("team-a").state(), "reopened with its parent");
    assertEquals("queue org capability[cpu]=1 is smaller than its descendants' max capability=4",
        refused(() -> {
          q.update(q.spec("team-a").withCapability(rl(4, 16)));
          q.update(q.spec("org").withCapability(rl(1, 16)).withDeserved(rl(1, 16)));
        }));
    assertEquals("root queue's resource attributes (capability, deserved, guarantee) cannot be modified",
        refused(() -> q.update(q.spec("root").withCapability(rl(1, 1)))));
    assertEquals("can only submit job to leaf queue, queue `org` has 1 child queues", q.jobRefusal("org"));
    VolcanoQueueSpec deep = VolcanoQueueSpec.of("l1").withParent("team-a");
    q.create(deep, 0);
    for (int i = 2; i <= 3; i++) { // org, team-a, l1, l2, l3: five levels below root
      q.create(VolcanoQueueSpec.of("l" + i).withParent("l" + (i - 1)), 0);
    }
    assertEquals("queue l4 exceeds the maximum allowed depth of 5",
        refused(() -> q.create(VolcanoQueueSpec.of("l4").withParent("l3"), 0)));
    assertFalse(e.isLeafQueue("team-a"));
  }
}
