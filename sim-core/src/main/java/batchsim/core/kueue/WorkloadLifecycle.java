package batchsim.core.kueue;

import batchsim.core.model.Eviction;
import batchsim.core.model.RequeuingTimestamp;
import batchsim.core.model.WorkloadSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * The workload transitions Kueue's workload and job controllers perform: creation and queueing, quota
 * reservation, running, finishing, eviction and requeueing after eviction (with the requeuing backoffs),
 * deletion, and the queue-order timestamp a requeued workload takes.
 */
final class WorkloadLifecycle {
  private final KueueEngine engine;
  /** Operations the engine refused because they touched a deleted queue or a gone workload. */
  private final List<String> operationViolations = new ArrayList<>();
  boolean keepHistory;

  WorkloadLifecycle(KueueEngine engine) {
    this.engine = engine;
  }

  /**
   * Creates a workload in a ClusterQueue and queues it.
   *
   * @param uid Kueue UID for tie-breaks (null in simulations: arrival order breaks ties)
   */
  Workload submit(WorkloadSpec spec, String clusterQueue, int priority, long seq, String uid) {
    ClusterQueue q = engine.tree.queuesByName.get(clusterQueue);
    if (q == null) {
      throw new IllegalArgumentException("unknown ClusterQueue " + clusterQueue);
    }
    Workload w = create(spec, q, priority, seq, uid);
    w.queueTs = w.createdMs;
    enqueue(w, w.createdMs);
    return w;
  }

  /**
   * A workload pending after an eviction before the run (an imported cluster's Workload): its Evicted,
   * Preempted, Requeued and QuotaReserved conditions and requeue state as the eviction left them (see
   * {@link #evictionComplete}), queued by Kueue's order timestamp; a PodsReadyTimeout or AdmissionCheck
   * eviction waits out what is left of its backoff.
   */
  Workload restoreEvicted(WorkloadSpec spec, String clusterQueue, int priority, long seq, Eviction e) {
    long now = engine.now();
    Workload w = create(spec, engine.tree.queuesByName.get(clusterQueue), priority, seq, null);
    long at = e.evictedAtMs();
    String message = "Evicted before the run started (imported with reason " + e.reason() + ")";
    w.evictionReason = e.reason();
    w.evictedAtMs = at;
    w.setCondition(ConditionType.EVICTED, true, e.reason(), message, at);
    if (e.preemptionReason() != null) {
      w.preemptionReason = e.preemptionReason();
      w.setCondition(ConditionType.PREEMPTED, true, e.preemptionReason(), message, at);
    }
    boolean requeued = "Preempted".equals(e.reason()) || "NodeFailures".equals(e.reason());
    w.setCondition(ConditionType.REQUEUED, requeued, e.reason(), message, at);
    w.setCondition(ConditionType.QUOTA_RESERVED, false, "PendingEvaluation", message, at);
    w.podsReadyRequeues = e.requeueCount();
    w.queueTs = queueOrderTimestamp(w);
    boolean backoff = "PodsReadyTimeout".equals(e.reason()) || "AdmissionCheck".equals(e.reason());
    engine.stateCheck.touch(w);
    if (backoff && e.requeueAtMs() != Eviction.NO_REQUEUE_AT && e.requeueAtMs() > now) {
      w.requeueAtMs = e.requeueAtMs();
      w.requeueHeld = true;
      w.cq.pushInadmissible(w);
      engine.host.scheduleBackoffExpiry(w, w.requeueAtMs);
    } else {
      enqueue(w, now);
    }
    return w;
  }

  private Workload create(WorkloadSpec spec, ClusterQueue q, int priority, long seq, String uid) {
    Workload w = new Workload(spec, seq, uid, q, priority, spec.createdMs());
    if (keepHistory) {
      w.history = new ArrayList<>();
    }
    w.waitTrack = engine.waiting.created(w);
    return w;
  }

  /**
   * Queues a pending workload in its ClusterQueue (held aside when its LocalQueue is held; parked while a
   * requeuing backoff runs). Returns whether its queues block it.
   */
  boolean enqueue(Workload w, long at) {
    ClusterQueue q = w.cq;
    if (engine.queueLifecycle.isHeld(w.spec.localQueue())) {
      engine.queueLifecycle.hold(w);
      return true;
    }
    if (ClusterQueue.backoffExpired(w, at)) {
      q.pushActive(w);
    } else {
      q.pushInadmissible(w);
    }
    engine.stateCheck.touch(w);
    if (!q.active) {
      // Kueue getQueueBlocker: the workload controller words the condition of a workload its queue holds.
      w.setPending(q.gone ? "Misconfigured" : "Suspended", q.inactiveMessage);
      w.setCondition(ConditionType.QUOTA_RESERVED, false, w.pendingReason(), w.pendingMessage(), at);
      return true;
    }
    return false;
  }

