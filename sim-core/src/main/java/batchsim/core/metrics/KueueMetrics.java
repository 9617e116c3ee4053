package batchsim.core.metrics;

import static batchsim.core.metrics.Buckets.kueueExponential;

import java.util.Collections;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Kueue's metric families (pkg/metrics/metrics.go @ ff69552e) with their names, label names in Kueue's order
 * and histogram buckets. Counters and histograms are recorded at the events where Kueue records them; the
 * gauges are set from the engine's state by the refresher just before each read (what Kueue's cache and queue
 * manager would report at that moment).
 *
 * <p>{@code replica_role} is always {@code standalone} (roletracker.GetRole of a nil tracker: one replica, no
 * leader election). Custom metric labels are not configured, so no family has extra labels.
 */
public final class KueueMetrics {
  public static final String STANDALONE = "standalone";
  public static final String SUCCESS = "success";
  public static final String INADMISSIBLE = "inadmissible";
  public static final String ACTIVE = "active";

  private static final String CQ = "cluster_queue";
  private static final String PC = "priority_class";
  private static final String RR = "replica_role";
  private static final String NAME = "name";
  private static final String NS = "namespace";

  // Scheduler
  public final CounterFamily admissionAttemptsTotal = new CounterFamily("kueue_admission_attempts_total", "result", RR);
  public final HistogramFamily admissionAttemptDuration = new HistogramFamily(
      "kueue_admission_attempt_duration_seconds", Buckets.PROMETHEUS_DEFAULT, "result", RR);
  public final GaugeFamily admissionCyclePreemptionSkips = new GaugeFamily(
      "kueue_admission_cycle_preemption_skips", CQ, RR);

  // Queue manager
  public final GaugeFamily pendingWorkloads = new GaugeFamily("kueue_pending_workloads", CQ, "status", RR);
  public final GaugeFamily localQueuePendingWorkloads = new GaugeFamily(
      "kueue_local_queue_pending_workloads", NAME, NS, "status", RR);
  public final GaugeFamily finishedWorkloads = new GaugeFamily("kueue_finished_workloads", CQ, RR);
  public final GaugeFamily localQueueFinishedWorkloads = new GaugeFamily(
      "kueue_local_queue_finished_workloads", NAME, NS, RR);

  // Workload events
  public final CounterFamily quotaReservedWorkloadsTotal = new CounterFamily(
      "kueue_quota_reserved_workloads_total", CQ, PC, RR);
  public final CounterFamily localQueueQuotaReservedWorkloadsTotal = new CounterFamily(
      "kueue_local_queue_quota_reserved_workloads_total", NAME, NS, PC, RR);
  public final HistogramFamily quotaReservedWaitTime = new HistogramFamily(
      "kueue_quota_reserved_wait_time_seconds", kueueExponential(14), CQ, PC, RR);
  public final HistogramFamily localQueueQuotaReservedWaitTime = new HistogramFamily(
      "kueue_local_queue_quota_reserved_wait_time_seconds", kueueExponential(14), NAME, NS, PC, RR);
  public final CounterFamily admittedWorkloadsTotal = new CounterFamily("kueue_admitted_workloads_total", CQ, PC, RR);
  public final CounterFamily localQueueAdmittedWorkloadsTotal = new CounterFamily(
      "kueue_local_queue_admitted_workloads_total", NAME, NS, PC, RR);
  public final HistogramFamily admissionWaitTime = new HistogramFamily(
      "kueue_admission_wait_time_seconds", kueueExponential(16), CQ, PC, RR);
  public final HistogramFamily localQueueAdmissionWaitTime = new HistogramFamily(
      "kueue_local_queue_admission_wait_time_seconds", kueueExponential(14), NAME, NS, PC, RR);
  public final HistogramFamily admissionChecksWaitTime = new HistogramFamily(
      "kueue_admission_checks_wait_time_seconds", kueueExponential(14), CQ, PC, RR);
  public final HistogramFamily localQueueAdmissionChecksWaitTime = new HistogramFamily(
      "kueue_local_queue_admission_checks_wait_time_seconds", kueueExponential(14), NAME, NS, PC, RR);
  public final HistogramFamily readyWaitTime = new HistogramFamily(
      "kueue_ready_wait_time_seconds", kueueExponential(14), CQ, PC, RR);
  public final HistogramFamily localQueueReadyWaitTime = new HistogramFamily(
      "kueue_local_queue_ready_wait_time_seconds", kueueExponential(14), NAME, NS, PC, RR);
  public final HistogramFamily admittedUntilReadyWaitTime = new HistogramFamily(
      "kueue_admitted_until_ready_wait_time_seconds", kueueExponential(14), CQ, PC, RR);
  public final HistogramFamily localQueueAdmittedUntilReadyWaitTime = new HistogramFamily(
      "kueue_local_queue_admitted_until_ready_wait_time_seconds", kueueExponential(14), NAME, NS, PC, RR);
  public final CounterFamily evictedWorkloadsTotal = new CounterFamily(
      "kueue_evicted_workloads_total", CQ, "reason", "underlying_cause", PC, RR);
  public final CounterFamily localQueueEvictedWorkloadsTotal = new CounterFamily(
      "kueue_local_queue_evicted_workloads_total", NAME, NS, "reason", "underlying_cause", PC, RR);
  public final CounterFamily evictedWorkloadsOnceTotal = new CounterFamily(
      "kueue_evicted_workloads_once_total", CQ, "reason", "underlying_cause", PC, RR);
  public final CounterFamily preemptedWorkloadsTotal = new CounterFamily(
      "kueue_preempted_workloads_total", "preempting_cluster_queue", "reason", RR);
  public final CounterFamily finishedWorkloadsTotal = new CounterFamily("kueue_finished_workloads_total", CQ, PC, RR);
  public final CounterFamily localQueueFinishedWorkloadsTotal = new CounterFamily(
      "kueue_local_queue_finished_workloads_total", NAME, NS, PC, RR);

