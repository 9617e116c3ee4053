package batchsim.core.kueue;

import batchsim.core.model.ClusterAction.StopPolicy;
import batchsim.core.model.PreemptionSpec;
import batchsim.core.model.QuotaSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * Changes to queues while the cluster runs, as Kueue's controllers apply them: quota and preemption edits,
 * stopPolicy Hold / HoldAndDrain / None on ClusterQueues and LocalQueues, and deletions.
 *
 * <p>Kueue keeps the workloads of a stopped or missing queue pending with a reason instead of dropping
 * them; so does batchsim. Workloads of a held LocalQueue are kept aside (not in any heap), so that the
 * ClusterQueue's other LocalQueues keep flowing.
 */
final class QueueLifecycle {
  private final KueueEngine engine;
  /**
   * Kueue getQueueBlocker (workload_controller.go) words a pending workload's QuotaReserved=False: Suspended,
   * "<kind> x is inactive", for a stopped queue; Misconfigured, "<kind> x doesn't exist", for a deleted one.
   */
  private static final String MISSING = " doesn't exist";
  private static final String INACTIVE = " is inactive";
  /** LocalQueue name → why its workloads are held ("LocalQueue x is inactive" / "... doesn't exist"). */
  private final Map<String, String> heldLocalQueues = new LinkedHashMap<>();
  private final Map<String, Set<Workload>> held = new LinkedHashMap<>();

  QueueLifecycle(KueueEngine engine) {
    this.engine = engine;
  }

  boolean isHeld(String localQueue) {
    return heldLocalQueues.containsKey(localQueue);
  }

  boolean isHeld(Workload w) {
    Set<Workload> s = held.get(w.spec.localQueue());
    return s != null && s.contains(w);
  }

  /** Parks a pending workload of a held LocalQueue outside every heap. */
  void hold(Workload w) {
    String lq = w.spec.localQueue();
    w.cq.forget(w);
    held.computeIfAbsent(lq, k -> new LinkedHashSet<>()).add(w);
    String message = heldLocalQueues.get(lq);
    w.setPending(message.endsWith(MISSING) ? "Misconfigured" : "Suspended", message);
    w.setCondition(ConditionType.QUOTA_RESERVED, false, w.pendingReason(), message, engine.now());
    engine.stateCheck.touch(w);
  }

  void release(Workload w) {
    Set<Workload> s = held.get(w.spec.localQueue());
    if (s != null) {
      s.remove(w);
    }
  }

  void setQuota(ClusterQueue q, int fr, QuotaSpec quota) {
    q.nominal[fr] = quota.nominal();
    q.borrowingLimit[fr] = quota.hasBorrowingLimit() ? quota.borrowingLimit() : QuotaNode.NO_LIMIT;
    q.lendingLimit[fr] = quota.hasLendingLimit() ? quota.lendingLimit() : QuotaNode.NO_LIMIT;
    q.generation++;
    engine.tree.recomputeTree(q);
    // Kueue: a ClusterQueue update retries the parked workloads of its whole cohort tree.
    engine.requeues.notifyRequeue(q);
  }

  void setPreemption(ClusterQueue q, PreemptionSpec p) {
    q.spec = q.spec.withPreemption(p);
    engine.requeues.notifyRequeue(q);
  }

  /** ClusterQueue stopPolicy: Hold stops admission; HoldAndDrain also evicts admitted workloads; None resumes. */
  void stopClusterQueue(ClusterQueue q, StopPolicy policy) {
    if (q.deleted) {
      return;
    }
    if (policy == StopPolicy.NONE) {
      boolean wasActive = q.active;
      q.stopped = false;
      q.refreshActive();
      // Kueue: Requeued=True (ClusterQueueRestarted) for the workloads the drain evicted.
      for (Workload w : q.pending.parkedInOrder()) {
        if ("ClusterQueueStopped".equals(w.evictionReason) && w.requeueHeld) {
          w.requeueHeld = false;
          w.setCondition(ConditionType.REQUEUED, true, "ClusterQueueRestarted",
              "The ClusterQueue was restarted after being stopped", engine.now());
        }
      }
      if (!wasActive && !q.active) {
        markPending(q, "Suspended", q.inactiveMessage); // still inactive for another reason (a missing flavor)
      }
      engine.requeues.notifyRequeue(q);
      return;
    }
    q.stopped = true;
    q.refreshActive();
    markPending(q, "Suspended", q.inactiveMessage);
    if (policy == StopPolicy.HOLD_AND_DRAIN) {
      for (Workload w : new ArrayList<>(q.admitted)) {
        if (w.state != WorkloadState.EVICTING) {
          engine.workloads.evict(w, "ClusterQueueStopped", null, "The ClusterQueue is stopped");
        }
      }
    }
  }

