package batchsim.core.metrics;

import batchsim.core.model.PodSetSpec;
import batchsim.core.model.ResourceSpace;

import java.util.List;
import java.util.function.IntUnaryOperator;
import org.HdrHistogram.Histogram;

/**
 * Collects latency histograms and counters per ClusterQueue and overall, and exact time-weighted levels
 * (allocation per flavor and resource, quota usage per queue). Histograms record virtual milliseconds
 * with a plain {@code recordValue}; they auto-resize, so no wait is ever clipped.
 */
public final class Recorder {
  private final List<String> queueNames;
  private final QueueCounters[] queues;
  private final QueueCounters overall = new QueueCounters();
  private final TimeWeighted allocation;
  private final TimeWeighted quotaUsage;
  private final TimeWeighted borrowed;
  private long unknownQueueArrivals;
  private final TimeWeighted capacity;
  private final TimeWeighted poolNodes;
  private final TimeWeighted poolFailed;
  private final long[] poolFailures;
  private final long[] poolPodsLost;

  /**
   * @param allocationSlots size of the allocation and capacity index (flavor × resource, plus the overall row)
   * @param quotaSlots size of the quota-usage index (queue × flavor × resource)
   * @param pools number of node pools
   */
  public Recorder(List<String> queueNames, int allocationSlots, int quotaSlots, int pools) {
    this.queueNames = List.copyOf(queueNames);
    this.queues = new QueueCounters[queueNames.size()];
    for (int i = 0; i < queues.length; i++) {
      queues[i] = new QueueCounters();
    }
    this.allocation = new TimeWeighted(allocationSlots);
    this.quotaUsage = new TimeWeighted(quotaSlots);
    this.borrowed = new TimeWeighted(quotaSlots);
    this.capacity = new TimeWeighted(allocationSlots);
    this.poolNodes = new TimeWeighted(pools);
    this.poolFailed = new TimeWeighted(pools);
    this.poolFailures = new long[pools];
    this.poolPodsLost = new long[pools];
  }

  static final class QueueCounters {
    final Histogram timeToReservation = new Histogram(3);
    final Histogram timeToStart = new Histogram(3);
    final Histogram completion = new Histogram(3);
    long arrived;
    long admitted;
    long finished;
    long evicted;
    long preempted;
    final java.util.TreeMap<String, Long> evictionsByReason = new java.util.TreeMap<>();
    final java.util.TreeMap<String, Long> preemptionsByReason = new java.util.TreeMap<>();
    long requeues;
    final Histogram readmission = new Histogram(3);
    final java.util.TreeMap<String, Double> lost = new java.util.TreeMap<>();
    final WindowCounts preemptionsPerHour = new WindowCounts(3_600_000);
  }

  /**
   * The livelock guard (checked runs report it as an invariant violation): a workload evicted and readmitted
   * more than this many times within one virtual instant is livelocked.
   */
  public static final int LIVELOCK_READMISSIONS_PER_INSTANT = 3;
  /** ... or more than this many times within one virtual minute (a sliding window). */
  public static final int LIVELOCK_READMISSIONS_PER_MINUTE = 10;
  private final WindowCounts readmissionsPerInstant = new WindowCounts(1);
  private final WindowCounts readmissionsPerMinute = new WindowCounts(60_000);
  /** The first livelocks seen (a checked run stops at the first). */
  private final List<String> livelocks = new java.util.ArrayList<>();

  public void arrival(int queue) {
    queues[queue].arrived++;
    overall.arrived++;
  }

  public void unknownQueueArrival() {
    unknownQueueArrivals++;
  }

  /** Quota reserved; {@code firstWaitMs} is recorded only for the first reservation (else -1). */
  public void admitted(int queue, long firstWaitMs) {
    queues[queue].admitted++;
    overall.admitted++;
    if (firstWaitMs >= 0) {
      queues[queue].timeToReservation.recordValue(firstWaitMs);
      overall.timeToReservation.recordValue(firstWaitMs);
    }
  }

  public void started(int queue, long sinceCreatedMs) {
    queues[queue].timeToStart.recordValue(sinceCreatedMs);
    overall.timeToStart.recordValue(sinceCreatedMs);
  }

