package batchsim.core.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.core.metrics.RunResult;
import batchsim.core.metrics.WorkloadRecord;
import batchsim.core.model.AdmissionFairSharing;
import batchsim.core.model.AdmissionMode;
import batchsim.core.model.ClusterQueueSpec;
import batchsim.core.model.LocalQueueSpec;
import batchsim.core.model.PreemptionSpec;
import batchsim.core.model.QuotaSpec;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * End to end: one ClusterQueue shared by two namespaces, one flooding it. Without admission fair sharing the
 * other namespace waits behind the whole flood (FIFO); with it, its workloads go first at the next release.
 */
class AdmissionFairSharingSimulationTest {
  private static final long MIN = 60_000;

  private static Specs shared(boolean afs) {
    return shared(afs, 1.0);
  }

  private static Specs shared(boolean afs, double floodWeight) {
    Specs s = new Specs().pool("gpu", 1, 64_000, 8).flavor("a100", "gpu")
        .gpuQueue("cq", null, "a100", 8, QuotaSpec.UNLIMITED, QuotaSpec.UNLIMITED, PreemptionSpec.NEVER);
    ClusterQueueSpec cq = s.cqs.remove(0);
    s.cqs.add(new ClusterQueueSpec(cq.name(), cq.cohort(), cq.resourceGroups(), cq.queueingStrategy(),
        cq.preemption(), cq.fungibility(), cq.fairWeight(), cq.admissionChecks(), cq.checkFlavors(),
        AdmissionMode.USAGE_BASED_ADMISSION_FAIR_SHARING));
    s.lqs.clear();
    s.lqs.add(new LocalQueueSpec("flood/main", "cq", floodWeight));
    s.lqs.add(new LocalQueueSpec("small/main", "cq"));
    for (int i = 0; i < 20; i++) {
      s.job("flood-" + i, "flood/main", 0, 0, 1, 4, 10 * MIN);
    }
    s.job("small-0", "small/main", MIN, 0, 1, 4, 10 * MIN);
    s.job("small-1", "small/main", 2 * MIN, 0, 1, 4, 10 * MIN);
    if (afs) {
      s.kueue = s.kueue.withAdmissionFairSharing(new AdmissionFairSharing(30 * MIN, 5 * MIN, Map.of()));
    }
    return s;
  }

  private static long admitted(RunResult r, String id) {
    return r.workloads().stream().filter(w -> w.id().equals(id)).mapToLong(WorkloadRecord::admittedMs)
        .findFirst().orElseThrow();
  }

  @Test
  void floodingNamespace_noLongerStarvesTheOther() {
    RunResult fifo = new Simulation(shared(false).build()).checked(true).run();
    RunResult fair = new Simulation(shared(true).build()).checked(true).run();
    // FIFO: the 20 flood workloads (2 at a time, 10 min each) go first; small-0 waits 100 min and more.
    assertTrue(admitted(fifo, "small-0") >= 100 * MIN, "fifo: " + admitted(fifo, "small-0"));
    // Fair: the flood's usage is above the small namespace's (0), so small-0 and small-1 take the first two
    // releases (about 10 min; a second later with Kueue's inadmissible-requeue batch).
    long first = admitted(fair, "small-0");
    assertTrue(first > 10 * MIN && first < 11 * MIN, "first release: " + first);
    assertEquals(first, admitted(fair, "small-0"));
    assertEquals(first, admitted(fair, "small-1"));
    assertTrue(admitted(fair, "flood-2") > first, "the flood waits for the next release");
    assertEquals(fifo.workloads().size(), fair.workloads().size());
    assertTrue(fair.workloads().stream().allMatch(w -> w.finishedMs() > 0), "everything still finishes");
  }

  /** Kueue divides a LocalQueue's usage by its fairSharing.weight: a heavy flood queue keeps going first. */
  @Test
  void localQueueWeight_dividesItsUsage() {
    RunResult fair = new Simulation(shared(true).build()).checked(true).run();
    RunResult heavy = new Simulation(shared(true, 1e6).build()).checked(true).run();
    // small-0 still goes first at the first release (its queue's usage is 0, the flood's above 0), but then
    // small's entry penalty outweighs the flood's usage divided by a million: small-1 waits.
    assertEquals(admitted(fair, "small-0"), admitted(heavy, "small-0"));
    assertTrue(admitted(heavy, "small-1") > admitted(fair, "small-1") + 5 * MIN,
        admitted(heavy, "small-1") + " vs " + admitted(fair, "small-1"));
  }

  @Test
  void sameScenario_sameOutcome() {
    RunResult a = new Simulation(shared(true).build()).run();
    RunResult b = new Simulation(shared(true).build()).run();
    assertEquals(a.workloads(), b.workloads());
  }
}
