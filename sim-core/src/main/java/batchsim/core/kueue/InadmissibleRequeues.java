package batchsim.core.kueue;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Kueue's queue manager requeue of inadmissible workloads: a quota release notifies the whole cohort tree,
 * and after the batch delay every parked workload of the notified trees goes back to its active heap.
 */
final class InadmissibleRequeues {
  private final KueueEngine engine;
  private final Set<QuotaNode> requeueRoots = new LinkedHashSet<>();

  InadmissibleRequeues(KueueEngine engine) {
    this.engine = engine;
  }

  /** Kueue QueueAssociatedInadmissibleWorkloadsAfter: retry the tree's parked workloads after the batch delay. */
  void notifyRequeue(ClusterQueue q) {
    QuotaNode root = q.hasParent() ? q.root() : q;
    boolean first = requeueRoots.isEmpty();
    requeueRoots.add(root);
    if (first) {
      engine.host.scheduleInadmissibleRequeue(engine.now() + engine.config.inadmissibleRequeueDelayMs());
    }
  }

  /** A restart: the notified trees are forgotten (every workload was pushed again anyway). */
  void forget() {
    requeueRoots.clear();
  }

  /** Moves the parked workloads of every notified tree back to their active heaps. */
  int processInadmissibleRequeues() {
    int moved = 0;
    List<QuotaNode> roots = new ArrayList<>(requeueRoots);
    requeueRoots.clear();
    long now = engine.now();
    for (QuotaNode r : roots) {
      List<ClusterQueue> qs = r instanceof Cohort c ? c.subtreeQueues() : List.of((ClusterQueue) r);
      for (ClusterQueue q : qs) {
        moved += q.queueInadmissible(now);
      }
    }
    return moved;
  }
}
