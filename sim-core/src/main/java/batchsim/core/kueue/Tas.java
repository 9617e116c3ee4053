package batchsim.core.kueue;

import batchsim.core.kueue.tas.Domain;
import batchsim.core.kueue.tas.TasFlavorSnapshot;
import batchsim.core.kueue.tas.TasNode;
import batchsim.core.model.ResourceFlavorSpec;
import batchsim.core.model.ResourceSpace;
import batchsim.core.model.TopologySpec;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Topology Aware Scheduling inside the Kueue engine: the TAS flavors' trees (built here, with the nodes
 * joining and leaving them), and the parts that use them: TAS in flavor assignment and preemption
 * ({@link TasFlavorAssigner}), the topology assignments of admitted workloads and their per-domain usage
 * ({@link TasAdmissions}), and node failure repair and delayed topologies through the second-pass queue
 * ({@link TasSecondPass}, {@link NodeReplacement}).
 *
 * <p>Ports, @ ff69552e: {@code flavorassigner/tas_flavorassigner.go} (which podSets need TAS, flavor
 * matching, TAS requests), the TAS parts of {@code flavorassigner.go} and {@code scheduler.go} (Fit →
 * Preempt → NoFit via "would it fit on an empty cluster", updateAssignmentForTAS, net TAS usage),
 * {@code cache/scheduler/tas_flavor_snapshot.go} FindTopologyAssignmentsForFlavor and
 * findReplacementAssignment, {@code cache/queue/second_pass_queue.go} (backoff 1 s doubling to 30 s) and
 * {@code controller/tas/node_controller.go} (unhealthy nodes; a second one evicts).
 */
final class Tas {
  private final KueueEngine engine;
  /** Resource count and the pods resource index (-1 when absent), set by {@link #configure}. */
  int nRes;
  int podsRes;
  /** Per flavor index; null for a non-TAS flavor. Null array: TAS not configured. */
  TasFlavorSnapshot[] byFlavor;
  private final List<TasFlavorSnapshot> snapshots = new ArrayList<>();
  private final Map<String, TopologySpec> topologies = new LinkedHashMap<>();
  final TasFlavorAssigner flavors;
  final TasAdmissions admissions;
  final TasSecondPass secondPass;

  Tas(KueueEngine engine) {
    this.engine = engine;
    this.flavors = new TasFlavorAssigner(engine, this);
    this.admissions = new TasAdmissions(engine, this);
    this.secondPass = new TasSecondPass(engine, this);
  }

  // ------------------------------------------------------------------ configuration and nodes

  /** Builds the trees of the TAS flavors (flavors with topologyName) from the topologies and nodes. */
  void configure(List<TopologySpec> tops, List<TasNode> nodes) {
    nRes = engine.index.resources().size();
    podsRes = engine.index.resources().indexOf(ResourceSpace.PODS);
    for (TopologySpec t : tops) {
      topologies.put(t.name(), t);
    }
    List<ResourceFlavorSpec> flavors = engine.flavorSpecs;
    byFlavor = new TasFlavorSnapshot[flavors.size()];
    List<Integer> order = new ArrayList<>();
    for (int f = 0; f < flavors.size(); f++) {
      ResourceFlavorSpec spec = flavors.get(f);
      if (spec.topologyName() == null) {
        continue;
      }
      TopologySpec t = topologies.get(spec.topologyName());
      if (t == null) {
        throw new IllegalArgumentException("flavor " + spec.name() + " refers to unknown topology "
            + spec.topologyName());
      }
      byFlavor[f] = new TasFlavorSnapshot(spec, t, engine.index.resources());
      order.add(f);
    }
    // Kueue handles TAS flavors in name order (FindTopologyAssignmentsForWorkload sorts them).
    order.sort(Comparator.comparing(f -> flavors.get(f).name()));
    for (int f : order) {
      snapshots.add(byFlavor[f]);
    }
    for (TasNode n : nodes) {
      addNode(n, true);
    }
  }

  boolean enabled() {
    return byFlavor != null && !snapshots.isEmpty();
  }

  TasFlavorSnapshot snapshot(int flavor) {
    return byFlavor == null || flavor < 0 ? null : byFlavor[flavor];
  }

  List<TasFlavorSnapshot> snapshots() {
    return snapshots;
  }

  void addNode(TasNode n, boolean present) {
    for (TasFlavorSnapshot s : snapshots) {
      s.addNode(n, present);
    }
  }

  /** New labels or taints of a node (never its level labels, so it stays in its domains). */
  void updateNode(TasNode n) {
    for (TasFlavorSnapshot s : snapshots) {
      s.updateNode(n);
    }
  }

  /**
   * A node matching a TAS flavor was created, updated or deleted in a way that matters for scheduling: Kueue's
   * TAS ResourceFlavor reconciler (controller/tas/resource_flavor.go, after UpdatesBatchPeriod = 1 s) retries
   * the inadmissible workloads of every active ClusterQueue.
   */
  void nodeChanged(TasNode n) {
    if (!enabled() || snapshots.stream().noneMatch(s -> s.matches(n))) {
      return;
    }
    for (ClusterQueue q : engine.tree.queues) {
      if (q.active && q.pending.parkedCount() > 0) {
        engine.requeues.notifyRequeue(q);
      }
    }
  }

  /** Ready/schedulable changes: the node leaves or rejoins every tree (Kueue drops NotReady nodes). */
  void setNodePresent(String node, boolean present) {
    for (TasFlavorSnapshot s : snapshots) {
      s.setNodePresent(node, present);
    }
  }

  /** A pod of a workload without a topology assignment bound to (+1) or left (-1) a node. */
  void nonTasPod(Workload owner, String node, long[] request, int sign) {
    if (!enabled()) {
      return;
    }
    for (TasFlavorSnapshot s : snapshots) {
      s.addNonTasUsage(node, request, sign);
    }
  }

  /** The TAS part of an Assignment. {@code secondPass}: a node replacement, not a first admission. */
  static final class Placement {
    final List<PodSetTas> podSets;
    final boolean secondPass;

    Placement(List<PodSetTas> podSets, boolean secondPass) {
      this.podSets = podSets;
      this.secondPass = secondPass;
    }
  }

  /** Adds TAS usage on a leaf, and on the same hostname in other hostname-level trees (overlapping flavors). */
  void addTasUsage(TasFlavorSnapshot s, int leafIdx, long[] podReq, int count, int sign) {
    Domain leaf = s.leaf(leafIdx);
    s.addTasUsage(leaf, podReq, count, sign);
    if (s.hostnameLowest() && snapshots.size() > 1) {
      for (TasFlavorSnapshot o : snapshots) {
        Domain other = o != s && o.hostnameLowest() ? o.leafById(leaf.id()) : null;
        if (other != null) {
          o.addTasUsage(other, podReq, count, sign);
        }
      }
    }
  }

  /** The workload released its quota (finished, evicted and gone, deleted): its TAS usage goes too. */
  void release(Workload w) {
    secondPass.forget(w);
    admissions.release(w);
  }
}
