package batchsim.core.metrics;

import batchsim.core.model.Durations;
import batchsim.core.model.Quantity;
import java.util.List;
import java.util.Locale;

/**
 * Why workloads waited, per ClusterQueue and overall: the workload-time spent waiting split by cause (see
 * README, "Why it waited"), and, for each quota a queue waited on, which other queues of its cohort tree used
 * and borrowed that quota meanwhile. Kueue only (null under Volcano).
 *
 * @param untilMs the end of the run: workloads still waiting then count until it
 * @param bucketMs the width of the over-time buckets ({@link Cause#byBucket}), bucket i covering
 *     [i × bucketMs, (i + 1) × bucketMs)
 * @param queues per ClusterQueue, in scenario order
 * @param overall every queue's split added up (no quota blocks)
 */
public record WaitingStats(long untilMs, long bucketMs, List<Queue> queues, Queue overall) {

  /**
   * @param totalMs the workload-milliseconds spent waiting, the sum of {@code causes}
   * @param causes per cause, in {@code WaitCause} order, only causes with time
   * @param quotaBlocks per flavor and resource the queue waited on
   */
  public record Queue(String clusterQueue, long totalMs, List<Cause> causes, List<QuotaBlock> quotaBlocks) {}

  /** @param byBucket the cause's workload-milliseconds in each over-time bucket (they add up to {@code ms}) */
  public record Cause(String cause, long ms, long[] byBucket) {}

  /**
   * @param blockedMs how long at least one of the queue's workloads waited on this quota
   * @param holders the other queues of its cohort tree that used this quota meanwhile, most used first
   */
  public record QuotaBlock(String resource, String flavor, long blockedMs, List<Holder> holders) {

    /**
     * "while team-a waited on nvidia.com/gpu in a100 (3h12m), team-b used 24.00 on average (16.00 borrowed)",
     * amounts in the units people count in (cores, GiB, units).
     */
    public String describe(String queue) {
      StringBuilder s = new StringBuilder("while ").append(queue).append(" waited on ").append(resource)
          .append(" in ").append(flavor).append(" (").append(Durations.format(blockedMs / 1000 * 1000)).append("), ");
      if (holders.isEmpty()) {
        return s.append("no other queue of its cohort tree used it").toString();
      }
      double unit = Quantity.toDisplayUnits(resource, 1_000_000) / 1_000_000;
      for (int i = 0; i < holders.size(); i++) {
        Holder h = holders.get(i);
        s.append(i == 0 ? "" : ", ").append(h.clusterQueue()).append(" used ")
            .append(String.format(Locale.ROOT, "%.2f", h.meanUsage() * unit)).append(" on average (")
            .append(String.format(Locale.ROOT, "%.2f", h.meanBorrowed() * unit)).append(" borrowed)");
      }
      return s.toString();
    }
  }

  /** Mean usage and mean borrowing (base units) of one queue over the blocked time. */
  public record Holder(String clusterQueue, double meanUsage, double meanBorrowed) {}
}
