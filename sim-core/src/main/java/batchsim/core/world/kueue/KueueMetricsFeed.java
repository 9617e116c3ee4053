package batchsim.core.world.kueue;

import batchsim.core.kueue.Condition;
import batchsim.core.kueue.FlavorResources;
import batchsim.core.kueue.ConditionType;
import batchsim.core.kueue.KueueEngine;
import batchsim.core.kueue.MetricsView;
import batchsim.core.kueue.Scheduler.CycleOutcome;
import batchsim.core.kueue.Workload;
import batchsim.core.metrics.KueueMetrics;
import batchsim.core.metrics.KueueMetrics.LocalQueueRef;
import batchsim.core.metrics.MetricFamily;
import batchsim.core.model.LocalQueueSpec;
import batchsim.core.model.ResourceSpace;
import batchsim.core.model.SimulationSpec;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.function.LongSupplier;

/**
 * Feeds {@link KueueMetrics} from the adapter: counters and histograms at the events where Kueue records them
 * (durations in virtual seconds), gauges from the engine's state whenever the metrics are read.
 */
final class KueueMetricsFeed {
  private static final String DEACTIVATED_DUE_TO = "DeactivatedDueTo";

  final KueueMetrics metrics = new KueueMetrics();
  private final SimulationSpec spec;
  private final KueueEngine kueue;
  private final MetricsView view;
  private final LongSupplier clock;
  /** (workload, reason, cause) evicted at least once: Kueue's schedulingStats.evictions for _once_total. */
  private final Set<List<String>> evictionKinds = new HashSet<>();
  private final Map<String, Integer> finishedPerCq = new HashMap<>();
  private final Map<String, Integer> finishedPerLq = new HashMap<>();
  private boolean inCycle;
  private boolean entryEvicted;

  KueueMetricsFeed(SimulationSpec spec, KueueEngine kueue, LongSupplier clock) {
    this.spec = spec;
    this.kueue = kueue;
    this.view = new MetricsView(kueue);
    this.clock = clock;
    metrics.gaugeRefresher(this::refreshGauges);
  }

  SortedMap<String, Double> snapshot() {
    return metrics.snapshot();
  }

  // ------------------------------------------------------------------ events

  void cycleStarts() {
    inCycle = true;
    entryEvicted = false;
  }

  /**
   * Kueue scheduler.schedule records one admission attempt per cycle that had heads: success when an entry
   * was admitted or evicted (a TAS second pass without replacement). The attempt lasts the configured cycle
   * latency in virtual time (0 s by default).
   */
  void cycleEnded(CycleOutcome o) {
    inCycle = false;
    if (o.heads() > 0) {
      metrics.admissionAttempt(o.admitted() > 0 || entryEvicted, spec.kueue().cycleLatencyMs() / 1000.0);
    }
    // Kueue reportSkippedPreemptions sets only the ClusterQueues that skipped in this cycle; others keep theirs.
    for (Map.Entry<String, Integer> e : kueue.skippedPreemptions().entrySet()) {
      metrics.admissionCyclePreemptionSkips.set(e.getValue(), e.getKey(), KueueMetrics.STANDALONE);
    }
  }

  /** Quota reserved, admission checks pending (Kueue scheduler recordQuotaReservationMetrics). */
  void quotaReserved(Workload w) {
    if (WorkloadRuns.restoredAtStart(w)) {
      return; // a reservation made before the run (imported live state) is not in the run's metrics
    }
    metrics.quotaReserved(w.clusterQueueName(), localQueue(w), priorityClass(w), queuedWaitSeconds(w));
  }

  /**
   * Admitted. Without admission checks the scheduler reserves and admits at once and records both; after
   * checks the workload controller records the admission and the time since QuotaReserved.
   */
  void admitted(Workload w) {
    if (WorkloadRuns.restoredAtStart(w)) {
      return;
    }
    double wait = queuedWaitSeconds(w);
    if (kueue.checkNames(w).isEmpty()) {
      metrics.quotaReserved(w.clusterQueueName(), localQueue(w), priorityClass(w), wait);
      metrics.admitted(w.clusterQueueName(), localQueue(w), priorityClass(w), wait, null);
    } else {
      Condition reserved = w.condition(ConditionType.QUOTA_RESERVED);
      double checksWait = seconds(clock.getAsLong() - reserved.timeMs());
      metrics.admitted(w.clusterQueueName(), localQueue(w), priorityClass(w), wait, checksWait);
    }
    metrics.admittedInCohorts(view.ancestors(w.clusterQueueName()), priorityClass(w));
  }

