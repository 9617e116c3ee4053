package batchsim.core.kueue;


/**
 * What a restart of Kueue's controller manager (a leader change) forgets and rebuilds. The objects keep
 * everything that is in their status (quota reservations and admissions, conditions, requeueState with its
 * requeueAt, admission check states, TAS assignments and unhealthy nodes); in-memory state is rebuilt from
 * them as at start-up (cmd/kueue: the cache and queue manager are filled from lists of the objects):
 * <ul>
 *   <li>every pending workload is pushed again: the inadmissible lists start empty, except for workloads
 *       still in their requeue backoff or held by a stopped queue (cluster_queue.go PushOrUpdate);
 *   <li>the sticky head and the preemptor waiting for its victims are forgotten (scheduler memory);
 *   <li>each workload's last flavor assignment (the flavor-scan resume point, workload.Info) is lost.
 * </ul>
 */
final class ControllerRestart {
  private final KueueEngine engine;

  ControllerRestart(KueueEngine engine) {
    this.engine = engine;
  }

  void restart() {
    long now = engine.now();
    for (ClusterQueue q : engine.tree.queues) {
      q.setSticky(null);
      q.preemptor = null;
      for (Workload w : q.pending.all()) {
        w.lastAssignment = null;
      }
      q.queueInadmissible(now);
    }
    engine.requeues.forget();
  }
}
