package batchsim.core.world.kueue;

import batchsim.core.model.ClusterAction;
import batchsim.core.model.ElasticAction;
import batchsim.core.model.MultiKueueAction;
import batchsim.core.model.QueueObjectAction;
import batchsim.core.model.WorkloadAction;

/** Where the timeline's Kueue actions go: workloads and their slices, queue objects, MultiKueue's workers. */
final class KueueTimeline {
  private final KueueAdmission kueue;
  private final WorkloadActionsApplier workloadActions;

  KueueTimeline(KueueAdmission kueue) {
    this.kueue = kueue;
    this.workloadActions = new WorkloadActionsApplier(kueue);
  }

  /** False when the action is none of Kueue's (the world reports it). */
  boolean apply(ClusterAction action) {
    if (action instanceof WorkloadAction || action instanceof ElasticAction) {
      workloadActions.apply(action);
      return true;
    }
    if (!kueue.kueue().queues().apply(action)) {
      return action instanceof MultiKueueAction a && kueue.multiKueue.apply(a);
    }
    if (action instanceof QueueObjectAction.CreateResourceFlavor || action instanceof QueueObjectAction.UpdateResourceFlavor) {
      String name = ((QueueObjectAction) action).object().substring("ResourceFlavor ".length());
      int f = kueue.kueue().index().flavorIndex(name);
      kueue.binder.flavorChanged(f, kueue.kueue().flavorSpec(f)); // the kube-scheduler sees the flavor's labels on new pods
    }
    return true;
  }
}