  /**
   * PodsReady turned True with reason Started (not Recovered): Kueue's job reconciler reports the time since the
   * workload was queued and since it was admitted (only with waitForPodsReady, which sets the condition).
   */
  void podsReady(Workload w) {
    Condition ready = w.condition(ConditionType.PODS_READY);
    Condition admitted = w.condition(ConditionType.ADMITTED);
    if (ready != null && ready.status() && "Started".equals(ready.reason()) && admitted != null) {
      metrics.ready(w.clusterQueueName(), localQueue(w), priorityClass(w), queuedWaitSeconds(w),
          seconds(ready.timeMs() - admitted.timeMs()));
    }
  }

  /** Kueue workloadevict.Evict and, for a preemption, ReportPreemption. */
  void evicted(Workload w) {
    String reason = w.evictionReason();
    String cause = "";
    if (reason.startsWith(DEACTIVATED_DUE_TO)) { // Kueue: reason Deactivated, the cause in its own label
      cause = reason.substring(DEACTIVATED_DUE_TO.length());
      reason = "Deactivated";
    } else if (reason.equals("PodsReadyTimeout")) { // Kueue admittedNotReadyWorkload: which timeout expired
      Condition podsReady = w.condition(ConditionType.PODS_READY);
      cause = podsReady != null && podsReady.reason().equals("WaitForRecovery") ? "WaitForRecovery" : "WaitForStart";
    }
    boolean first = evictionKinds.add(List.of(w.id(), reason, cause));
    Condition ready = w.condition(ConditionType.PODS_READY);
    Double readySeconds = ready != null && ready.status() ? seconds(clock.getAsLong() - ready.timeMs()) : null;
    metrics.evicted(w.clusterQueueName(), localQueue(w), reason, cause, priorityClass(w), first, readySeconds);
    if (w.preemptionReason() != null) {
      metrics.preempted(w.preemptingClusterQueue(), w.preemptionReason());
    } else if (inCycle) {
      entryEvicted = true; // only an entry of the cycle itself is evicted without a preemptor
    }
  }

  /** Kueue ReportWorkloadEvictionLatency: quota released after an eviction, by the Evicted condition's reason. */
  void evictionCompleting(Workload w) {
    Condition evicted = w.condition(ConditionType.EVICTED);
    if (evicted != null && evicted.status()) {
      metrics.evictionCompleted(w.clusterQueueName(), evicted.reason(), seconds(clock.getAsLong() - evicted.timeMs()));
    }
  }

  /** Kueue reportAfsUsage: the LocalQueue reconciler sets the usage gauge of each LocalQueue it sampled. */
  void usageSampled(List<String> localQueues) {
    for (String lq : localQueues) {
      String cq = spec.localQueues().stream().filter(l -> l.name().equals(lq)).map(LocalQueueSpec::clusterQueue)
          .findFirst().orElse("");
      LocalQueueRef ref = localQueue(lq);
      metrics.localQueueAdmissionFairSharingUsage.set(kueue.admissionFairSharing().usage(lq), ref.name(), ref.namespace(), cq,
          KueueMetrics.STANDALONE);
    }
  }

  /** Kueue reportFinishedWorkload, and the finished_workloads gauges (finished workloads still present). */
  void finished(Workload w) {
    LocalQueueRef lq = localQueue(w);
    metrics.finished(w.clusterQueueName(), lq, priorityClass(w));
    finishedPerCq.merge(w.clusterQueueName(), 1, Integer::sum);
    finishedPerLq.merge(w.spec().localQueue(), 1, Integer::sum);
  }

  // ------------------------------------------------------------------ gauges

