package batchsim.core.kueue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.core.model.ClusterQueueSpec;
import batchsim.core.model.FlavorFungibility;
import batchsim.core.model.FlavorQuotaSpec;
import batchsim.core.model.KueueConfig;
import batchsim.core.model.PodSetSpec;
import batchsim.core.model.PreemptionPolicy;
import batchsim.core.model.PreemptionSpec;
import batchsim.core.model.QueueingStrategy;
import batchsim.core.model.QuotaSpec;
import batchsim.core.model.ResourceFlavorSpec;
import batchsim.core.model.ResourceGroupSpec;
import batchsim.core.model.ResourceSpace;
import batchsim.core.model.Resources;
import batchsim.core.model.WorkloadSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Elastic jobs: a shrink in place, a growth as a new slice that replaces the admitted one (Kueue's accounting). */
class WorkloadSlicesTest {
  private long now;

  /** ClusterQueue cq: cpu in flavor a (quota {@code a}) then flavor b (quota {@code b}), LowerPriority preemption. */
  private KueueEngine engine(long a, long b) {
    Map<String, QuotaSpec> qa = Map.of("cpu", QuotaSpec.nominal(a));
    Map<String, QuotaSpec> qb = Map.of("cpu", QuotaSpec.nominal(b));
    List<FlavorQuotaSpec> flavors = new ArrayList<>(List.of(new FlavorQuotaSpec("a", qa)));
    if (b > 0) {
      flavors.add(new FlavorQuotaSpec("b", qb));
    }
    PreemptionSpec preemption = new PreemptionSpec(PreemptionPolicy.LOWER_PRIORITY, PreemptionPolicy.NEVER,
        PreemptionPolicy.NEVER, null);
    ClusterQueueSpec cq = new ClusterQueueSpec("cq", null, List.of(new ResourceGroupSpec(List.of("cpu"), flavors)),
        QueueingStrategy.BEST_EFFORT_FIFO, preemption, FlavorFungibility.DEFAULT, 1.0, List.of());
    KueueEngine e = new KueueEngine(KueueConfig.defaults(), ResourceSpace.of(List.of("cpu")),
        List.of(ResourceFlavorSpec.plain("a"), ResourceFlavorSpec.plain("b")), List.of(), List.of(cq), () -> now);
    e.checks().trackChanges(true);
    return e;
  }

  private static WorkloadSpec job(String id, int pods) {
    return new WorkloadSpec(id, null, "lq", 0, 0, null,
        List.of(PodSetSpec.of("main", pods, Resources.wrap(new long[] {1}))), 1);
  }

  private static long cpu(KueueEngine e, int flavor) {
    return e.usage("cq", flavor, 0);
  }

  /** Scales {@code w}; a growth of a workload holding quota gets its new slice, as the world makes it. */
  private static Workload scale(KueueEngine e, Workload w, int pods, long seq) {
    WorkloadSlices s = e.edits().slices();
    if (s.scale(w, pods) != WorkloadSlices.Change.NEEDS_NEW_SLICE) {
      return w;
    }
    Workload slice = e.submit(s.sliceSpec(w, pods), "cq", w.priority(), seq, null);
    s.linked(slice, w);
    return slice;
  }

  private static void noViolations(KueueEngine e) {
    List<String> v = new ArrayList<>(e.checks().checkQuotaInvariants());
    v.addAll(e.checks().checkTouchedWorkloads());
    assertTrue(v.isEmpty(), v.toString());
  }

  @Test
  void shrinking_changesTheAdmittedWorkloadInPlace_andFreesItsQuotaAtOnce() {
    KueueEngine e = engine(5, 0);
    Workload a = e.submit(job("a", 3), "cq", 0, 0, null);
    e.runCycle();
    Workload b = e.submit(job("b", 3), "cq", 0, 1, null);
    e.runCycle();
    assertEquals(WorkloadState.PENDING, b.state(), "3 + 3 > 5");
    assertSame(a, scale(e, a, 1, 2));
    assertEquals(1, a.admittedCount(0));
    assertEquals(1, cpu(e, 0), "the quota follows the count at once");
    e.processInadmissibleRequeues();
    e.runCycle();
    assertEquals(WorkloadState.RESERVED, b.state(), "the freed quota admits b");
    assertEquals(4, cpu(e, 0));
    noViolations(e);
  }

  @Test
  void growing_makesASliceThatNeedsOnlyTheDifference_andReplacesTheOldOneOnAdmission() {
    KueueEngine e = engine(5, 0);
    Workload a = e.submit(job("ns/a", 3), "cq", 0, 0, null);
    e.runCycle();
    now = 60_000;
    Workload slice = scale(e, a, 5, 1);
    assertEquals("ns/a-slice-2", slice.id());
    assertEquals("ns/a", slice.jobName());
    assertSame(a, slice.replacementFor());
    assertEquals(WorkloadState.RESERVED, a.state(), "the old slice runs on while the new one waits");
    assertEquals(3, cpu(e, 0));
    e.runCycle();
    assertEquals(WorkloadState.RESERVED, slice.state(), "5 fits: 2 more beside the old slice's 3");
    assertEquals(5, slice.admittedCount(0));
    assertEquals(WorkloadState.FINISHED, a.state());
    assertEquals(WorkloadSlices.REPLACED, a.condition(ConditionType.FINISHED).reason());
    assertEquals(5, cpu(e, 0), "the old slice's quota became the new one's, not added to it");
    assertSame(slice, a.latestSlice());
    assertNull(slice.replacementFor(), "replaced: the new slice no longer points at a slice holding quota");
    noViolations(e);
  }

  @Test
  void growingBeyondTheQuota_leavesTheSlicePending_andTheOldOneAdmitted() {
    KueueEngine e = engine(5, 0);
    Workload a = e.submit(job("a", 3), "cq", 0, 0, null);
    e.runCycle();
    Workload slice = scale(e, a, 6, 1);
    e.runCycle();
    assertEquals(WorkloadState.PENDING, slice.state());
    assertEquals(WorkloadState.RESERVED, a.state());
    assertEquals(3, cpu(e, 0));
    // Scaled back within quota before it was admitted: the pending slice's count changes in place and it is
    // admitted with the old slice's quota as its own.
    assertSame(slice, scale(e, slice, 4, 2));
    e.processInadmissibleRequeues();
    e.runCycle();
    assertEquals(WorkloadState.RESERVED, slice.state());
    assertEquals(WorkloadState.FINISHED, a.state());
    assertEquals(4, cpu(e, 0));
    noViolations(e);
  }

  @Test
  void theNewSlice_keepsTheOldSlicesFlavor_evenWhenAnotherFlavorHasRoom() {
    KueueEngine e = engine(3, 10);
    Workload a = e.submit(job("a", 3), "cq", 0, 0, null);
    e.runCycle();
    assertEquals(3, cpu(e, 0), "flavor a first");
    Workload slice = scale(e, a, 4, 1);
    e.runCycle();
    assertEquals(WorkloadState.PENDING, slice.state(), "Kueue: the slice must reuse flavor a, which is full");
    assertEquals(0, cpu(e, 1), "flavor b, with room for all 4, is not taken");
    noViolations(e);
  }

  @Test
  void theNewSlice_neverPreemptsTheSliceItReplaces() {
    KueueEngine e = engine(5, 0);
    Workload a = e.submit(job("a", 3), "cq", 0, 0, null);
    e.runCycle();
    Workload slice = scale(e, a, 6, 1);
    e.edits().setPriority(slice, 100, null); // would preempt a under LowerPriority were it not its own old slice
    e.runCycle();
    assertEquals(WorkloadState.RESERVED, a.state());
    assertEquals(0, a.evictions());
    assertEquals(WorkloadState.PENDING, slice.state());
    noViolations(e);
  }

  @Test
  void anOldSliceEvictedWhileItsReplacementWaits_isFinished_andTheReplacementNeedsItsWholeCount() {
    KueueEngine e = engine(5, 0);
    Workload a = e.submit(job("a", 3), "cq", 0, 0, null);
    e.runCycle();
    Workload slice = scale(e, a, 4, 1);
    e.workloads.evict(a, "Preempted", "InClusterQueue", "test eviction");
    assertTrue(e.edits().slices().finishEvictedReplaced(a));
    assertEquals(WorkloadState.FINISHED, a.state());
    assertEquals(0, cpu(e, 0));
    Workload big = e.submit(job("big", 2), "cq", 0, 2, null);
    e.runCycle();
    e.processInadmissibleRequeues();
    e.runCycle();
    assertEquals(WorkloadState.RESERVED, slice.state(), "its whole count (4) fits alone");
    assertEquals(4, slice.admittedCount(0));
    assertEquals(WorkloadState.PENDING, big.state());
    assertEquals(4, cpu(e, 0));
    noViolations(e);
  }

  @Test
  void aReplacementAdmittedWhileTheOldSliceIsEvicted_needsItsWholeCount_andLeavesTheOldSliceToItsEviction() {
    KueueEngine e = engine(6, 0);
    Workload a = e.submit(job("a", 1), "cq", 0, 0, null);
    e.runCycle();
    Workload slice = scale(e, a, 2, 1);
    e.workloads.evict(a, "Preempted", "InClusterQueue", "test eviction");
    assertNull(e.edits().slices().held(slice), "an old slice being evicted is not the replacement's to count");
    e.runCycle();
    assertEquals(WorkloadState.RESERVED, slice.state());
    assertEquals(WorkloadState.EVICTING, a.state(), "its admission does not finish a slice still being evicted");
    assertEquals(3, cpu(e, 0), "the evicted slice keeps its quota until its pods are gone, beside the new one's 2");
    noViolations(e);
    assertTrue(e.edits().slices().finishEvictedReplaced(a), "its pods gone, it is finished (not requeued)");
    assertEquals(WorkloadState.FINISHED, a.state());
    assertEquals(2, cpu(e, 0));
    noViolations(e);
  }
}
