package batchsim.core.kueue;

import batchsim.core.kueue.Assignment.PodSetAssignment;
import batchsim.core.kueue.TasAdmissions.Admitted;
import batchsim.core.kueue.TasFlavorAssigner.Found;
import batchsim.core.kueue.tas.TasFlavorSnapshot;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * [TAS] Kueue's second pass (cache/queue/second_pass_queue.go, controller/tas/node_controller.go): a node
 * failure marks the TAS workloads assigned there as unhealthy (a second failure evicts), they are queued
 * with a backoff (1 s doubling to 30 s) for a pass that replaces only the failed node's pods; a delayed
 * topology (ProvisioningRequest Ready) is placed the same way.
 */
final class TasSecondPass {
  static final long SECOND_PASS_INITIAL_MS = 1_000;
  static final long SECOND_PASS_MAX_MS = 30_000;

  private final KueueEngine engine;
  private final Tas tas;
  /** Kueue secondPassQueue: workload → time it becomes ready. */
  private final Map<Workload, Long> queue = new LinkedHashMap<>();
  /** Counters for reports: replacements found, evictions for node failures. */
  int repairs;
  int nodeFailureEvictions;

  TasSecondPass(KueueEngine engine, Tas tas) {
    this.engine = engine;
    this.tas = tas;
  }

  /**
   * Kueue's TAS node controller for a node that is gone or NotReady (with its pods terminated): it leaves
   * the trees; every TAS workload assigned to it that holds quota and is not evicted gets it as unhealthy
   * node and is pre-queued for a second pass (after 1 s); a workload that already has a different
   * unhealthy node is evicted ("multiple TAS assigned node failures").
   */
  void nodeFailed(String node) {
    tas.setNodePresent(node, false);
    Set<Workload> ws = tas.admissions.onNode(node);
    if (ws != null) {
      markUnhealthy(node, new ArrayList<>(ws));
    }
  }

  /**
   * Kueue's TAS node controller (node_controller.go, TASReplaceNodeOnPodTermination and
   * TASReplaceNodeOnNodeTaints) for a node that stays: a TAS workload assigned there finds it unhealthy when
   * it is NotReady, or has a NoSchedule/NoExecute taint one of its podSets there does not tolerate, and none
   * of its pods runs there ({@code running}: the owners of pods bound there); healthy again otherwise, while
   * not yet repaired. Unhealthy ones go to the second pass as in {@link #nodeFailed}.
   */
  void reconcileNode(String node, boolean ready, Set<?> running) {
    Set<Workload> ws = tas.admissions.onNode(node);
    if (ws == null) {
      return;
    }
    List<Workload> unhealthy = new ArrayList<>();
    for (Workload w : ws) {
      Admitted adm = tas.admissions.get(w);
      if (adm == null || !w.holdsQuota() || w.isEvicted()) {
        continue;
      }
      if ((!ready || !toleratesTaints(adm, node)) && !running.contains(w)) {
        unhealthy.add(w);
      } else if (ready && node.equals(adm.unhealthyNode)) {
        adm.unhealthyNode = null; // Kueue handleHealthyNode
        adm.secondPassIteration = 0;
        queue.remove(w);
      }
    }
    markUnhealthy(node, unhealthy);
  }

  /** Whether every podSet with pods assigned to the node tolerates its hard taints (with the flavor's). */
  private static boolean toleratesTaints(Admitted adm, String node) {
    for (PodSetTas p : adm.podSets) {
      var leaf = p.snap.leafById(node);
      if (leaf != null && p.assignment != null && p.assignment.countOn(leaf.leafIdx()) > 0
          && !p.snap.toleratesTaints(node, p.request.tolerations())) {
        return false;
      }
    }
    return true;
  }

  private void markUnhealthy(String node, List<Workload> ws) {
    for (Workload w : ws) {
      Admitted adm = tas.admissions.get(w);
      if (adm == null || !w.holdsQuota() || w.isEvicted()) {
        continue;
      }
      if (adm.unhealthyNode != null && !adm.unhealthyNode.equals(node)) {
        nodeFailureEvictions++;
        engine.workloads.evict(w, "NodeFailures", null, "Workload eviction triggered due to multiple TAS assigned node "
            + "failures, including: " + adm.unhealthyNode + ", " + node);
        queue.remove(w);
        continue;
      }
      if (adm.unhealthyNode == null) {
        adm.unhealthyNode = node;
        adm.secondPassIteration = 0;
        enqueue(w, adm);
        engine.stateCheck.touch(w);
      }
    }
  }