  /** Test/conformance setup: the workload already holds quota with the given flavors and counts. */
  Workload assumeAdmitted(WorkloadSpec spec, String clusterQueue, int priority, long seq, String uid,
      int[][] flavors, long reservedAtMs) {
    return assumeAdmitted(spec, clusterQueue, priority, seq, uid, flavors,
        spec.podSets().stream().mapToInt(p -> p.count()).toArray(), reservedAtMs);
  }

  Workload assumeAdmitted(WorkloadSpec spec, String clusterQueue, int priority, long seq, String uid,
      int[][] flavors, int[] counts, long reservedAtMs) {
    ClusterQueue q = engine.tree.queuesByName.get(clusterQueue);
    Workload w = create(spec, q, priority, seq, uid);
    java.util.TreeMap<Integer, Long> usage = new java.util.TreeMap<>();
    for (int i = 0; i < counts.length; i++) {
      long[] req = FlavorAssigner.requests(spec.podSets().get(i), counts[i], q, engine.index.resources().size());
      for (int r = 0; r < req.length; r++) {
        if (req[r] > 0 && flavors[i][r] >= 0) {
          usage.merge(engine.index.fr(flavors[i][r], r), req[r], Long::sum);
        }
      }
    }
    reserve(w, flavors, counts, FrAmounts.of(usage), reservedAtMs);
    return w;
  }

  void reserve(Workload w, int[][] flavors, int[] counts, FrAmounts usage, long at) {
    ClusterQueue q = w.cq;
    if (q.deleted) {
      operationViolations.add("workload " + w.id() + " admitted into deleted ClusterQueue " + q.name);
    }
    engine.stateCheck.touch(w);
    q.forget(w);
    w.flavors = flavors;
    w.counts = counts;
    w.usage = usage;
    q.addUsage(usage);
    q.admitted.add(w);
    w.state = WorkloadState.RESERVED;
    w.reservedAtMs = at;
    if (w.firstReservedAtMs == Workload.UNSET_TIME) {
      w.firstReservedAtMs = at;
    }
    w.admittedAtMs = at;
    w.lastAssignment = null;
    w.setPending("", "");
    w.setCondition(ConditionType.QUOTA_RESERVED, true, "QuotaReserved",
        "Quota reserved in ClusterQueue " + q.name, at);
    // Kueue SetQuotaReservation (pkg/workload/workload.go) resets active Evicted and Preempted on every
    // reservation, with or without admission checks.
    resetActiveCondition(w, ConditionType.EVICTED, at);
    resetActiveCondition(w, ConditionType.PREEMPTED, at);
    w.checks.clear();
    for (String c : engine.admissionChecks.checksFor(q, w)) {
      w.checks.put(c, CheckState.PENDING);
    }
    if (!w.checks.isEmpty()) {
      // Kueue: Admitted waits until every admission check of the ClusterQueue is Ready.
      w.admittedAtMs = Workload.UNSET_TIME;
      w.setCondition(ConditionType.ADMITTED, false, "UnsatisfiedAdmissionChecks",
          "The workload has not all checks ready", at);
      engine.recorder.event(w, "QuotaReserved", "Normal");
      return;
    }
    // No admission checks: Admitted follows QuotaReserved in the same patch.
    w.setCondition(ConditionType.ADMITTED, true, "Admitted",
        "The workload is admitted", at);
    engine.recorder.event(w, "QuotaReserved", "Normal");
    engine.recorder.event(w, "Admitted", "Normal");
  }

  /** Kueue resetActiveCondition: a True condition turns False, reason QuotaReserved, "Previously: <message>". */
  private static void resetActiveCondition(Workload w, ConditionType t, long at) {
    Condition prev = w.conditions.get(t);
    if (prev != null && prev.status()) {
      w.setCondition(t, false, "QuotaReserved", Condition.truncate("Previously: " + prev.message()), at);
    }
  }

  /** All pods are up: PodsReady=True and the workload runs. */
  void markRunning(Workload w) {
    markRunning(w, engine.now());
  }

