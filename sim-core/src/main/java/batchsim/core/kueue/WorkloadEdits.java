package batchsim.core.kueue;

import batchsim.core.model.WorkloadSpec;

/**
 * Changes a user (or the job's owner) makes to one workload while the cluster runs, as Kueue's controllers
 * take them: the job finishes or fails, is deleted, {@code spec.active} is flipped, its priority changes, or
 * its queue-name moves it to another LocalQueue. Whether the change is allowed at all is the caller's to
 * decide (the world refuses what Kueue's webhooks refuse); these methods apply what Kueue then does.
 */
public final class WorkloadEdits {
  private static final String DEACTIVATED = "Deactivated";
  private static final String DEACTIVATED_MESSAGE = "The workload is deactivated";
  private final KueueEngine engine;
  private final WorkloadSlices slices;

  WorkloadEdits(KueueEngine engine) {
    this.engine = engine;
    this.slices = new WorkloadSlices(engine);
  }

  /** Elastic jobs: the job's parallelism changes (workload slices). */
  public WorkloadSlices slices() {
    return slices;
  }

  /**
   * The job ended (Kueue jobframework reconciler: Finished=True, reason Succeeded or Failed, with the job's
   * condition message): a pending workload leaves its queue, one holding quota releases it.
   */
  public void finish(Workload w, boolean succeeded, String message) {
    String reason = succeeded ? "Succeeded" : "Failed";
    if (w.state == WorkloadState.DEACTIVATED) {
      retire(w, WorkloadState.FINISHED);
      w.setCondition(ConditionType.FINISHED, true, reason, message, engine.now());
      engine.host.onWorkloadEnded(w);
      return;
    }
    engine.workloads.finish(w, reason, message);
  }

  /** The owner deleted the job and its workload: it leaves its queue, or releases its quota. */
  public void delete(Workload w) {
    if (w.state == WorkloadState.DEACTIVATED) {
      engine.waiting.ended(w, engine.now()); // it waited (deactivated) until now
      retire(w, WorkloadState.DELETED);
      engine.host.onWorkloadEnded(w);
      return;
    }
    engine.workloads.delete(w);
  }

  /** A deactivated workload is in no queue and holds nothing: it only changes state. */
  private void retire(Workload w, WorkloadState to) {
    w.state = to;
    w.finishedAtMs = engine.now();
    engine.stateCheck.touch(w);
  }

  /**
   * {@code spec.active=false} (Kueue workload_controller.go, inactive branch): a workload not yet evicted is
   * evicted with reason Deactivated, "The workload is deactivated", and requeueState is cleared. One holding
   * quota then releases it once its pods are gone (Requeued=False, Deactivated); a pending one leaves its queue
   * at once, Kueue's Evict being a condition patch only when there is no admission. {@code spec.active=true}:
   * Requeued=True (Reactivated, "The workload was reactivated") when the deactivation left Requeued=False with
   * reason Deactivated, and the workload is queued again without backoff. No-op when already so.
   */
  public void setActive(Workload w, boolean active) {
    if (active) {
      reactivate(w);
      return;
    }
    if (!w.active()) {
      return;
    }
    w.inactive = true;
    w.podsReadyRequeues = 0; // Kueue clears requeueState with the deactivation
    w.requeueAtMs = Workload.UNSET_TIME;
    if (w.state == WorkloadState.EVICTING) {
      engine.stateCheck.touch(w); // already evicted: no second Evict; inactive once its pods are gone
      return;
    }
    if (w.holdsQuota()) {
      engine.workloads.evict(w, DEACTIVATED, null, DEACTIVATED_MESSAGE);
      return;
    }
    long now = engine.now();
    w.cq.forget(w);
    engine.queueLifecycle.release(w);
    w.requeueHeld = false;
    w.state = WorkloadState.DEACTIVATED;
    engine.workloads.dropAfsPenalty(w);
    w.evictionReason = DEACTIVATED;
    w.setPending(DEACTIVATED, DEACTIVATED_MESSAGE);
    w.setCondition(ConditionType.EVICTED, true, DEACTIVATED, DEACTIVATED_MESSAGE, now);
    w.setCondition(ConditionType.QUOTA_RESERVED, false, DEACTIVATED, DEACTIVATED_MESSAGE, now);
    engine.stateCheck.touch(w);
    engine.requeues.notifyRequeue(w.cq);
  }

