package batchsim.core.metrics;

/**
 * Time-weighted quota usage of one ClusterQueue on one flavor and resource (base units).
 *
 * @param nominal the nominal quota
 * @param meanUsage time-weighted mean usage (quota reserved by admitted workloads)
 * @param usageOverNominal meanUsage / nominal (NaN when nominal is 0 and usage is 0; +Inf when only borrowed)
 * @param meanBorrowed time-weighted mean of max(0, usage - nominal)
 * @param peakUsage largest usage at any moment
 */
public record QueueUsageStat(
    String clusterQueue, String flavor, String resource, long nominal, double meanUsage,
    double usageOverNominal, double meanBorrowed, long peakUsage) {}