  /** Running since {@code now} (a restored workload's pods started before the run). */
  void markRunning(Workload w, long now) {
    engine.stateCheck.touch(w);
    w.state = WorkloadState.RUNNING;
    w.startedAtMs = now;
    // Kueue generatePodsReadyCondition (jobframework/reconciler.go): Recovered after a WaitForRecovery.
    Condition prev = w.conditions.get(ConditionType.PODS_READY);
    boolean recovered = prev != null && ("WaitForRecovery".equals(prev.reason()) || "Recovered".equals(prev.reason()));
    w.setCondition(ConditionType.PODS_READY, true, recovered ? "Recovered" : "Started",
        "All pods reached readiness and the workload is running", now);
  }

  /** The workload completed: release its quota and retry parked workloads in its cohort tree. */
  void finish(Workload w) {
    finish(w, "Succeeded", "Job finished successfully");
  }

  /**
   * The job ended (Kueue jobframework reconciler, "handle job is finished": Finished=True with reason Succeeded
   * or Failed and the job's message), holding quota or not: it leaves its queue or releases its quota.
   */
  void finish(Workload w, String reason, String message) {
    long now = engine.now();
    requireLive(w, "finish");
    engine.stateCheck.touch(w);
    if (w.holdsQuota()) {
      release(w);
    } else {
      w.cq.forget(w);
      engine.queueLifecycle.release(w);
    }
    w.state = WorkloadState.FINISHED;
    w.finishedAtMs = now;
    dropAfsPenalty(w);
    w.setCondition(ConditionType.FINISHED, true, reason, message, now);
    engine.requeues.notifyRequeue(w.cq);
    engine.host.onWorkloadEnded(w);
  }

  void release(Workload w) {
    w.cq.removeUsage(w.usage);
    w.cq.admitted.remove(w);
    engine.tas.release(w); // [TAS] its per-domain usage goes with its quota
    engine.queueObjects.released(w.cq);
  }

  /** Removes a workload's quota and TAS usage from the live state (a preemption or fits simulation). */
  void removeUsage(Workload w) {
    w.cq.removeUsage(w.usage);
    engine.tas.admissions.workloadUsage(w, -1);
  }

  /** Undoes {@link #removeUsage}. */
  void addUsage(Workload w) {
    w.cq.addUsage(w.usage);
    engine.tas.admissions.workloadUsage(w, +1);
  }

  /** Marks a workload Evicted (Kueue workloadevict.Evict); it keeps its quota until its pods are gone. */
  void evict(Workload w, String reason, String preemptionReason, String message) {
    long now = engine.now();
    engine.tas.secondPass.forget(w); // [TAS] Evicted workloads never take a second pass
    requireLive(w, "evict");
    engine.stateCheck.touch(w);
    w.state = WorkloadState.EVICTING;
    w.evictionReason = reason;
    w.evictedAtMs = now;
    w.evictions++;
    w.setCondition(ConditionType.EVICTED, true, reason, Condition.truncate(message), now);
    // Kueue workloadevict.Evict → reportEvictedWorkload records "EvictedDueTo<reason>" on every eviction.
    engine.recorder.event(w, "EvictedDueTo" + reason, "Normal");
    w.preemptionReason = preemptionReason;
    if (preemptionReason != null) {
      w.preemptions++;
      w.setCondition(ConditionType.PREEMPTED, true, preemptionReason, Condition.truncate(message), now);
      engine.recorder.event(w, "Preempted", "Normal");
    }
    engine.host.onEvicted(w);
  }

  /**
   * The evicted workload's pods are gone: Kueue's job reconciler (jobframework/reconciler.go, "handle
   * eviction") sets Requeued (True only for Preempted and NodeFailures) with the Evicted reason and message,
   * and clears the reservation with reason PendingEvaluation and the same message.
   */
  void evictionComplete(Workload w) {
    long now = engine.now();
    engine.stateCheck.touch(w);
    release(w);
    w.state = WorkloadState.PENDING;
    w.flavors = null;
    w.counts = null;
    w.usage = FrAmounts.EMPTY;
    w.startedAtMs = Workload.UNSET_TIME;
    String reason = w.evictionReason;
    String message = w.conditions.get(ConditionType.EVICTED).message();
    boolean requeued = "Preempted".equals(reason) || "NodeFailures".equals(reason);
    w.setCondition(ConditionType.REQUEUED, requeued, reason, message, now);
    w.setCondition(ConditionType.QUOTA_RESERVED, false, "PendingEvaluation", message, now);
    w.setCondition(ConditionType.ADMITTED, false, "NoReservation", "The workload has no reservation", now);
    w.conditions.remove(ConditionType.PODS_READY);
    w.queueTs = queueOrderTimestamp(w);
    requeueAfterEviction(w, now);
    engine.requeues.notifyRequeue(w.cq);
  }

