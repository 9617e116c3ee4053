package batchsim.core.kueue;

import batchsim.core.model.ActionRefused;
import batchsim.core.model.ClusterAction;
import batchsim.core.model.ClusterAction.StopPolicy;
import batchsim.core.model.QueueObjectAction;
import java.util.Set;

/**
 * The timeline's changes to Kueue's queues, applied by the engine's controllers: quota and preemption edits,
 * stopPolicy, deletions ({@link QueueLifecycle}) and objects created, patched or deleted
 * ({@link QueueObjects}). A queue that does not exist at that time is refused ({@link ActionRefused}).
 */
public final class QueueChanges {
  private final KueueEngine engine;

  QueueChanges(KueueEngine engine) {
    this.engine = engine;
  }

  /** Applies a queue action; false when {@code action} is none (nodes, workloads, ...). */
  public boolean apply(ClusterAction action) {
    QueueLifecycle lifecycle = engine.queueLifecycle;
    if (action instanceof ClusterAction.SetQuota a) {
      ClusterQueue q = existing(a.clusterQueue());
      FlavorResources index = engine.index;
      lifecycle.setQuota(q, index.fr(index.flavorIndex(a.flavor()), index.resources().require(a.resource())),
          a.quota());
      // Usage above a lowered quota is legal (Kueue never evicts for a quota change); it may only drain.
      engine.quotaInvariants.tolerateExcess();
    } else if (action instanceof ClusterAction.SetPreemption a) {
      lifecycle.setPreemption(existing(a.clusterQueue()), a.preemption());
    } else if (action instanceof ClusterAction.StopQueue a && a.clusterQueue() != null) {
      lifecycle.stopClusterQueue(existing(a.clusterQueue()), a.policy());
    } else if (action instanceof ClusterAction.StopQueue a) {
      existingLocalQueue(a.localQueue());
      lifecycle.stopLocalQueue(a.localQueue(), a.policy(), false);
    } else if (action instanceof ClusterAction.DeleteQueue a && a.clusterQueue() != null) {
      ClusterQueue q = existing(a.clusterQueue());
      if (!q.deleted) { // deleting a terminating ClusterQueue again changes nothing
        lifecycle.deleteClusterQueue(q);
      }
    } else if (action instanceof ClusterAction.DeleteQueue a) {
      existingLocalQueue(a.localQueue());
      lifecycle.stopLocalQueue(a.localQueue(), StopPolicy.HOLD, true);
    } else if (action instanceof QueueObjectAction a) {
      engine.queueObjects.apply(a);
    } else {
      return false;
    }
    return true;
  }

  /**
   * The objects (as {@link QueueObjectAction#object()} names them) that the timeline creates later: they do
   * not exist until then. Call once, before the first cycle and after {@link KueueEngine#configureTopologies}.
   */
  public void absentAtStart(Set<String> objects) {
    engine.queueObjects.absentAtStart(objects);
  }

  private ClusterQueue existing(String cq) {
    ClusterQueue q = engine.tree.queuesByName.get(cq);
    if (q.gone) {
      throw new ActionRefused("ClusterQueue " + cq + " doesn't exist");
    }
    return q;
  }

  private void existingLocalQueue(String lq) {
    if (!engine.queueLifecycle.localQueueExists(lq)) {
      throw new ActionRefused("LocalQueue " + lq + " doesn't exist");
    }
  }
}