  private void refreshGauges() {
    for (MetricFamily<?> f : List.of(metrics.pendingWorkloads, metrics.localQueuePendingWorkloads,
        metrics.finishedWorkloads, metrics.localQueueFinishedWorkloads, metrics.reservingActiveWorkloads,
        metrics.localQueueReservingActiveWorkloads, metrics.admittedActiveWorkloads,
        metrics.localQueueAdmittedActiveWorkloads, metrics.clusterQueueStatus, metrics.clusterQueueInfo,
        metrics.cohortInfo, metrics.cohortSubtreeAdmittedActiveWorkloads)) {
      f.clear();
    }
    new ResourceGauges(metrics, view, kueue.index(), spec.localQueues()).refresh(kueue.reservedWorkloads());
    Map<String, int[]> lqCounts = new HashMap<>(); // active, inadmissible, reserving, admitted
    refreshInfo();
    for (String cq : view.clusterQueues()) {
      for (String status : List.of("pending", "active", "terminating")) {
        metrics.clusterQueueStatus.set(status.equals(view.status(cq)) ? 1 : 0, cq, status, KueueMetrics.STANDALONE);
      }
      // Kueue reportCQPendingWorkloads: an inactive queue reports every pending workload as inadmissible.
      boolean active = view.active(cq);
      int[] pending = {0, 0}; // active, inadmissible
      kueue.forEachPending(cq, (w, inHeap) -> {
        int i = active && inHeap ? 0 : 1;
        pending[i]++;
        lqCounts.computeIfAbsent(w.spec().localQueue(), k -> new int[4])[i]++;
      });
      metrics.pendingWorkloads.set(pending[0], cq, KueueMetrics.ACTIVE, KueueMetrics.STANDALONE);
      metrics.pendingWorkloads.set(pending[1], cq, KueueMetrics.INADMISSIBLE, KueueMetrics.STANDALONE);
      metrics.finishedWorkloads.set(finishedPerCq.getOrDefault(cq, 0), cq, KueueMetrics.STANDALONE);
    }
    Map<String, int[]> cqCounts = new HashMap<>(); // reserving, admitted
    for (Workload w : kueue.reservedWorkloads()) {
      boolean admitted = isAdmitted(w);
      int[] c = cqCounts.computeIfAbsent(w.clusterQueueName(), k -> new int[2]);
      int[] l = lqCounts.computeIfAbsent(w.spec().localQueue(), k -> new int[4]);
      c[0]++;
      l[2]++;
      if (admitted) {
        c[1]++;
        l[3]++;
      }
    }
    Map<String, Integer> cohortAdmitted = new HashMap<>();
    for (String cq : view.clusterQueues()) {
      int[] c = cqCounts.getOrDefault(cq, new int[2]);
      for (String cohort : view.ancestors(cq)) {
        cohortAdmitted.merge(cohort, c[1], Integer::sum);
      }
      metrics.reservingActiveWorkloads.set(c[0], cq, KueueMetrics.STANDALONE);
      metrics.admittedActiveWorkloads.set(c[1], cq, KueueMetrics.STANDALONE);
    }
    for (String cohort : view.cohorts()) { // Kueue reportActiveWorkloads: per ancestor admittedWorkloadsCount
      metrics.cohortSubtreeAdmittedActiveWorkloads.set(cohortAdmitted.getOrDefault(cohort, 0), cohort,
          KueueMetrics.STANDALONE);
    }
    for (LocalQueueSpec lq : spec.localQueues()) {
      int[] c = lqCounts.getOrDefault(lq.name(), new int[4]);
      LocalQueueRef ref = localQueue(lq.name());
      metrics.localQueuePendingWorkloads.set(c[0], ref.name(), ref.namespace(), KueueMetrics.ACTIVE,
          KueueMetrics.STANDALONE);
      metrics.localQueuePendingWorkloads.set(c[1], ref.name(), ref.namespace(), KueueMetrics.INADMISSIBLE,
          KueueMetrics.STANDALONE);
      metrics.localQueueReservingActiveWorkloads.set(c[2], ref.name(), ref.namespace(), KueueMetrics.STANDALONE);
      metrics.localQueueAdmittedActiveWorkloads.set(c[3], ref.name(), ref.namespace(), KueueMetrics.STANDALONE);
      metrics.localQueueFinishedWorkloads.set(finishedPerLq.getOrDefault(lq.name(), 0), ref.name(),
          ref.namespace(), KueueMetrics.STANDALONE);
    }
  }

  /** Kueue recordCQInfo / recordCohortInfo: 1, labelled by the parent and root cohort ("" when none). */
  private void refreshInfo() {
    for (String cq : view.clusterQueues()) {
      List<String> up = view.ancestors(cq);
      metrics.clusterQueueInfo.set(1, cq, up.isEmpty() ? "" : up.get(0), up.isEmpty() ? "" : up.get(up.size() - 1),
          KueueMetrics.STANDALONE);
    }
    for (String cohort : view.cohorts()) {
      List<String> up = view.ancestors(cohort);
      metrics.cohortInfo.set(1, cohort, up.isEmpty() ? "" : up.get(0), up.isEmpty() ? cohort : up.get(up.size() - 1),
          KueueMetrics.STANDALONE);
    }
  }

  static boolean isAdmitted(Workload w) {
    Condition c = w.condition(ConditionType.ADMITTED);
    return c != null && c.status();
  }

  // ------------------------------------------------------------------ labels and times

  /** Kueue QueuedWaitTime: since the last Requeued transition, else since creation. */
  private double queuedWaitSeconds(Workload w) {
    Condition requeued = w.condition(ConditionType.REQUEUED);
    long since = requeued != null ? requeued.timeMs() : w.createdMs();
    return seconds(clock.getAsLong() - since);
  }

  private static double seconds(long ms) {
    return ms / 1000.0;
  }

  /** Kueue PriorityClassName: the workload's priority class, "" when it has none. */
  private static String priorityClass(Workload w) {
    String pc = w.spec().priorityClass();
    return pc == null ? "" : pc;
  }

  private static LocalQueueRef localQueue(Workload w) {
    return localQueue(w.spec().localQueue());
  }