  // Cache
  public final GaugeFamily reservingActiveWorkloads = new GaugeFamily("kueue_reserving_active_workloads", CQ, RR);
  public final GaugeFamily localQueueReservingActiveWorkloads = new GaugeFamily(
      "kueue_local_queue_reserving_active_workloads", NAME, NS, RR);
  public final GaugeFamily admittedActiveWorkloads = new GaugeFamily("kueue_admitted_active_workloads", CQ, RR);
  public final GaugeFamily localQueueAdmittedActiveWorkloads = new GaugeFamily(
      "kueue_local_queue_admitted_active_workloads", NAME, NS, RR);
  public final GaugeFamily clusterQueueStatus = new GaugeFamily("kueue_cluster_queue_status", CQ, "status", RR);
  public final GaugeFamily clusterQueueResourceReservation = new GaugeFamily(
      "kueue_cluster_queue_resource_reservation", "cohort", CQ, "flavor", "resource", RR);
  public final GaugeFamily clusterQueueResourceUsage = new GaugeFamily(
      "kueue_cluster_queue_resource_usage", "cohort", CQ, "flavor", "resource", RR);
  public final GaugeFamily clusterQueueNominalQuota = new GaugeFamily(
      "kueue_cluster_queue_nominal_quota", "cohort", CQ, "flavor", "resource", RR);
  public final GaugeFamily clusterQueueBorrowingLimit = new GaugeFamily(
      "kueue_cluster_queue_borrowing_limit", "cohort", CQ, "flavor", "resource", RR);
  public final GaugeFamily clusterQueueLendingLimit = new GaugeFamily(
      "kueue_cluster_queue_lending_limit", "cohort", CQ, "flavor", "resource", RR);
  public final GaugeFamily localQueueResourceReservation = new GaugeFamily(
      "kueue_local_queue_resource_reservation", NAME, NS, "flavor", "resource", RR);
  public final GaugeFamily localQueueResourceUsage = new GaugeFamily(
      "kueue_local_queue_resource_usage", NAME, NS, "flavor", "resource", RR);
  public final GaugeFamily clusterQueueWeightedShare = new GaugeFamily(
      "kueue_cluster_queue_weighted_share", CQ, "cohort", RR);
  public final GaugeFamily cohortWeightedShare = new GaugeFamily("kueue_cohort_weighted_share", "cohort", RR);
  public final GaugeFamily clusterQueueInfo = new GaugeFamily(
      "kueue_cluster_queue_info", CQ, "parent_cohort", "root_cohort", RR);
  public final GaugeFamily cohortInfo = new GaugeFamily("kueue_cohort_info", "cohort", "parent_cohort", "root_cohort", RR);
  public final GaugeFamily cohortSubtreeQuota = new GaugeFamily(
      "kueue_cohort_subtree_quota", "cohort", "flavor", "resource", RR);
  public final GaugeFamily cohortSubtreeResourceReservations = new GaugeFamily(
      "kueue_cohort_subtree_resource_reservations", "cohort", "flavor", "resource", RR);
  public final GaugeFamily cohortSubtreeAdmittedActiveWorkloads = new GaugeFamily(
      "kueue_cohort_subtree_admitted_active_workloads", "cohort", RR);
  public final CounterFamily cohortSubtreeAdmittedWorkloadsTotal = new CounterFamily(
      "kueue_cohort_subtree_admitted_workloads_total", "cohort", PC, RR);
  /** Kueue ReportLocalQueueAdmissionFairSharingUsage: set when the LocalQueue reconciler samples the usage. */
  public final GaugeFamily localQueueAdmissionFairSharingUsage = new GaugeFamily(
      "kueue_local_queue_admission_fair_sharing_usage", NAME, NS, CQ, RR);
  public final HistogramFamily podsReadyToEvictedTime = new HistogramFamily(
      "kueue_pods_ready_to_evicted_time_seconds", kueueExponential(14), CQ, "reason", "underlying_cause", RR);
  public final HistogramFamily workloadEvictionLatency = new HistogramFamily(
      "kueue_workload_eviction_latency_seconds", kueueExponential(14), CQ, "reason", RR);

