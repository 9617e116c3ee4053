package batchsim.core.model;

/**
 * Kueue's waitForPodsReady (Configuration): an Admitted workload whose pods are not all ready within
 * {@code timeoutMs} of admission — or not ready again within {@code recoveryTimeoutMs} after a pod
 * failed — is evicted with reason PodsReadyTimeout and requeued after an exponential backoff
 * ({@code backoffBaseMs} × 2^(n-1), at most {@code backoffMaxMs}); after {@code backoffLimitCount}
 * requeues (-1 = unlimited) it is deactivated.
 */
public record WaitForPodsReady(
    boolean enable,
    long timeoutMs,
    long recoveryTimeoutMs,
    long backoffBaseMs,
    long backoffMaxMs,
    int backoffLimitCount,
    boolean blockAdmission) {

  /** Kueue v1beta2 defaults: on, 30 min timeout, recovery = timeout, backoff 60 s doubling to 1 h, unlimited. */
  public static final WaitForPodsReady DEFAULT =
      new WaitForPodsReady(true, 1_800_000, 1_800_000, 60_000, 3_600_000, -1, false);

  public static final WaitForPodsReady DISABLED =
      new WaitForPodsReady(false, 1_800_000, 1_800_000, 60_000, 3_600_000, -1, false);
}
