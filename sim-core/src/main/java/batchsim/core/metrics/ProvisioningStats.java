package batchsim.core.metrics;

import org.HdrHistogram.Histogram;

/**
 * ProvisioningRequest admission checks and autoscaled pools over the run.
 *
 * @param latency request → Provisioned, virtual ms
 * @param checkWait quota reserved → Admitted (the admission-check part of time to admission), virtual ms
 * @param failures attempts that failed (each becomes a Retry or, past the limit, a Rejected)
 * @param retries checks set to Retry (Failed or BookingExpired)
 * @param rejected checks set to Rejected (limit reached or CapacityRevoked): the workload is deactivated
 */
public record ProvisioningStats(long requests, long failures, long retries, long rejected, long bookingsExpired,
    long nodesAdded, long nodesRemoved, Histogram latency, Histogram checkWait) {}