  // MultiKueue (a manager's model only): remote copies created on, and admissions by, each worker `cluster`
  public final CounterFamily multiKueueWorkloadsDispatchedTotal = new CounterFamily(
      "multikueue_workloads_dispatched_total", CQ, "cluster", RR);
  public final CounterFamily multiKueueWorkloadsAdmittedTotal = new CounterFamily(
      "multikueue_workloads_admitted_total", CQ, "cluster", RR);

  /** Every family, in metrics.go's Register() order then the LocalQueue ones. */
  private List<MetricFamily<?>> families = List.of(admissionAttemptsTotal, admissionAttemptDuration,
      admissionCyclePreemptionSkips, pendingWorkloads, finishedWorkloads, quotaReservedWorkloadsTotal,
      finishedWorkloadsTotal, quotaReservedWaitTime, admittedWorkloadsTotal, admissionWaitTime,
      admissionChecksWaitTime, evictedWorkloadsTotal, evictedWorkloadsOnceTotal, preemptedWorkloadsTotal,
      reservingActiveWorkloads, admittedActiveWorkloads, clusterQueueStatus, clusterQueueResourceReservation,
      clusterQueueResourceUsage, clusterQueueNominalQuota, clusterQueueBorrowingLimit, clusterQueueLendingLimit,
      clusterQueueWeightedShare, cohortWeightedShare, clusterQueueInfo, cohortInfo,
      cohortSubtreeQuota, cohortSubtreeResourceReservations, cohortSubtreeAdmittedActiveWorkloads,
      cohortSubtreeAdmittedWorkloadsTotal, podsReadyToEvictedTime, workloadEvictionLatency, localQueuePendingWorkloads, localQueueFinishedWorkloads,
      localQueueQuotaReservedWorkloadsTotal, localQueueFinishedWorkloadsTotal, localQueueQuotaReservedWaitTime,
      localQueueAdmittedWorkloadsTotal, localQueueAdmissionWaitTime, localQueueAdmissionChecksWaitTime,
      localQueueEvictedWorkloadsTotal, localQueueReservingActiveWorkloads, localQueueAdmittedActiveWorkloads,
      localQueueResourceReservation, localQueueResourceUsage, readyWaitTime, localQueueReadyWaitTime,
      admittedUntilReadyWaitTime, localQueueAdmittedUntilReadyWaitTime, localQueueAdmissionFairSharingUsage);

  private Runnable gaugeRefresher = () -> { };

  /** MultiKueue's manager: its two families join the model (after the others). */
  public void enableMultiKueue() {
    List<MetricFamily<?>> all = new java.util.ArrayList<>(families);
    all.add(multiKueueWorkloadsDispatchedTotal);
    all.add(multiKueueWorkloadsAdmittedTotal);
    families = List.copyOf(all);
  }

  /** Sets the gauges from the engine's state; run before every read. */
  public void gaugeRefresher(Runnable r) {
    this.gaugeRefresher = r;
  }

  public List<MetricFamily<?>> families() {
    return families;
  }

  /** Every family with its gauges set from the engine's state now (what a scrape of Kueue would read). */
  public List<MetricFamily<?>> read() {
    gaugeRefresher.run();
    return families;
  }

  /** A LocalQueue as Kueue's metrics name it: its name and namespace. */
  public record LocalQueueRef(String name, String namespace) {}

  /** Kueue scheduler.schedule: one attempt per cycle that had heads; success when an entry was assumed or evicted. */
  public void admissionAttempt(boolean success, double seconds) {
    String result = success ? SUCCESS : INADMISSIBLE;
    admissionAttemptsTotal.inc(result, STANDALONE);
    admissionAttemptDuration.observe(seconds, result, STANDALONE);
  }

  /** Kueue QuotaReservedWorkload / LocalQueueQuotaReservedWorkload (scheduler recordQuotaReservationMetrics). */
  public void quotaReserved(String cq, LocalQueueRef lq, String priorityClass, double waitSeconds) {
    quotaReservedWorkloadsTotal.inc(cq, priorityClass, STANDALONE);
    quotaReservedWaitTime.observe(waitSeconds, cq, priorityClass, STANDALONE);
    localQueueQuotaReservedWorkloadsTotal.inc(lq.name(), lq.namespace(), priorityClass, STANDALONE);
    localQueueQuotaReservedWaitTime.observe(waitSeconds, lq.name(), lq.namespace(), priorityClass, STANDALONE);
  }

