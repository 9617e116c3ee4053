package batchsim.core.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.core.metrics.RunResult;
import batchsim.core.metrics.WorkloadRecord;
import batchsim.core.model.AdmissionCheckSpec;
import batchsim.core.model.AutoscalingSpec;
import batchsim.core.model.ClusterQueueSpec;
import batchsim.core.model.FlavorFungibility;
import batchsim.core.model.FlavorQuotaSpec;
import batchsim.core.model.LocalQueueSpec;
import batchsim.core.model.LongDistribution;
import batchsim.core.model.PreemptionSpec;
import batchsim.core.model.ProvisioningSpec;
import batchsim.core.model.QueueingStrategy;
import batchsim.core.model.QuotaSpec;
import batchsim.core.model.ResourceGroupSpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Kueue's ProvisioningRequest admission check and an autoscaled pool, in virtual time. */
class ProvisioningTest {
  private static ProvisioningSpec prov(String cls, long delayMs, double failure, long bookingExpiryMs, int limit) {
    return new ProvisioningSpec(cls, LongDistribution.constant(delayMs), failure, bookingExpiryMs, 0, limit, 60_000,
        1_800_000, List.of(), "gpu");
  }

  /** An empty autoscaled GPU pool (max 4 nodes) and a queue whose admission needs the named checks. */
  private static Specs cluster(List<String> checks) {
    Specs s = new Specs().pool("gpu", 0, 64_000, 8).flavor("a100", "gpu");
    s.cqs.add(new ClusterQueueSpec("ml", null, List.of(new ResourceGroupSpec(List.of("nvidia.com/gpu"),
        List.of(new FlavorQuotaSpec("a100", Map.of("nvidia.com/gpu", QuotaSpec.nominal(32)))))),
        QueueingStrategy.BEST_EFFORT_FIFO, PreemptionSpec.NEVER, FlavorFungibility.DEFAULT, 1.0, checks));
    s.lqs.add(new LocalQueueSpec("ml", "ml"));
    return s;
  }

  private static RunResult run(Specs s, List<AdmissionCheckSpec> checks) {
    return new Simulation(s.build().withProvisioning(checks, List.of(new AutoscalingSpec("gpu", 0, 4, 600_000))))
        .checked(true).run();
  }

  @Test
  void atomicScaleUp_addsNodesThenAdmits_andIdleNodesAreRemoved() {
    Specs s = cluster(List.of("prov")).job("j1", "ml", 0, 0, 2, 8, 3_600_000);
    RunResult r = run(s, List.of(new AdmissionCheckSpec("prov",
        prov(ProvisioningSpec.ATOMIC_SCALE_UP, 360_000, 0, 0, 3))));
    WorkloadRecord j1 = r.workloads().get(0);
    assertEquals(0, j1.quotaReservedMs(), "quota first");
    assertEquals(360_000, j1.admittedMs(), "Admitted when the request is Provisioned (6 min)");
    assertEquals(360_000, j1.startedMs(), "the two new nodes take the two pods at once");
    var p = r.provisioning();
    assertEquals(1, p.requests());
    assertEquals(2, p.nodesAdded());
    assertEquals(2, p.nodesRemoved(), "given back after 10 idle minutes");
    // Two nodes from 6 min until 10 min after the 1 h run: 2 × 70 min.
    assertEquals(2 * 70 / 60.0, r.pools().get(0).nodeHours(), 1e-9);
  }

  @Test
  void failedRequest_retriesWithBackoff_thenRejectedAndDeactivated() {
    Specs s = cluster(List.of("prov")).job("j1", "ml", 0, 0, 1, 8, 60_000);
    RunResult r = run(s, List.of(new AdmissionCheckSpec("prov",
        prov(ProvisioningSpec.ATOMIC_SCALE_UP, 60_000, 1.0, 0, 2))));
    WorkloadRecord j1 = r.workloads().get(0);
    // Attempt 1 fails at 1 min → Retry, backoff 60 s; attempt 2 at 2 min + 1 min fails → Retry, backoff 120 s;
    // attempt 3 fails → past backoffLimitCount 2 → Rejected: evicted and deactivated.
    assertEquals("DEACTIVATED", j1.state());
    assertEquals(3, j1.evictions());
    var p = r.provisioning();
    assertEquals(3, p.requests());
    assertEquals(3, p.failures());
    assertEquals(2, p.retries());
    assertEquals(1, p.rejected());
    assertEquals(300_000, j1.quotaReservedMs(), "third reservation: 1 min + 1 min backoff + 1 min + 2 min backoff");
  }

  @Test
  void bookingExpiresWhileAnotherCheckIsPending_isRetried() {
    Specs s = cluster(List.of("fast", "slow")).job("j1", "ml", 0, 0, 1, 8, 60_000);
    RunResult r = run(s, List.of(
        new AdmissionCheckSpec("fast", prov(ProvisioningSpec.ATOMIC_SCALE_UP, 60_000, 0, 120_000, 1)),
        new AdmissionCheckSpec("slow", prov(ProvisioningSpec.CHECK_CAPACITY, 600_000, 0, 0, 1))));
    // "fast" is Provisioned at 1 min with a 2 min booking; "slow" answers at 10 min: the booking expires
    // at 3 min (Kueue: BookingExpired before Admitted → Retry), and again on the retry → Rejected.
    var p = r.provisioning();
    assertTrue(p.bookingsExpired() >= 2, "expired " + p.bookingsExpired());
    assertEquals("DEACTIVATED", r.workloads().get(0).state());
  }
}