  /** Kueue: the ClusterQueue terminates; it is gone (and leaves the tree) once its last workload is. */
  void deleteClusterQueue(ClusterQueue q) {
    q.deleted = true;
    q.refreshActive();
    markPending(q, "Suspended", q.inactiveMessage); // Kueue getQueueBlocker: it exists, inactive
    engine.queueObjects.released(q);
  }

  void markPending(ClusterQueue q, String reason, String message) {
    for (Workload w : q.pending.all()) {
      w.setPending(reason, message);
      w.setCondition(ConditionType.QUOTA_RESERVED, false, reason, message, engine.now());
      engine.stateCheck.touch(w);
    }
  }

  /** Whether the LocalQueue exists now (declared or created, and not deleted). */
  boolean localQueueExists(String lq) {
    String why = heldLocalQueues.get(lq);
    return why == null || !why.endsWith(MISSING);
  }

  /** Kueue manager AddLocalQueue: the workloads that named the missing LocalQueue join its ClusterQueue. */
  void createLocalQueue(String lq) {
    if (localQueueExists(lq)) {
      throw new batchsim.core.model.ActionRefused("LocalQueue " + lq + " already exists");
    }
    heldLocalQueues.remove(lq);
    if (engine.afs != null) {
      engine.afs.localQueueCreated(lq);
    }
    resume(lq);
  }

  /** LocalQueue stopPolicy, or deletion (held for good, with Kueue's "doesn't exist" message). */
  void stopLocalQueue(String lq, StopPolicy policy, boolean deleted) {
    if (policy == StopPolicy.NONE && !deleted) {
      if (!localQueueExists(lq)) {
        return; // a deleted LocalQueue does not come back
      }
      heldLocalQueues.remove(lq);
      resume(lq);
      return;
    }
    // Kueue getQueueBlocker names the LocalQueue as wl.Spec.QueueName: without its namespace.
    heldLocalQueues.put(lq, "LocalQueue " + lq.substring(lq.indexOf('/') + 1) + (deleted ? MISSING : INACTIVE));
    if (deleted && engine.afs != null) {
      engine.afs.localQueueDeleted(lq);
    }
    for (ClusterQueue q : engine.tree.queues) {
      for (Workload w : q.pending.all()) {
        if (w.spec.localQueue().equals(lq)) {
          hold(w);
        }
      }
      if (policy == StopPolicy.HOLD_AND_DRAIN || deleted) {
        for (Workload w : new ArrayList<>(q.admitted)) {
          if (w.spec.localQueue().equals(lq) && w.state != WorkloadState.EVICTING && !deleted) {
            engine.workloads.evict(w, "LocalQueueStopped", null, "The LocalQueue is stopped");
          }
        }
      }
    }
  }

  /** The held workloads of a LocalQueue that admits again go back to their ClusterQueue. */
  private void resume(String lq) {
    Set<Workload> ws = held.remove(lq);
    if (ws != null) {
      for (Workload w : ws) {
        if ("LocalQueueStopped".equals(w.evictionReason) && w.requeueHeld) {
          w.requeueHeld = false;
          w.setCondition(ConditionType.REQUEUED, true, "LocalQueueRestarted",
              "The LocalQueue was restarted after being stopped", engine.now());
        }
        w.queueTs = engine.workloads.queueOrderTimestamp(w);
        w.cq.pushActive(w);
        engine.stateCheck.touch(w);
        engine.requeues.notifyRequeue(w.cq);
      }
    }
  }
}