  /**
   * Kueue AdmittedWorkload and, when the workload had admission checks, ReportAdmissionChecksWaitTime
   * ({@code checksWaitSeconds} null: not observed).
   */
  public void admitted(String cq, LocalQueueRef lq, String priorityClass, double waitSeconds,
      Double checksWaitSeconds) {
    admittedWorkloadsTotal.inc(cq, priorityClass, STANDALONE);
    admissionWaitTime.observe(waitSeconds, cq, priorityClass, STANDALONE);
    localQueueAdmittedWorkloadsTotal.inc(lq.name(), lq.namespace(), priorityClass, STANDALONE);
    localQueueAdmissionWaitTime.observe(waitSeconds, lq.name(), lq.namespace(), priorityClass, STANDALONE);
    if (checksWaitSeconds != null) {
      admissionChecksWaitTime.observe(checksWaitSeconds, cq, priorityClass, STANDALONE);
      localQueueAdmissionChecksWaitTime.observe(checksWaitSeconds, lq.name(), lq.namespace(), priorityClass,
          STANDALONE);
    }
  }

  /**
   * Kueue ReadyWaitTime and ReportAdmittedUntilReadyWaitTime (and the LocalQueue ones): the workload's pods
   * became ready for the first time since it was queued (jobframework reconciler, waitForPodsReady only).
   */
  public void ready(String cq, LocalQueueRef lq, String priorityClass, double queuedSeconds, double admittedSeconds) {
    readyWaitTime.observe(queuedSeconds, cq, priorityClass, STANDALONE);
    admittedUntilReadyWaitTime.observe(admittedSeconds, cq, priorityClass, STANDALONE);
    localQueueReadyWaitTime.observe(queuedSeconds, lq.name(), lq.namespace(), priorityClass, STANDALONE);
    localQueueAdmittedUntilReadyWaitTime.observe(admittedSeconds, lq.name(), lq.namespace(), priorityClass,
        STANDALONE);
  }

  /**
   * Kueue workloadevict.Evict: evicted_workloads_total always, _once_total on the first (reason, cause), and
   * pods_ready_to_evicted_time when the workload's pods were ready ({@code podsReadySeconds} null: not).
   */
  public void evicted(String cq, LocalQueueRef lq, String reason, String underlyingCause, String priorityClass,
      boolean firstOfKind, Double podsReadySeconds) {
    if (podsReadySeconds != null) {
      podsReadyToEvictedTime.observe(podsReadySeconds, cq, reason, underlyingCause, STANDALONE);
    }
    evictedWorkloadsTotal.inc(cq, reason, underlyingCause, priorityClass, STANDALONE);
    localQueueEvictedWorkloadsTotal.inc(lq.name(), lq.namespace(), reason, underlyingCause, priorityClass,
        STANDALONE);
    if (firstOfKind) {
      evictedWorkloadsOnceTotal.inc(cq, reason, underlyingCause, priorityClass, STANDALONE);
    }
  }

  /** Kueue ReportWorkloadEvictionLatency: an evicted workload released its quota (back to pending). */
  public void evictionCompleted(String cq, String evictedReason, double seconds) {
    workloadEvictionLatency.observe(Math.max(0, seconds), cq, evictedReason, STANDALONE);
  }

  /** Kueue ReportCohortSubtreeAdmittedWorkload: with every admission, once per cohort above the queue. */
  public void admittedInCohorts(List<String> ancestors, String priorityClass) {
    for (String c : ancestors) {
      cohortSubtreeAdmittedWorkloadsTotal.inc(c, priorityClass, STANDALONE);
    }
  }

  /** Kueue ReportPreemption: per target newly evicted, by the preemptor's ClusterQueue and the target's reason. */
  public void preempted(String preemptingCq, String reason) {
    preemptedWorkloadsTotal.inc(preemptingCq, reason, STANDALONE);
  }

  /** Kueue reportFinishedWorkload: finished_workloads_total (and the LocalQueue one). */
  public void finished(String cq, LocalQueueRef lq, String priorityClass) {
    finishedWorkloadsTotal.inc(cq, priorityClass, STANDALONE);
    localQueueFinishedWorkloadsTotal.inc(lq.name(), lq.namespace(), priorityClass, STANDALONE);
  }

  /**
   * Every series and its value now, named in Prometheus text form (labels sorted by name, a histogram as
   * {@code _bucket{…,le="…"}}, {@code _sum} and {@code _count}).
   */
  public SortedMap<String, Double> snapshot() {
    gaugeRefresher.run();
    SortedMap<String, Double> out = new TreeMap<>();
    for (MetricFamily<?> f : families) {
      f.writeTo(out);
    }
    return Collections.unmodifiableSortedMap(out);
  }
}
