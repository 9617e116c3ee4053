package batchsim.core.world.kueue;

import batchsim.core.cluster.Node;
import batchsim.core.cluster.PodBinder;
import batchsim.core.kueue.Workload;
import batchsim.core.model.Eviction;
import batchsim.core.model.Reservation;
import batchsim.core.model.WorkloadSpec;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Workloads as a cluster imported with its Kueue Workload objects had them at the start: one holding quota
 * is put in its ClusterQueue reserved with its recorded flavors and counts (Kueue's status.admission), its
 * running pods bound to the nodes they run on at the snapshot; one pending after an eviction is queued with
 * its conditions and requeue state.
 */
final class RestoredWorkloads {
  private final KueueAdmission admission;
  private Map<String, Integer> nodeIndex;

  RestoredWorkloads(KueueAdmission admission) {
    this.admission = admission;
  }

  /** The workload in Kueue as it stood at the start: holding quota, or pending after an eviction. */
  Workload restore(WorkloadSpec s, String cq, long seq) {
    if (s.live() instanceof Eviction e) {
      return admission.kueue.restoreEvicted(s, cq, s.priority(), seq, e);
    }
    Reservation r = s.reservation();
    var index = admission.kueue.index();
    int nRes = admission.nRes;
    int[][] flavors = new int[s.podSets().size()][nRes];
    for (int i = 0; i < flavors.length; i++) {
      java.util.Arrays.fill(flavors[i], -1);
      for (Map.Entry<String, String> e : r.flavors().get(i).entrySet()) {
        flavors[i][admission.spec.resources().require(e.getKey())] = index.flavorIndex(e.getValue());
      }
    }
    return admission.kueue.restore(s, cq, s.priority(), seq, flavors, r.counts(), r.reservedAtMs(), r.admitted());
  }

  /** Pins the pods that ran somewhere at the snapshot to that node; the others go to the kube-scheduler. */
  void pinToSnapshotNodes(Workload w, PodBinder.Pods pods) {
    List<List<String>> nodes = w.spec().reservation().nodes();
    if (nodes.stream().allMatch(List::isEmpty)) {
      return;
    }
    int[][] pins = new int[pods.total()][];
    int[] seen = new int[nodes.size()];
    for (int i = 0; i < pins.length; i++) {
      int ps = PodBinder.podSetOf(pods, i);
      int k = seen[ps]++;
      if (k < nodes.get(ps).size()) {
        pins[i] = new int[] {node(nodes.get(ps).get(k))};
      }
    }
    admission.binder.pin(w, pods, pins, false); // [TAS] counted as usage on the node, as pods without an assignment
  }

  private int node(String name) {
    if (nodeIndex == null) {
      nodeIndex = new HashMap<>();
      for (Node n : admission.world.cluster().nodes()) {
        nodeIndex.put(n.name(), n.index());
      }
    }
    Integer i = nodeIndex.get(name);
    if (i == null) {
      throw new IllegalStateException("node " + name + " does not exist at the start"); // the loader checks names
    }
    return i;
  }
}