  /**
   * Where an evicted workload goes once its pods are gone. PodsReadyTimeout and AdmissionCheck hold it
   * (Requeued=False) until requeueState.requeueAt, set at the eviction; a deactivated workload stays out
   * (spec.active=false); ClusterQueueStopped and LocalQueueStopped wait for the queue to restart.
   */
  private void requeueAfterEviction(Workload w, long now) {
    String reason = w.evictionReason;
    w.checks.clear(); // Kueue resets the checks to Pending on eviction; a new reservation lists them again
    if (reason.startsWith("Deactivated") || w.inactive) {
      // spec.active=false: Kueue's workload controller words an inactive workload's QuotaReserved=False.
      w.state = WorkloadState.DEACTIVATED;
      dropAfsPenalty(w);
      w.setPending(reason, w.conditions.get(ConditionType.EVICTED).message());
      w.setCondition(ConditionType.QUOTA_RESERVED, false, "Deactivated", "The workload is deactivated", now);
      return;
    }
    if ("PodsReadyTimeout".equals(reason) || "AdmissionCheck".equals(reason)) {
      w.requeueHeld = true;
      w.cq.pushInadmissible(w);
      if (now < w.requeueAtMs) {
        engine.host.scheduleBackoffExpiry(w, w.requeueAtMs);
      } else {
        backoffFinished(w); // the backoff ran out while the pods terminated
      }
      return;
    }
    boolean stopped = "ClusterQueueStopped".equals(reason) || "LocalQueueStopped".equals(reason);
    if (engine.queueLifecycle.isHeld(w.spec.localQueue())) {
      w.requeueHeld = stopped;
      engine.queueLifecycle.hold(w);
      return;
    }
    if ("ClusterQueueStopped".equals(reason) && !w.cq.active) {
      w.requeueHeld = true;
      w.cq.pushInadmissible(w);
      return;
    }
    w.cq.pushActive(w);
  }

  /** The requeuing backoff ended: Requeued=True (BackoffFinished) and the workload competes again. */
  void backoffFinished(Workload w) {
    if (w.state != WorkloadState.PENDING || !w.requeueHeld || engine.now() < w.requeueAtMs) {
      return;
    }
    w.requeueHeld = false;
    w.requeueAtMs = Workload.UNSET_TIME; // Kueue clears requeueState.requeueAt once the backoff elapsed
    w.setCondition(ConditionType.REQUEUED, true, "BackoffFinished", "The workload backoff was finished",
        engine.now());
    if (w.inadmissible()) {
      w.cq.pushActive(w);
    }
    engine.stateCheck.touch(w);
  }

  /** A pod of a running workload failed: PodsReady=False until replacements run (waitForPodsReady recovery). */
  void podsNotReady(Workload w) {
    requireLive(w, "podsNotReady");
    if (w.state == WorkloadState.RUNNING) {
      w.state = WorkloadState.RESERVED;
      w.startedAtMs = Workload.UNSET_TIME;
      w.setCondition(ConditionType.PODS_READY, false, "WaitForRecovery",
          "At least one pod has failed, waiting for recovery", engine.now());
      engine.stateCheck.touch(w);
    }
  }

