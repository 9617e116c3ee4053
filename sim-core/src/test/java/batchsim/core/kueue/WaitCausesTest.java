package batchsim.core.kueue;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** QuotaReserved=False reasons and messages, as the bundled examples' decision logs show them, to causes. */
class WaitCausesTest {
  private static String label(String reason, String message) {
    return WaitCauses.of(reason, message).label();
  }

  @Test
  void quota_isTheFirstUnusedQuotaClause_notAFlavorThatCanNeverHoldIt() {
    assertEquals("quota: nvidia.com/gpu in a100", label("WaitingForQuota",
        "couldn't assign flavors to pod set main: insufficient unused quota for nvidia.com/gpu in flavor a100, 8 more needed"));
    assertEquals("quota: nvidia.com/gpu in a1", label("WaitingForQuota", "couldn't assign flavors to pod set workers: "
        + "insufficient quota for memory in flavor cpu-std, previously considered podsets requests (0) + current podset "
        + "request (64Gi) > maximum capacity (32Gi), insufficient unused quota for nvidia.com/gpu in flavor a1, 8 more needed"));
    // cpu-std can never hold the GPUs: its unused cpu is not what the workload waits on (quickstart's team-b)
    assertEquals("quota: nvidia.com/gpu in a100", label("WaitingForQuota", "couldn't assign flavors to pod set "
        + "workers: insufficient quota for nvidia.com/gpu in flavor cpu-std, previously considered podsets requests (0)"
        + " + current podset request (8) > maximum capacity (0), insufficient unused quota for cpu in flavor cpu-std, "
        + "32 more needed, insufficient unused quota for nvidia.com/gpu in flavor a100, 8 more needed"));
    assertEquals("never fits the quota", label("WaitingForQuota", "couldn't assign flavors to pod set main: "
        + "insufficient quota for nvidia.com/gpu in flavor cpu-std, previously considered podsets requests (0) + "
        + "current podset request (8) > maximum capacity (0), insufficient unused quota for cpu in flavor cpu-std, "
        + "4 more needed"));
    assertEquals("never fits the quota", label("WaitingForQuota", "couldn't assign flavors to pod set main: insufficient "
        + "quota for nvidia.com/gpu in flavor cpu-std, previously considered podsets requests (0) + current podset request "
        + "(8) > maximum capacity (0)"));
  }

  @Test
  void kueuesOtherAnswers_haveTheirOwnCauses() {
    assertEquals("waiting for preempted workloads", label("WaitingForPreemptedWorkloads", "couldn't assign flavors to pod "
        + "set main: insufficient unused quota for cpu in flavor default, 4 more needed. Pending the preemption of 1 workload(s)"));
    assertEquals("topology", label("WaitingForQuota", "couldn't assign flavors to pod set main: topology \"racks\" allows "
        + "to fit only 3 out of 4 pod(s). Total nodes: 16; excluded: resource \"cpu\": 13"));
    assertEquals("topology", label("WaitingForQuota", "couldn't assign flavors to pod set main: topology \"racks\" doesn't "
        + "allow to fit any of 4 pod(s). Total nodes: 16; excluded: resource \"cpu\": 16"));
    assertEquals("topology", label("TopologyPlacementFailed", "anything"));
    assertEquals("no longer fits after another workload",
        label("WaitingForQuota", "Workload no longer fits after processing another workload"));
    assertEquals("overlapping preemption targets",
        label("WaitingForQuota", "Workload has overlapping preemption targets with another workload"));
    assertEquals("no matching flavor", label("NoMatchingFlavor",
        "couldn't assign flavors to pod set main: Flavor \"gpu\" does not support TopologyAwareScheduling"));
    assertEquals("stopped or inactive queue", label("Suspended", "ClusterQueue team-b is inactive"));
    assertEquals("stopped or inactive queue", label("Misconfigured", "ClusterQueue team-b doesn't exist"));
    assertEquals("deactivated", label("Deactivated", "The workload is deactivated"));
    assertEquals("evicted, waiting to requeue", label("PendingEvaluation", "Exceeded the PodsReady timeout default/x"));
    assertEquals("pending evaluation",
        label("PendingEvaluation", "Workload is pending evaluation in the scheduling queue"));
    assertEquals("other: SomethingNew", label("SomethingNew", null));
  }
}
