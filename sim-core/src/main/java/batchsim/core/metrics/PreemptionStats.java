package batchsim.core.metrics;

import java.util.SortedMap;
import org.HdrHistogram.Histogram;

/**
 * What evictions cost one ClusterQueue (or the whole run when {@code name} is "*").
 *
 * @param evictionsByReason Kueue Evicted reason (Preempted, ...) → count
 * @param preemptionsByReason Kueue Preempted reason (InClusterQueue, InCohortReclamation,
 *     InCohortReclaimWhileBorrowing, InCohortFairSharing) → count
 * @param requeues evicted workloads that went back to the queue once their pods were gone
 * @param readmission eviction → quota reserved again, virtual ms (one sample per readmission)
 * @param lostResourceMs per resource name: work discarded by evicting running workloads, in base units ×
 *     ms (e.g. GPU-ms); only resources with a non-zero loss are listed
 */
public record PreemptionStats(
    String name,
    SortedMap<String, Long> evictionsByReason,
    SortedMap<String, Long> preemptionsByReason,
    long requeues,
    Histogram readmission,
    SortedMap<String, Double> lostResourceMs) {}