  /**
   * waitForPodsReady: the workload's pods were not ready in time (Kueue reconcileNotReadyTimeout). Past
   * backoffLimitCount it is deactivated (DeactivationTarget RequeuingLimitExceeded, then evicted as
   * DeactivatedDueToRequeuingLimitExceeded); otherwise evicted with PodsReadyTimeout, and UpdateRequeueState
   * counts the requeue and sets requeueAt from this moment.
   */
  void podsReadyTimeout(Workload w) {
    if (w.state != WorkloadState.RESERVED) {
      return;
    }
    var wfpr = engine.config.waitForPodsReady();
    if (wfpr.backoffLimitCount() >= 0 && w.podsReadyRequeues + 1 > wfpr.backoffLimitCount()) {
      w.podsReadyRequeues = 0; // Kueue clears requeueState on deactivation
      w.requeueAtMs = Workload.UNSET_TIME;
      evict(w, "DeactivatedDueToRequeuingLimitExceeded", null,
          "The workload is deactivated due to exceeding the maximum number of re-queuing retries");
      return;
    }
    w.podsReadyRequeues++;
    w.requeueAtMs = engine.now() + Backoff.exponential(wfpr.backoffBaseMs(), wfpr.backoffMaxMs(), w.podsReadyRequeues);
    // Kueue formats the reconcile request (namespace/name) into the message; a workload without a namespace
    // of its own lives in its LocalQueue's.
    String lq = w.spec.localQueue();
    String key = w.id().contains("/") ? w.id()
        : (lq.contains("/") ? lq.substring(0, lq.indexOf('/')) : "default") + "/" + w.id();
    evict(w, "PodsReadyTimeout", null, "Exceeded the PodsReady timeout " + key);
  }

  /** Whether waitForPodsReady.blockAdmission holds new admissions: a workload holding quota is not PodsReady. */
  boolean admissionBlockedByPodsReady() {
    var wfpr = engine.config.waitForPodsReady();
    if (!wfpr.enable() || !wfpr.blockAdmission()) {
      return false;
    }
    for (ClusterQueue q : engine.tree.queues) {
      for (Workload a : q.admitted) {
        Condition c = a.conditions.get(ConditionType.PODS_READY);
        if (c == null || !c.status()) {
          return true;
        }
      }
    }
    return false;
  }

  /** The owner deleted the workload: it leaves its queue, or releases its quota. */
  void delete(Workload w) {
    if (!requireLive(w, "delete")) {
      return;
    }
    if (w.holdsQuota()) {
      release(w);
    } else {
      w.cq.forget(w);
      engine.queueLifecycle.release(w);
    }
    w.state = WorkloadState.DELETED;
    w.finishedAtMs = engine.now();
    engine.waiting.ended(w, w.finishedAtMs);
    dropAfsPenalty(w);
    engine.stateCheck.touch(w);
    engine.requeues.notifyRequeue(w.cq);
    engine.host.onWorkloadEnded(w);
  }

  /** Kueue: a penalty its workload can no longer settle (finished, deleted, inactive without quota) is dropped. */
  void dropAfsPenalty(Workload w) {
    if (engine.afs != null) {
      engine.afs.dropPenalty(w, w.spec.localQueue());
    }
  }

  /** Records an operation on a workload that is gone; returns whether the workload is live. */
  private boolean requireLive(Workload w, String op) {
    if (w.state == WorkloadState.FINISHED || w.state == WorkloadState.DELETED || w.state == WorkloadState.REJECTED
        || w.state == WorkloadState.DEACTIVATED) {
      operationViolations.add(op + " on " + w.state + " workload " + w.id());
      return false;
    }
    return true;
  }

  /** Violations of "no operation on a deleted queue or workload" since the last call. */
  List<String> takeOperationViolations() {
    List<String> out = new ArrayList<>(operationViolations);
    operationViolations.clear();
    return out;
  }

  /**
   * Kueue Ordering.GetQueueOrderTimestamp (pkg/workload/workload.go): the Evicted time after a PodsReadyTimeout
   * eviction (only with requeuingStrategy.timestamp = Eviction) or an AdmissionCheck eviction; with
   * PrioritySortingWithinCohort off, the Preempted time + 1 ms after InCohortReclaimWhileBorrowing; else the
   * creation time. The times are the conditions' last transition times.
   */
  long queueOrderTimestamp(Workload w) {
    Condition evicted = w.conditions.get(ConditionType.EVICTED);
    if (evicted != null && evicted.status()) {
      if (engine.config.podsReadyRequeuingTimestamp() == RequeuingTimestamp.EVICTION
          && "PodsReadyTimeout".equals(evicted.reason())) {
        return evicted.timeMs();
      }
      if ("AdmissionCheck".equals(evicted.reason())) {
        return evicted.timeMs();
      }
    }
    if (!engine.config.prioritySortingWithinCohort()) {
      Condition preempted = w.conditions.get(ConditionType.PREEMPTED);
      if (preempted != null && preempted.status() && "InCohortReclaimWhileBorrowing".equals(preempted.reason())) {
        return preempted.timeMs() + 1;
      }
    }
    return w.createdMs;
  }
}
