package batchsim.core.kueue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.core.model.ClusterQueueSpec;
import batchsim.core.model.CohortSpec;
import batchsim.core.model.FlavorFungibility;
import batchsim.core.model.FlavorQuotaSpec;
import batchsim.core.model.KueueConfig;
import batchsim.core.model.PodSetSpec;
import batchsim.core.model.PreemptionSpec;
import batchsim.core.model.QueueingStrategy;
import batchsim.core.model.QuotaSpec;
import batchsim.core.model.ResourceFlavorSpec;
import batchsim.core.model.ResourceGroupSpec;
import batchsim.core.model.ResourceSpace;
import batchsim.core.model.Resources;
import batchsim.core.model.WorkloadSpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Kueue's resource-node arithmetic (pkg/cache/scheduler/resource_node.go), pinned rule by rule. */
class QuotaTreeTest {
  static final ResourceSpace RES = ResourceSpace.of(List.of("cpu"));

  private static ClusterQueueSpec cq(String name, String cohort, long nominal, long borrowingLimit, long lendingLimit) {
    return new ClusterQueueSpec(name, cohort, List.of(new ResourceGroupSpec(List.of("cpu"),
        List.of(new FlavorQuotaSpec("default", Map.of("cpu", new QuotaSpec(nominal, borrowingLimit, lendingLimit)))))),
        QueueingStrategy.BEST_EFFORT_FIFO, PreemptionSpec.NEVER, FlavorFungibility.DEFAULT, 1.0, List.of());
  }

  private static KueueEngine engine(List<CohortSpec> cohorts, ClusterQueueSpec... cqs) {
    return new KueueEngine(KueueConfig.defaults(), RES, List.of(ResourceFlavorSpec.plain("default")), cohorts,
        List.of(cqs), () -> 0L);
  }

  private static WorkloadSpec wl(String id, long cpu) {
    return new WorkloadSpec(id, null, "lq", 0, 0, null, List.of(PodSetSpec.of("main", 1, Resources.wrap(new long[] {cpu}))), 1);
  }

  private static void admit(KueueEngine e, String cq, String id, long cpu) {
    e.assumeAdmitted(wl(id, cpu), cq, 0, 0, null, new int[][] {{0}}, 0);
  }

  @Test
  void available_lendingLimitCapsWhatACohortMayBorrow() {
    // lender nominal 10, lendingLimit 3: 7 stay local, so the borrower (5 nominal) may reach 5 + 3 = 8.
    KueueEngine e = engine(List.of(), cq("lender", "co", 10, QuotaSpec.UNLIMITED, 3),
        cq("borrower", "co", 5, QuotaSpec.UNLIMITED, QuotaSpec.UNLIMITED));
    ClusterQueue b = e.tree.queuesByName.get("borrower");
    assertEquals(8, b.available(0));
    assertEquals(8, b.potentialAvailable(0));
    assertEquals(8, e.tree.cohorts.get("co").subtreeQuota[0]);
  }

  @Test
  void available_borrowingLimitCapsTheParentShare() {
    KueueEngine e = engine(List.of(), cq("a", "co", 4, 2, QuotaSpec.UNLIMITED),
        cq("b", "co", 10, QuotaSpec.UNLIMITED, QuotaSpec.UNLIMITED));
    assertEquals(6, e.tree.queuesByName.get("a").available(0), "nominal 4 + borrowingLimit 2");
    admit(e, "a", "w", 5);
    assertEquals(1, e.tree.queuesByName.get("a").available(0));
  }

  @Test
  void addUsage_aboveLocalQuotaIsStoredInParent_andRemoveRestoresIt() {
    KueueEngine e = engine(List.of(), cq("lender", "co", 10, QuotaSpec.UNLIMITED, 3),
        cq("borrower", "co", 5, QuotaSpec.UNLIMITED, QuotaSpec.UNLIMITED));
    admit(e, "lender", "l1", 9); // 7 local, 2 pushed to the cohort
    assertEquals(2, e.cohortUsage("co", 0));
    assertEquals(6, e.tree.queuesByName.get("borrower").available(0), "8 lendable - 2 used by lender above its local 7");
    Workload w = e.reservedWorkloads().get(0);
    e.finish(w);
    assertEquals(0, e.cohortUsage("co", 0));
    assertTrue(e.checks().checkQuotaInvariants().isEmpty());
  }

  @Test
  void hierarchy_cohortQuotaIsSharedBySubtree_andHeightsCount() {
    // root <- child(own quota 4) <- cq guaranteed(0); root <- cq best-effort(0)
    KueueEngine e = engine(List.of(new CohortSpec("root", null, List.of(), 1),
        new CohortSpec("child", "root", List.of(new ResourceGroupSpec(List.of("cpu"),
            List.of(new FlavorQuotaSpec("default", Map.of("cpu", QuotaSpec.nominal(4)))))), 1)),
        cq("guaranteed", "child", 0, QuotaSpec.UNLIMITED, QuotaSpec.UNLIMITED),
        cq("best-effort", "root", 0, QuotaSpec.UNLIMITED, QuotaSpec.UNLIMITED));
    ClusterQueue g = e.tree.queuesByName.get("guaranteed");
    assertEquals(4, g.available(0));
    assertEquals(1, FlavorAssigner.height(g, 0, 4).height(), "quota comes from the child cohort");
    assertEquals(2, FlavorAssigner.height(e.tree.queuesByName.get("best-effort"), 0, 4).height(), "from the root");
  }
}
