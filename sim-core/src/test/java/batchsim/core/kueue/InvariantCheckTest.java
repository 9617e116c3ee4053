package batchsim.core.kueue;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.core.model.ClusterQueueSpec;
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

/** The invariant checks fire on deliberately broken engine state (so a clean run means something). */
class InvariantCheckTest {
  private static KueueEngine engine() {
    ClusterQueueSpec cq = new ClusterQueueSpec("a", "co", List.of(new ResourceGroupSpec(List.of("cpu"),
        List.of(new FlavorQuotaSpec("default", Map.of("cpu", new QuotaSpec(4, 2, QuotaSpec.UNLIMITED)))))),
        QueueingStrategy.BEST_EFFORT_FIFO, PreemptionSpec.NEVER, FlavorFungibility.DEFAULT, 1.0, List.of());
    ClusterQueueSpec lender = new ClusterQueueSpec("b", "co", List.of(new ResourceGroupSpec(List.of("cpu"),
        List.of(new FlavorQuotaSpec("default", Map.of("cpu", QuotaSpec.nominal(10)))))),
        QueueingStrategy.BEST_EFFORT_FIFO, PreemptionSpec.NEVER, FlavorFungibility.DEFAULT, 1.0, List.of());
    KueueEngine e = new KueueEngine(KueueConfig.defaults(), ResourceSpace.of(List.of("cpu")),
        List.of(ResourceFlavorSpec.plain("default")), List.of(), List.of(cq, lender), () -> 0L);
    e.checks().trackChanges(true);
    return e;
  }

  private static WorkloadSpec wl(String id, long cpu) {
    return new WorkloadSpec(id, null, "lq", 0, 0, null, List.of(PodSetSpec.of("main", 1, Resources.wrap(new long[] {cpu}))), 1);
  }

  @Test
  void quotaCheck_flagsUsageAboveNominalPlusBorrowingLimit() {
    KueueEngine e = engine();
    e.assumeAdmitted(wl("w", 6), "a", 0, 0, null, new int[][] {{0}}, 0);
    assertTrue(e.checks().checkQuotaInvariants().isEmpty(), "6 = nominal 4 + borrowingLimit 2 is allowed");
    e.tree.queuesByName.get("a").addUsage(0, 1); // corrupt: one more than the limit allows
    assertFalse(e.checks().checkQuotaInvariants().isEmpty());
  }

  @Test
  void quotaCheck_flagsCohortUsageOutOfSyncWithChildren() {
    KueueEngine e = engine();
    e.tree.cohorts.get("co").usage[0] = 3; // the cohort believes 3 are used, its only child uses 0
    assertFalse(e.checks().checkQuotaInvariants().isEmpty());
  }

  @Test
  void workloadCheck_flagsAPendingWorkloadInTwoPlaces() {
    KueueEngine e = engine();
    Workload w = e.submit(wl("w", 1), "a", 0, 0, null);
    assertTrue(e.checks().checkTouchedWorkloads().isEmpty());
    e.tree.queuesByName.get("a").pending.held.members.add(w); // corrupt: in the heap and parked at once
    e.stateCheck.touch(w);
    assertFalse(e.checks().checkTouchedWorkloads().isEmpty());
  }

  @Test
  void waitingCheck_flagsACountThatDisagreesWithTheWorkloadsConditions() {
    KueueEngine e = engine();
    Workload w = e.submit(wl("w", 100), "a", 0, 0, null); // more than a and b can ever hold
    e.runCycle();
    assertTrue(e.checks().checkWaitingCounts().isEmpty(), e.checks().checkWaitingCounts().toString());
    // corrupt: its condition changes behind the tracker's back (the count still says "not yet tried" or quota)
    w.conditions.put(ConditionType.QUOTA_RESERVED,
        new Condition(ConditionType.QUOTA_RESERVED, false, "Deactivated", "The workload is deactivated", 0));
    assertFalse(e.checks().checkWaitingCounts().isEmpty());
  }

  @Test
  void workloadCheck_flagsAFinishedWorkloadStillHoldingQuota() {
    KueueEngine e = engine();
    Workload w = e.assumeAdmitted(wl("w", 1), "a", 0, 0, null, new int[][] {{0}}, 0);
    e.checks().checkTouchedWorkloads();
    w.state = WorkloadState.FINISHED; // corrupt: finished without releasing
    e.stateCheck.touch(w);
    assertFalse(e.checks().checkTouchedWorkloads().isEmpty());
  }

  @Test
  void secondPassCheck_flagsAFinishedWorkloadInTheSecondPassQueue() {
    KueueEngine e = engine();
    Workload w = e.assumeAdmitted(wl("w", 1), "a", 0, 0, null, new int[][] {{0}}, 0);
    e.finish(w);
    e.checks().checkTouchedWorkloads();
    e.tas.secondPass.forceForTest(w); // corrupt: Kueue never queues a finished workload for a second pass
    e.stateCheck.touch(w);
    assertFalse(e.checks().checkTouchedWorkloads().isEmpty());
  }
}