  /** The node is Ready again: back in the trees, and no longer unhealthy for workloads not yet repaired. */
  void nodeRecovered(String node) {
    tas.setNodePresent(node, true);
    Set<Workload> ws = tas.admissions.onNode(node);
    if (ws == null) {
      return;
    }
    for (Workload w : ws) {
      Admitted adm = tas.admissions.get(w);
      if (adm != null && node.equals(adm.unhealthyNode)) {
        adm.unhealthyNode = null;
        adm.secondPassIteration = 0;
        queue.remove(w);
      }
    }
  }

  /** Kueue NeedsSecondPass (node-failure case): quota held, not finished or evicted, an unhealthy node. */
  boolean needsSecondPass(Workload w) {
    Admitted adm = tas.admissions.get(w);
    if (adm == null || !w.holdsQuota() || w.isEvicted()) {
      return false;
    }
    return adm.unhealthyNode != null || awaitsDelayedTopology(w, adm);
  }

  /** Kueue needsSecondPassForDelayedAssignment: checks all Ready, a topology still pending, not Admitted. */
  private static boolean awaitsDelayedTopology(Workload w, Admitted adm) {
    if (w.checks.isEmpty() || w.checks.containsValue(CheckState.PENDING)) {
      return false;
    }
    for (CheckState c : w.checks.values()) {
      if (c != CheckState.READY) {
        return false;
      }
    }
    Condition admittedCond = w.conditions.get(ConditionType.ADMITTED);
    if (admittedCond != null && admittedCond.status()) {
      return false;
    }
    for (PodSetTas p : adm.podSets) {
      if (p.pending()) {
        return true;
      }
    }
    return false;
  }

  /**
   * Every admission check turned Ready: a workload whose topology was delayed is not Admitted yet but
   * queued for the second pass that places it (Kueue's workload controller, QueueSecondPassIfNeeded).
   * Returns true when that is so; the engine then admits it after the placement.
   */
  boolean deferAdmissionForTopology(Workload w) {
    Admitted adm = tas.admissions.get(w);
    if (adm == null || !awaitsDelayedTopology(w, adm)) {
      return false;
    }
    adm.secondPassIteration = 0;
    return enqueue(w, adm);
  }

  /** Kueue QueueSecondPassIfNeeded: pre-queues with backoff 1 s × 2^(iteration−1), capped at 30 s. */
  private boolean enqueue(Workload w, Admitted adm) {
    if (!needsSecondPass(w)) {
      queue.remove(w);
      return false;
    }
    adm.secondPassIteration++;
    long at = engine.now() + backoff(adm.secondPassIteration);
    queue.put(w, at);
    engine.host.scheduleSecondPass(at);
    return true;
  }

  static long backoff(int iteration) {
    return Backoff.exponential(SECOND_PASS_INITIAL_MS, SECOND_PASS_MAX_MS, iteration);
  }

  /** A second-pass entry that did not get admitted goes back to the second-pass queue, not to its ClusterQueue. */
  boolean requeue(Workload w) {
    Admitted adm = tas.admissions.get(w);
    return adm != null && enqueue(w, adm);
  }

  /** Kueue secondPassQueue.takeAllReady: every queued workload whose delay has passed and still needs it. */
  List<Workload> takeReady() {
    if (queue.isEmpty()) {
      return List.of();
    }
    long now = engine.now();
    List<Workload> out = new ArrayList<>();
    var it = queue.entrySet().iterator();
    while (it.hasNext()) {
      var e = it.next();
      if (!needsSecondPass(e.getKey())) {
        it.remove();
      } else if (e.getValue() <= now) {
        out.add(e.getKey());
        it.remove();
      }
    }
    return out;
  }

  boolean isQueued(Workload w) {
    return queue.containsKey(w);
  }

  /** Kueue QueueSecondPassIfNeeded on an update: an evicted workload leaves the second-pass queue. */
  void forget(Workload w) {
    queue.remove(w);
  }