  /** "namespace/name" names a LocalQueue in its namespace; a bare name is in "default". */
  static LocalQueueRef localQueue(String name) {
    int slash = name.indexOf('/');
    return slash < 0 ? new LocalQueueRef(name, "default")
        : new LocalQueueRef(name.substring(slash + 1), name.substring(0, slash));
  }

  /** Base units per Kubernetes unit: milli-cores per core; bytes and counts as they are. */
  private static double scale(String resource) {
    return ResourceSpace.CPU.equals(resource) ? 1000.0 : 1.0;
  }

  /** The ClusterQueue resource gauges (Kueue reportResourceMetrics) and the fair-sharing weighted shares. */
  private record ResourceGauges(KueueMetrics m, MetricsView view, FlavorResources index,
      List<LocalQueueSpec> localQueues) {
    void refresh(List<Workload> holding) {
      for (MetricFamily<?> f : List.of(m.clusterQueueResourceReservation, m.clusterQueueResourceUsage,
          m.clusterQueueNominalQuota, m.clusterQueueBorrowingLimit, m.clusterQueueLendingLimit,
          m.clusterQueueWeightedShare, m.cohortWeightedShare, m.localQueueResourceReservation,
          m.localQueueResourceUsage, m.cohortSubtreeQuota, m.cohortSubtreeResourceReservations)) {
        f.clear();
      }
      for (String cq : view.clusterQueues()) {
        String cohort = view.cohort(cq);
        for (int fr : view.quotaFrs(cq)) {
          String resource = index.resourceName(fr);
          String[] labels = {cohort, cq, index.flavorName(index.flavorOf(fr)), resource, KueueMetrics.STANDALONE};
          double scale = scale(resource);
          long admittedUsage = 0;
          for (Workload w : holding) {
            if (cq.equals(w.clusterQueueName()) && isAdmitted(w)) {
              admittedUsage += view.usage(w, fr);
            }
          }
          m.clusterQueueNominalQuota.set(view.nominal(cq, fr) / scale, labels);
          m.clusterQueueBorrowingLimit.set(view.borrowingLimit(cq, fr) / scale, labels);
          m.clusterQueueLendingLimit.set(view.lendingLimit(cq, fr) / scale, labels);
          m.clusterQueueResourceReservation.set(view.reservation(cq, fr) / scale, labels);
          m.clusterQueueResourceUsage.set(admittedUsage / scale, labels);
        }
        if (view.fairSharing()) {
          double share = view.weightedShare(cq);
          m.clusterQueueWeightedShare.set(Double.isInfinite(share) ? Double.NaN : share, cq, cohort,
              KueueMetrics.STANDALONE); // Kueue reportWeightedShare: +Inf is reported as NaN
        }
      }
      // Kueue LocalQueue.reportResourceMetrics: per flavor/resource of its ClusterQueue's quotas.
      for (LocalQueueSpec lq : localQueues) {
        if (!view.clusterQueues().contains(lq.clusterQueue())) {
          continue;
        }
        LocalQueueRef ref = localQueue(lq.name());
        for (int fr : view.quotaFrs(lq.clusterQueue())) {
          long reserved = 0;
          long admitted = 0;
          for (Workload w : holding) {
            if (lq.name().equals(w.spec().localQueue()) && lq.clusterQueue().equals(w.clusterQueueName())) {
              reserved += view.usage(w, fr);
              admitted += isAdmitted(w) ? view.usage(w, fr) : 0;
            }
          }
          String resource = index.resourceName(fr);
          double scale = scale(resource);
          String[] labels = {ref.name(), ref.namespace(), index.flavorName(index.flavorOf(fr)), resource,
              KueueMetrics.STANDALONE};
          m.localQueueResourceReservation.set(reserved / scale, labels);
          m.localQueueResourceUsage.set(admitted / scale, labels);
        }
      }
      // Kueue applyCohortMetricPoint: a cohort's subtree quota and reservations, only where positive.
      for (String cohort : view.cohorts()) {
        for (int fr = 0; fr < index.size(); fr++) {
          String resource = index.resourceName(fr);
          String[] labels = {cohort, index.flavorName(index.flavorOf(fr)), resource, KueueMetrics.STANDALONE};
          long quota = view.cohortSubtreeQuota(cohort, fr);
          long reserved = view.cohortSubtreeReservation(cohort, fr);
          if (quota > 0) {
            m.cohortSubtreeQuota.set(quota / scale(resource), labels);
          }
          if (reserved > 0) {
            m.cohortSubtreeResourceReservations.set(reserved / scale(resource), labels);
          }
        }
      }
      if (view.fairSharing()) {
        for (String cohort : view.cohorts()) {
          m.cohortWeightedShare.set(view.cohortWeightedShare(cohort), cohort, KueueMetrics.STANDALONE);
        }
      }
    }
  }
}
