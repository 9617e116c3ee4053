package batchsim.core.model;

import java.util.List;

/**
 * A Kueue ProvisioningRequest admission check (ProvisioningRequestConfig plus the cluster autoscaler's
 * behaviour batchsim models).
 *
 * @param provisioningClass {@code check-capacity} (succeeds only if the capacity exists now) or
 *     {@code best-effort-atomic-scale-up} (adds the nodes the pods need to {@code scaleUpPool})
 * @param delay time from the request to its answer (node provisioning included)
 * @param failureProbability chance an attempt fails (Failed → Retry, or Rejected past the limit)
 * @param bookingExpiryMs how long provisioned capacity is held for a workload that is not Admitted yet
 * @param capacityRevokedProbability chance a provisioned booking is revoked before admission (→ Rejected)
 * @param backoffLimitCount retries before Rejected (Kueue default 3)
 * @param backoffBaseMs retry backoff base (Kueue default 60 s, doubling)
 * @param backoffMaxMs retry backoff cap (Kueue default 1800 s)
 * @param managedResources resources that need a request (empty = all); no request is made otherwise
 * @param scaleUpPool the node pool that grows (for best-effort-atomic-scale-up)
 */
public record ProvisioningSpec(
    String provisioningClass,
    LongDistribution delay,
    double failureProbability,
    long bookingExpiryMs,
    double capacityRevokedProbability,
    int backoffLimitCount,
    long backoffBaseMs,
    long backoffMaxMs,
    List<String> managedResources,
    String scaleUpPool) {

  public static final String CHECK_CAPACITY = "check-capacity";
  public static final String ATOMIC_SCALE_UP = "best-effort-atomic-scale-up";
}