  /** Test hook: queue a second pass without the eligibility check (to prove the invariant fires). */
  void forceForTest(Workload w) {
    queue.put(w, engine.now());
  }

  /**
   * The second-pass assignment: the admitted flavors stay (Fit, no quota is asked again); the podSets with
   * pods on the unhealthy node get a replacement (Kueue findReplacementAssignment). Fit when every one is
   * found, else Preempt with the reason, and never with preemption targets.
   */
  Assignment assignment(Workload w) {
    Admitted adm = tas.admissions.get(w);
    Assignment a = new Assignment();
    int nPs = w.spec.podSets().size();
    for (int i = 0; i < nPs; i++) {
      PodSetAssignment psa = new PodSetAssignment(w.spec.podSets().get(i).name(), w.counts[i], tas.nRes);
      for (int r = 0; r < tas.nRes; r++) {
        psa.flavor[r] = w.flavors[i][r];
        psa.mode[r] = AssignmentMode.FIT;
      }
      a.podSets.add(psa);
    }
    List<PodSetTas> result = new ArrayList<>();
    Map<TasFlavorSnapshot, Map<Integer, long[]>> assumed = new HashMap<>();
    List<PodSetTas> pending = new ArrayList<>();
    for (PodSetTas p : adm.podSets) {
      if (p.pending()) {
        pending.add(p);
      }
    }
    if (!pending.isEmpty()) {
      // Delayed topology (ProvisioningRequest Ready): place the pending podSets now, the normal way.
      List<PodSetTas> reqs = new ArrayList<>();
      for (PodSetTas p : pending) {
        PodSetTas r = p.copy();
        r.delayed = null;
        reqs.add(r);
      }
      Found f = tas.flavors.find(reqs, false);
      if (!f.ok()) {
        PodSetAssignment psa = a.podSets.get(f.failed().podSet);
        psa.reasons.add(f.reason());
        a.updateMode(psa, AssignmentMode.PREEMPT);
      }
      for (PodSetTas p : adm.podSets) {
        PodSetTas np = p.copy();
        for (PodSetTas placed : f.placed()) {
          if (placed.podSet == p.podSet) {
            np.assignment = placed.assignment;
            np.delayed = PodSetTas.DELAYED_READY;
          }
        }
        result.add(np);
      }
      a.tas = new Tas.Placement(result, true);
      a.lastState = null;
      return a;
    }
    for (PodSetTas p : adm.podSets) {
      PodSetTas np = p.copy();
      result.add(np);
      if (adm.unhealthyNode == null || !p.snap.hostnameLowest()
          || p.snap.leafById(adm.unhealthyNode) == null
          || p.assignment.countOn(p.snap.leafById(adm.unhealthyNode).leafIdx()) == 0) {
        continue;
      }
      String why = NodeReplacement.replace(np, adm.unhealthyNode,
          assumed.computeIfAbsent(p.snap, k -> new HashMap<>()));
      if (why != null) {
        PodSetAssignment psa = a.podSets.get(p.podSet);
        psa.reasons.add(why);
        a.updateMode(psa, AssignmentMode.PREEMPT);
        break;
      }
      tas.flavors.assume(assumed.get(p.snap), np);
    }
    a.tas = new Tas.Placement(result, true);
    a.lastState = null;
    return a;
  }

  /**
   * A second pass succeeded: the workload keeps its quota and takes the new domains (a node replacement,
   * or its delayed topology). Returns true for a delayed topology: the workload is to be Admitted now.
   */
  boolean admit(Workload w, Assignment a) {
    Admitted adm = tas.admissions.get(w);
    boolean delayed = false;
    for (PodSetTas p : adm.podSets) {
      delayed |= p.pending();
    }
    tas.admissions.reassign(w, adm, a.tas.podSets);
    queue.remove(w);
    if (!delayed) {
      repairs++;
    }
    return delayed;
  }

  /** Kueue handleFailedTASReplacement (fail-fast): evict with reason NodeFailures. */
  void evictFailedReplacement(Workload w) {
    Admitted adm = tas.admissions.get(w);
    nodeFailureEvictions++;
    queue.remove(w);
    engine.workloads.evict(w, "NodeFailures", null,
        "Workload was evicted as there was no replacement for unhealthy node(s): "
            + (adm == null ? "" : adm.unhealthyNode));
  }
}