  private void reactivate(Workload w) {
    if (w.active()) {
      return;
    }
    long now = engine.now();
    w.inactive = false;
    if (w.state != WorkloadState.DEACTIVATED) {
      engine.stateCheck.touch(w); // still evicting: it requeues as its eviction reason says
      return;
    }
    Condition requeued = w.conditions.get(ConditionType.REQUEUED);
    if (requeued != null && !requeued.status() && DEACTIVATED.equals(requeued.reason())) {
      w.setCondition(ConditionType.REQUEUED, true, "Reactivated", "The workload was reactivated", now);
    }
    w.state = WorkloadState.PENDING;
    w.requeueHeld = false;
    w.queueTs = engine.workloads.queueOrderTimestamp(w);
    pendingEvaluation(w, now);
  }

  /**
   * The workload's priority changes (a WorkloadPriorityClass edit or the job's priority-class label). Kueue:
   * a pending workload's spec changed, so PushOrUpdate takes it out of the inadmissible set into the active
   * heap at its new place (backoff permitting); one holding quota is updated in the cache and its cohort's
   * parked workloads are retried (workload_controller.go Update, PriorityChanged). Preemption reads the new
   * priority from then on.
   */
  public void setPriority(Workload w, int priority, String priorityClass) {
    boolean queued = w.queued();
    ClusterQueue q = w.cq;
    if (queued) {
      q.forget(w);
    }
    w.priority = priority;
    w.shape = new SchedulingShape(priority, w.spec.podSets());
    w.spec = respec(w.spec, w.spec.localQueue(), priority, priorityClass == null ? w.spec.priorityClass() : priorityClass);
    if (queued) {
      requeueChanged(w, q);
    } else if (w.holdsQuota()) {
      engine.requeues.notifyRequeue(q);
    }
    engine.stateCheck.touch(w);
  }

  /** A queued workload whose spec changed goes back to its queue at its new place (Kueue PushOrUpdate). */
  void requeueChanged(Workload w, ClusterQueue q) {
    if (ClusterQueue.backoffExpired(w, engine.now())) {
      q.pushActive(w);
    } else {
      q.pushInadmissible(w);
    }
  }

  /**
   * The job's queue-name changes while it is suspended (Kueue jobframework QueueNameChange updates
   * spec.queueName): the pending workload leaves its ClusterQueue and is queued in the new LocalQueue's, keeping
   * its queue-order timestamp. The caller refuses it for a workload holding quota.
   */
  public void move(Workload w, String localQueue, String clusterQueue) {
    ClusterQueue to = engine.tree.queuesByName.get(clusterQueue);
    if (to == null) {
      throw new IllegalArgumentException("unknown ClusterQueue " + clusterQueue);
    }
    boolean pending = w.state == WorkloadState.PENDING;
    if (pending) {
      w.cq.forget(w);
      engine.queueLifecycle.release(w);
    }
    engine.workloads.dropAfsPenalty(w); // Kueue: settlement keys by the new queueName
    w.spec = respec(w.spec, localQueue, w.priority, w.spec.priorityClass());
    w.cq = to;
    engine.waiting.moved(w, engine.now()); // whether or not a condition changes below
    if (pending) {
      pendingEvaluation(w, engine.now());
    } else {
      engine.stateCheck.touch(w);
    }
  }

  /**
   * Queues a pending workload again; unless its queues block it, Kueue's workload controller words its
   * QuotaReserved=False as PendingEvaluation (syncQuotaReservedFalseCondition: no queue blocker).
   */
  private void pendingEvaluation(Workload w, long now) {
    w.setPending("", "");
    if (!engine.workloads.enqueue(w, now)) {
      w.setCondition(ConditionType.QUOTA_RESERVED, false, "PendingEvaluation",
          "Workload is pending evaluation in the scheduling queue", now);
    }
  }

  private static WorkloadSpec respec(WorkloadSpec s, String localQueue, int priority, String priorityClass) {
    return new WorkloadSpec(s.id(), s.workloadClass(), localQueue, s.createdMs(), priority, priorityClass, s.podSets(),
        s.runtimeMs(), s.terminationGraceMs());
  }
}