  public void finished(int queue, long sinceCreatedMs) {
    queues[queue].finished++;
    overall.finished++;
    queues[queue].completion.recordValue(sinceCreatedMs);
    overall.completion.recordValue(sinceCreatedMs);
  }

  /**
   * An eviction of {@code workload} at {@code now} with Kueue's Evicted reason and, for preemptions, the
   * Preempted reason (else null).
   */
  public void evicted(int queue, String workload, long now, String reason, String preemptionReason) {
    for (QueueCounters c : new QueueCounters[] {queues[queue], overall}) {
      c.evicted++;
      c.evictionsByReason.merge(reason, 1L, Long::sum);
      if (preemptionReason != null) {
        c.preempted++;
        c.preemptionsByReason.merge(preemptionReason, 1L, Long::sum);
        c.preemptionsPerHour.record(workload, now);
      }
    }
  }

  /** Work thrown away by an eviction: {@code amountMs} of resource {@code resource} (base units × ms). */
  /**
   * A running workload stopped after {@code ranMs} and its progress is lost: per resource, what its pods request
   * (pod set i has {@code count.applyAsInt(i)} pods) times the time it ran.
   */
  public void lostWork(int queue, ResourceSpace resources, List<PodSetSpec> podSets, IntUnaryOperator count,
      long ranMs) {
    for (int r = 0; r < resources.size(); r++) {
      long perWorkload = 0;
      for (int i = 0; i < podSets.size(); i++) {
        perWorkload += podSets.get(i).perPod().get(r) * count.applyAsInt(i);
      }
      if (perWorkload > 0 && ranMs > 0) {
        lostWork(queue, resources.name(r), (double) perWorkload * ranMs);
      }
    }
  }

  public void lostWork(int queue, String resource, double amountMs) {
    queues[queue].lost.merge(resource, amountMs, Double::sum);
    overall.lost.merge(resource, amountMs, Double::sum);
  }

  /** An evicted workload went back to its queue; {@code readmitted} later records the latency. */
  public void requeued(int queue) {
    queues[queue].requeues++;
    overall.requeues++;
  }

  /** Eviction → quota reserved again, for {@code workload} at {@code now}; watched by the livelock guard. */
  public void readmitted(int queue, String workload, long now, long sinceEvictionMs) {
    queues[queue].readmission.recordValue(sinceEvictionMs);
    overall.readmission.recordValue(sinceEvictionMs);
    int instant = readmissionsPerInstant.record(workload, now);
    int minute = readmissionsPerMinute.record(workload, now);
    if (livelocks.size() < 10 && (instant > LIVELOCK_READMISSIONS_PER_INSTANT
        || minute > LIVELOCK_READMISSIONS_PER_MINUTE)) {
      livelocks.add(instant > LIVELOCK_READMISSIONS_PER_INSTANT
          ? "livelock: workload " + workload + " was evicted and readmitted " + instant
              + " times within one virtual instant (more than " + LIVELOCK_READMISSIONS_PER_INSTANT + ")"
          : "livelock: workload " + workload + " was evicted and readmitted " + minute
              + " times within one virtual minute (more than " + LIVELOCK_READMISSIONS_PER_MINUTE + ")");
    }
  }

  /** The livelocks seen so far (the checker's invariant; empty when none). */
  public List<String> livelocks() {
    return List.copyOf(livelocks);
  }

  public PreemptionStats preemptionStats(int queue) {
    return preemption(queueNames.get(queue), queues[queue]);
  }

  public PreemptionStats overallPreemptionStats() {
    return preemption(QueueStats.OVERALL, overall);
  }

  private static PreemptionStats preemption(String name, QueueCounters c) {
    return new PreemptionStats(name, java.util.Collections.unmodifiableSortedMap(new java.util.TreeMap<>(c.evictionsByReason)),
        java.util.Collections.unmodifiableSortedMap(new java.util.TreeMap<>(c.preemptionsByReason)), c.requeues,
        c.readmission.copy(), java.util.Collections.unmodifiableSortedMap(new java.util.TreeMap<>(c.lost)),
        java.util.Collections.unmodifiableSortedMap(
            c.preemptionsPerHour.over(PreemptionStats.FREQUENT_PREEMPTIONS_PER_HOUR)));
  }

