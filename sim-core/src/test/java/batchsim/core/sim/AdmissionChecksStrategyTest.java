package batchsim.core.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * ClusterQueue admissionChecksStrategy as Kueue @ ff69552e applies it (AdmissionChecksForWorkload): a rule with
 * onFlavors runs only for workloads assigned one of those flavors; a rule with none runs for every workload.
 */
class AdmissionChecksStrategyTest {
  private static final long MIN = 60_000;

  @Test
  void checksFor_followsOnFlavors() {
    ClusterQueueSpec cq = new ClusterQueueSpec("ml", null, List.of(), QueueingStrategy.BEST_EFFORT_FIFO,
        PreemptionSpec.NEVER, FlavorFungibility.DEFAULT, 1.0, List.of("all", "spot-only", "both"),
        Map.of("spot-only", List.of("spot"), "both", List.of("spot", "reserved")));
    assertEquals(List.of("all", "both"), cq.checksFor(Set.of("reserved")));
    assertEquals(List.of("all", "spot-only", "both"), cq.checksFor(Set.of("spot")));
    assertEquals(List.of("all"), cq.checksFor(Set.of("other")));
    assertEquals(List.of("all", "spot-only", "both"), cq.checksFor(Set.of("other", "spot")), "any assigned flavor");
  }

  /** Kueue pkg/workload TestAdmissionChecksForWorkload, "Only relevant checks returned for an admitted workload". */
  @Test
  void kueueCase_onlyRelevantChecksForAnAdmittedWorkload() {
    ClusterQueueSpec cq = new ClusterQueueSpec("cq", null, List.of(), QueueingStrategy.BEST_EFFORT_FIFO,
        PreemptionSpec.NEVER, FlavorFungibility.DEFAULT, 1.0, List.of("ac1", "ac2", "ac3", "ac4", "ac5", "ac6"),
        Map.of("ac1", List.of("flavor1"), "ac2", List.of("flavor2"), "ac3", List.of("flavor1", "flavor2"),
            "ac4", List.of("flavor1", "flavor2", "non-existent-flavor"), "ac5", List.of("non-existent-flavor")));
    // cpu on flavor1, memory on flavor2
    assertEquals(List.of("ac1", "ac2", "ac3", "ac4", "ac6"), cq.checksFor(Set.of("flavor1", "flavor2")));
  }

  @Test
  void provisioningOnSpotOnly_reservedFlavorAdmitsAtOnce_spotWaitsForTheRequest() {
    // Two flavors, 8 GPUs of quota each: "reserved" (one fixed node) first, then "spot" (an autoscaled pool
    // that starts empty). The provisioning check applies to spot only.
    Specs s = new Specs().pool("fixed", 1, 64_000, 8).pool("spot", 0, 64_000, 8)
        .flavor("reserved", "fixed").flavor("spot", "spot");
    s.cqs.add(new ClusterQueueSpec("ml", null, List.of(new ResourceGroupSpec(List.of("nvidia.com/gpu"), List.of(
        new FlavorQuotaSpec("reserved", Map.of("nvidia.com/gpu", QuotaSpec.nominal(8))),
        new FlavorQuotaSpec("spot", Map.of("nvidia.com/gpu", QuotaSpec.nominal(8)))))),
        QueueingStrategy.BEST_EFFORT_FIFO, PreemptionSpec.NEVER, FlavorFungibility.DEFAULT, 1.0, List.of("prov"),
        Map.of("prov", List.of("spot"))));
    s.lqs.add(new LocalQueueSpec("ml", "ml"));
    s.job("first", "ml", 0, 0, 1, 8, 60 * MIN).job("second", "ml", 0, 0, 1, 8, 60 * MIN);
    ProvisioningSpec prov = new ProvisioningSpec(ProvisioningSpec.ATOMIC_SCALE_UP, LongDistribution.constant(5 * MIN),
        0, 0, 0, 3, MIN, 30 * MIN, List.of(), "spot");
    RunResult r = new Simulation(s.build().withProvisioning(List.of(new AdmissionCheckSpec("prov", prov)),
        List.of(new AutoscalingSpec("spot", 0, 2, 10 * MIN)))).checked(true).run();

    Map<String, WorkloadRecord> w = r.workloads().stream()
        .collect(Collectors.toMap(WorkloadRecord::id, Function.identity()));
    assertEquals(0, w.get("first").admittedMs(), "reserved flavor: no check, Admitted with its quota");
    assertEquals(0, w.get("second").quotaReservedMs(), "spot: quota at once ...");
    assertEquals(5 * MIN, w.get("second").admittedMs(), "... Admitted when the ProvisioningRequest is Provisioned");
    assertEquals(1, r.provisioning().requests());
    assertEquals(1, r.provisioning().nodesAdded());
  }
}
