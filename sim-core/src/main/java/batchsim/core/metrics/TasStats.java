package batchsim.core.metrics;

import org.HdrHistogram.Histogram;

/**
 * Topology Aware Scheduling figures of a run: time to admission (created → first quota reservation,
 * virtual ms) of workloads placed with a topology assignment vs without, and node-failure repair outcomes.
 *
 * @param nodeRepairs unhealthy nodes replaced by a second pass (the workload kept running elsewhere)
 * @param nodeFailureEvictions workloads evicted with reason NodeFailures (no replacement, or a second failed node)
 */
public record TasStats(
    Histogram tasTimeToAdmission,
    Histogram nonTasTimeToAdmission,
    long nodeRepairs,
    long nodeFailureEvictions) {}
