package batchsim.core.world.kueue;

import batchsim.core.cluster.Node;
import java.util.List;

/**
 * What Kueue does when the cluster's nodes change (the {@code AdmissionEngine} node hooks of
 * {@link KueueAdmission}): [TAS] the topology trees and the node-failure second pass, pods lost by running
 * workloads, and a retry of parked TAS workloads when a node of a TAS flavor changes.
 */
final class KueueNodes {
  private final KueueAdmission admission;

  KueueNodes(KueueAdmission admission) {
    this.admission = admission;
  }

  int nodeFailed(Node n, List<Object> owners, int podsOnNode) {
    tasNodeChanged(n);
    admission.kueue.nodeFailed(n.name()); // [TAS] out of the trees; TAS workloads there get a second pass
    admission.runs.podsLost(owners);
    return podsOnNode;
  }

  void nodeRepaired(Node n) {
    tasNodeChanged(n);
    if (n.schedulable()) {
      admission.kueue.nodeRecovered(n.name()); // [TAS] back in the topology trees
    }
    admission.requestBind();
  }

  int nodeCordoned(Node n, boolean drain, List<Object> owners, int podsOnNode) {
    tasNodeChanged(n);
    // [TAS] unschedulable nodes leave the trees; drained pods make the node unhealthy for TAS workloads
    if (drain) {
      admission.kueue.nodeFailed(n.name());
    } else {
      admission.kueue.nodeSchedulable(n.name(), false);
    }
    admission.runs.podsLost(owners);
    return podsOnNode;
  }

  void nodeUncordoned(Node n) {
    tasNodeChanged(n);
    if (n.schedulable()) {
      admission.kueue.nodeRecovered(n.name()); // [TAS]
    }
    admission.requestBind();
  }

  /** [TAS] Kueue's TAS cache drops NotReady nodes; workloads with pods running there stay healthy for now. */
  void nodeNotReady(Node n) {
    tasNodeChanged(n);
    admission.kueue.nodeSchedulable(n.name(), false);
    admission.kueue.nodeConditionsChanged(n.name(), false, admission.binder.ownersOn(n));
  }

  int nodeTaintsChanged(Node n, List<Object> owners, int podsEvicted) {
    tasNodeChanged(n);
    admission.kueue.nodeUpdated(admission.tas.tasNode(n)); // [TAS]
    admission.kueue.nodeConditionsChanged(n.name(), !n.failed(), admission.binder.ownersOn(n));
    admission.runs.podsLost(owners);
    admission.requestBind();
    return podsEvicted;
  }

  void nodeLabelsChanged(Node n) {
    tasNodeChanged(n);
    admission.kueue.nodeUpdated(admission.tas.tasNode(n)); // [TAS]
    admission.requestBind();
  }

  void nodeAdded(Node n) {
    tasNodeChanged(n);
    admission.kueue.nodeAdded(admission.tas.tasNode(n)); // [TAS]
    admission.requestBind();
  }

  int nodeRemoved(Node n, List<Object> owners, int podsOnNode) {
    tasNodeChanged(n);
    admission.kueue.nodeFailed(n.name()); // [TAS] a deleted node is unhealthy at once
    admission.runs.podsLost(owners);
    return podsOnNode;
  }

  /** [TAS] Kueue retries parked workloads when a node of a TAS flavor changes (see KueueEngine.tasNodeChanged). */
  private void tasNodeChanged(Node n) {
    if (admission.kueue.tasEnabled()) {
      admission.kueue.tasNodeChanged(admission.tas.tasNode(n));
    }
  }
}