  public void allocation(int slot, long delta, long now) {
    allocation.add(slot, delta, now);
  }

  /** Quota usage of a queue slot changed by {@code delta}; borrowing is what exceeds {@code nominal}. */
  public void quotaUsage(int slot, long delta, long nominal, long now) {
    long before = Math.max(0, quotaUsage.level(slot) - nominal);
    quotaUsage.add(slot, delta, now);
    long after = Math.max(0, quotaUsage.level(slot) - nominal);
    if (after != before) {
      borrowed.add(slot, after - before, now);
    }
  }

  /** Quota usage of a queue slot integrated over [0, at] (base units × ms; who held quota while others waited). */
  public double quotaUsageIntegral(int slot, long at) {
    return quotaUsage.integral(slot, at);
  }

  /** Borrowing of a queue slot integrated over [0, at] (base units × ms). */
  public double borrowedIntegral(int slot, long at) {
    return borrowed.integral(slot, at);
  }

  public double meanBorrowed(int slot, long end) {
    return borrowed.mean(slot, end);
  }

  public double meanAllocation(int slot, long end) {
    return allocation.mean(slot, end);
  }

  /** Sizes the capacity (same slots as allocation) and per-pool node accounting. */
  public void capacity(int slot, long delta, long now) {
    capacity.add(slot, delta, now);
  }

  public double meanCapacity(int slot, long end) {
    return capacity.mean(slot, end);
  }

  public long capacityLevel(int slot) {
    return capacity.level(slot);
  }

  public void poolNodes(int pool, long delta, long now) {
    poolNodes.add(pool, delta, now);
  }

  public void poolFailed(int pool, long delta, long now) {
    poolFailed.add(pool, delta, now);
    if (delta > 0) {
      poolFailures[pool] += delta;
    }
  }

  public void podsLost(int pool, long n) {
    poolPodsLost[pool] += n;
  }

  public long poolNodesLevel(int pool) {
    return poolNodes.level(pool);
  }

  public long poolFailedLevel(int pool) {
    return poolFailed.level(pool);
  }

  public PoolStats poolStats(int pool, String name, long end) {
    return new PoolStats(name, poolNodes.level(pool), poolNodes.mean(pool, end) * end / 3_600_000.0,
        poolFailures[pool], poolFailed.mean(pool, end) * end / 3_600_000.0, poolPodsLost[pool]);
  }

  public long allocationLevel(int slot) {
    return allocation.level(slot);
  }

  public long peakAllocation(int slot) {
    return allocation.peak(slot);
  }

  public double meanQuotaUsage(int slot, long end) {
    return quotaUsage.mean(slot, end);
  }

  public long peakQuotaUsage(int slot) {
    return quotaUsage.peak(slot);
  }

  /** Evictions of a queue so far (cumulative, for the time series). */
  public long evictedSoFar(int queue) {
    return queues[queue].evicted;
  }

  /** Preemptions of a queue so far (cumulative, for the time series). */
  public long preemptedSoFar(int queue) {
    return queues[queue].preempted;
  }

  public long unknownQueueArrivals() {
    return unknownQueueArrivals;
  }

  /** Snapshot of one queue's statistics; {@code pending/admitted/running} are end-of-run counts. */
  public QueueStats queueStats(int queue, long pending, long admittedAtEnd, long running) {
    return stats(queueNames.get(queue), queues[queue], pending, admittedAtEnd, running);
  }

  public QueueStats overallStats(long pending, long admittedAtEnd, long running) {
    return stats(QueueStats.OVERALL, overall, pending, admittedAtEnd, running);
  }

  private static QueueStats stats(String name, QueueCounters c, long pending, long admittedAtEnd, long running) {
    return new QueueStats(name, c.timeToReservation.copy(), c.timeToStart.copy(), c.completion.copy(),
        c.arrived, c.admitted, c.finished, c.evicted, c.preempted, pending, admittedAtEnd, running);
  }
}
