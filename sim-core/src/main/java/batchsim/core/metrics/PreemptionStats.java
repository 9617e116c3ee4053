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
 * @param frequentlyPreempted workloads preempted more than {@link #FREQUENT_PREEMPTIONS_PER_HOUR} times
 *     within one simulated hour (a sliding window), each with the most preemptions any such hour saw
 */
public record PreemptionStats(
    String name,
    SortedMap<String, Long> evictionsByReason,
    SortedMap<String, Long> preemptionsByReason,
    long requeues,
    Histogram readmission,
    SortedMap<String, Double> lostResourceMs,
    SortedMap<String, Integer> frequentlyPreempted) {

  /**
   * The warning threshold: a workload preempted more often than this within one simulated hour is churning
   * (preempted and readmitted over and over) rather than making progress.
   */
  public static final int FREQUENT_PREEMPTIONS_PER_HOUR = 10;

  /** Statistics without frequently preempted workloads (tests and tools that build results by hand). */
  public PreemptionStats(String name, SortedMap<String, Long> evictionsByReason,
      SortedMap<String, Long> preemptionsByReason, long requeues, Histogram readmission,
      SortedMap<String, Double> lostResourceMs) {
    this(name, evictionsByReason, preemptionsByReason, requeues, readmission, lostResourceMs,
        java.util.Collections.emptySortedMap());
  }
}
