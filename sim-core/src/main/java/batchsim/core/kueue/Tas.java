package batchsim.core.kueue;

import batchsim.core.kueue.Assignment.PodSetAssignment;
import batchsim.core.kueue.tas.Domain;
import batchsim.core.kueue.tas.PodSetRequest;
import batchsim.core.kueue.tas.TasFlavorSnapshot;
import batchsim.core.kueue.tas.TasNode;
import batchsim.core.kueue.tas.TasPlacement;
import batchsim.core.kueue.tas.TopologyAssigner;
import batchsim.core.kueue.tas.TopologyAssignment;
import batchsim.core.model.PodSetSpec;
import batchsim.core.model.ResourceFlavorSpec;
import batchsim.core.model.ResourceSpace;
import batchsim.core.model.TopologyRequest;
import batchsim.core.model.TopologySpec;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Topology Aware Scheduling inside the Kueue engine: the TAS flavors' trees, the topology assignments of
 * admitted workloads (their per-domain usage), TAS in flavor assignment, preemption and the cycle, and node
 * failure repair through the second-pass queue.
 *
 * <p>Ports, @ ff69552e: {@code flavorassigner/tas_flavorassigner.go} (which podSets need TAS, flavor
 * matching, TAS requests), the TAS parts of {@code flavorassigner.go} and {@code scheduler.go} (Fit →
 * Preempt → NoFit via "would it fit on an empty cluster", updateAssignmentForTAS, net TAS usage),
 * {@code cache/scheduler/tas_flavor_snapshot.go} FindTopologyAssignmentsForFlavor and
 * findReplacementAssignment, {@code cache/queue/second_pass_queue.go} (backoff 1 s doubling to 30 s) and
 * {@code controller/tas/node_controller.go} (unhealthy nodes; a second one evicts).
 */
final class Tas {
  static final long SECOND_PASS_INITIAL_MS = 1_000;
  static final long SECOND_PASS_MAX_MS = 30_000;

  private final KueueEngine engine;
  private int nRes;
  private int podsRes;
  /** Per flavor index; null for a non-TAS flavor. Null array: TAS not configured. */
  private TasFlavorSnapshot[] byFlavor;
  private final List<TasFlavorSnapshot> snapshots = new ArrayList<>();
  private final Map<String, TopologySpec> topologies = new LinkedHashMap<>();
  /** TAS workloads holding quota, with their assignments, in admission order. */
  private final Map<Workload, Admitted> admitted = new LinkedHashMap<>();
  /** Node name → workloads with pods assigned there (hostname-level trees only). */
  private final Map<String, Set<Workload>> onNode = new HashMap<>();
  /** Kueue secondPassQueue: workload → time it becomes ready. */
  private final Map<Workload, Long> secondPass = new LinkedHashMap<>();
  /** Counters for reports: replacements found, evictions for node failures. */
  int repairs;
  int nodeFailureEvictions;

  Tas(KueueEngine engine) {
    this.engine = engine;
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

  // ------------------------------------------------------------------ which podSets use TAS

  /** Kueue isTASOnly: every flavor of the ClusterQueue is a TAS flavor. */
  boolean tasOnly(ClusterQueue cq) {
    if (!enabled()) {
      return false;
    }
    for (ResourceGroup g : cq.groups) {
      for (int f : g.flavors()) {
        if (byFlavor[f] == null) {
          return false;
        }
      }
    }
    return true;
  }

  /** Kueue isTASRequested: explicitly (a topology request) or implied by a TAS-only ClusterQueue. */
  boolean requested(PodSetSpec ps, ClusterQueue cq) {
    return enabled() && (ps.topology() != null || tasOnly(cq));
  }

  boolean requestsTas(Workload w, ClusterQueue cq) {
    for (PodSetSpec ps : w.spec.podSets()) {
      if (requested(ps, cq)) {
        return true;
      }
    }
    return false;
  }

  /** Kueue checkPodSetAndFlavorMatchForTAS: null when the flavor may serve the podSet. */
  String checkFlavor(ClusterQueue cq, PodSetSpec ps, int flavor, ResourceGroup g) {
    if (byFlavor == null) {
      return null;
    }
    String name = engine.index.flavorName(flavor);
    TasFlavorSnapshot s = byFlavor[flavor];
    if (requested(ps, cq)) {
      if (ps.topology() == null) {
        return null; // implied: every flavor of a TAS-only ClusterQueue matches
      }
      if (s == null) {
        for (int r : g.covered()) {
          if (ps.perPod().get(r) > 0) {
            return "Flavor \"" + name + "\" does not support TopologyAwareScheduling";
          }
        }
        return null; // it may still provide resources the TAS flavor does not cover
      }
      if (!hasLevels(s, ps.topology())) {
        return "Flavor \"" + name + "\" does not contain the requested level";
      }
      return null;
    }
    return s != null ? "Flavor \"" + name + "\" supports only TopologyAwareScheduling" : null;
  }

  /** Kueue TASFlavorSnapshot.HasLevel. */
  private static boolean hasLevels(TasFlavorSnapshot s, TopologyRequest r) {
    if (r.mode() != TopologyRequest.Mode.UNCONSTRAINED && s.levelIndex(r.level()) < 0) {
      return false;
    }
    for (TopologyRequest.SliceLayer l : r.slices()) {
      if (s.levelIndex(l.level()) < 0) {
        return false;
      }
    }
    return true;
  }

  // ------------------------------------------------------------------ placements

  /** One podSet's TAS request and, once placed, its assignment (Kueue PodSetAssignment.TopologyAssignment). */
  static final class PodSetTas {
    final int podSet;
    final TasFlavorSnapshot snap;
    final PodSetRequest request;
    TopologyAssignment assignment;
    /**
     * Kueue DelayedTopologyRequest: "Pending" while placement waits for the ProvisioningRequest check
     * (first pass reserves quota only), "Ready" once placed; null when never delayed.
     */
    String delayed;

    PodSetTas(int podSet, TasFlavorSnapshot snap, PodSetRequest request) {
      this.podSet = podSet;
      this.snap = snap;
      this.request = request;
    }

    PodSetTas copy() {
      PodSetTas c = new PodSetTas(podSet, snap, request);
      c.assignment = assignment;
      c.delayed = delayed;
      return c;
    }

    boolean pending() {
      return DELAYED_PENDING.equals(delayed);
    }
  }

  static final String DELAYED_PENDING = "Pending";
  static final String DELAYED_READY = "Ready";

  /**
   * Kueue podSetTopologyRequest: with a ProvisioningRequest admission check, the first pass (no quota yet)
   * delays placement; it happens in a second pass once the checks are Ready. batchsim's only admission
   * check controller is ProvisioningRequest, so any check on the ClusterQueue delays.
   */
  private static boolean delays(ClusterQueue cq, Workload w) {
    return !w.holdsQuota() && cq.spec.admissionChecks() != null && !cq.spec.admissionChecks().isEmpty();
  }

  private static List<PodSetTas> active(List<PodSetTas> reqs) {
    List<PodSetTas> out = new ArrayList<>();
    for (PodSetTas r : reqs) {
      if (!r.pending()) {
        out.add(r);
      }
    }
    return out;
  }

  /** The found placements plus the delayed podSets (no assignment), in podSet order. */
  private static List<PodSetTas> withDelayed(List<PodSetTas> placed, List<PodSetTas> reqs) {
    List<PodSetTas> out = new ArrayList<>(placed);
    for (PodSetTas r : reqs) {
      if (r.pending()) {
        out.add(r);
      }
    }
    out.sort(Comparator.comparingInt(p -> p.podSet));
    return out;
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

  /** An admitted TAS workload: its assignments and its node-failure state. */
  static final class Admitted {
    final List<PodSetTas> podSets;
    String unhealthyNode;
    int secondPassIteration;

    Admitted(List<PodSetTas> podSets) {
      this.podSets = podSets;
    }
  }

  /** Kueue WorkloadsTopologyRequests: the TAS requests of an assignment's podSets (errors mark the podSet). */
  private List<PodSetTas> requests(Workload w, ClusterQueue cq, Assignment a) {
    List<PodSetTas> out = new ArrayList<>();
    List<PodSetSpec> specs = w.spec.podSets();
    boolean delay = delays(cq, w);
    for (int i = 0; i < specs.size() && i < a.podSets.size(); i++) {
      PodSetSpec ps = specs.get(i);
      PodSetAssignment psa = a.podSets.get(i);
      if (!requested(ps, cq) || (!psa.reasons.isEmpty() && !psa.hasFlavors()) || psa.count == 0) {
        continue;
      }
      TasFlavorSnapshot snap = null;
      Set<Integer> tasFlavors = new java.util.TreeSet<>();
      for (int f : psa.flavor) {
        if (f >= 0 && byFlavor[f] != null) {
          tasFlavors.add(f);
        }
      }
      if (tasFlavors.size() != 1) {
        psa.reasons.add(tasFlavors.isEmpty() ? "no TAS flavor assigned"
            : "more than one TAS flavor assigned: " + tasFlavors.stream().map(engine.index::flavorName).toList());
        java.util.Arrays.fill(psa.flavor, -1); // Kueue psError: the podSet becomes NoFit
        continue;
      }
      snap = byFlavor[tasFlavors.iterator().next()];
      PodSetTas p = new PodSetTas(i, snap, podSetRequest(ps, psa.count));
      p.delayed = delay ? DELAYED_PENDING : null;
      out.add(p);
    }
    return out;
  }

  private PodSetRequest podSetRequest(PodSetSpec ps, int count) {
    long[] req = new long[nRes];
    for (int r = 0; r < nRes; r++) {
      req[r] = ps.perPod().get(r);
    }
    if (podsRes >= 0) {
      req[podsRes] += 1; // Kueue adds OnePodRequest
    }
    return new PodSetRequest(ps.name(), req, count, ps.topology(), ps.nodeSelector(), ps.tolerations());
  }

  /** The outcome of placing every TAS podSet of a workload: placed podSets, or the first failure. */
  private record Found(List<PodSetTas> placed, PodSetTas failed, String reason) {
    boolean ok() {
      return failed == null;
    }
  }

  /**
   * Kueue FindTopologyAssignmentsForWorkload: flavors in name order, podSets in spec order; each success is
   * assumed for the next podSet; the first failure stops.
   */
  private Found find(List<PodSetTas> reqs, boolean simulateEmpty) {
    List<PodSetTas> placed = new ArrayList<>();
    for (TasFlavorSnapshot s : snapshots) {
      Map<Integer, long[]> assumed = new HashMap<>();
      for (PodSetTas r : reqs) {
        if (r.snap != s) {
          continue;
        }
        TopologyAssigner.Result res = s.assigner().assign(r.request, assumed, simulateEmpty, null);
        PodSetTas p = new PodSetTas(r.podSet, s, r.request);
        if (!res.ok()) {
          return new Found(placed, p, res.failure());
        }
        p.assignment = res.assignment();
        placed.add(p);
        assume(assumed, p);
      }
    }
    placed.sort(Comparator.comparingInt(p -> p.podSet));
    return new Found(placed, null, null);
  }

  private void assume(Map<Integer, long[]> assumed, PodSetTas p) {
    for (TopologyAssignment.Slot slot : p.assignment.slots()) {
      long[] a = assumed.computeIfAbsent(slot.leaf(), k -> new long[nRes]);
      for (int r = 0; r < nRes; r++) {
        a[r] += p.request.podRequest()[r] * slot.count();
      }
    }
  }

  /**
   * The TAS step at the end of Kueue's assignFlavors: a quota Fit is placed on the live tree, and a failure
   * turns the podSet to Preempt; a Preempt (from quota or from TAS) is tried on an empty cluster
   * (simulateEmpty): failing there means NoFit (TopologyPlacementFailed), succeeding turns every TAS podSet
   * to Preempt, covering "quota fits but the nodes are fragmented". A node replacement never preempts.
   */
  void assignFlavors(Workload w, ClusterQueue cq, Assignment a) {
    if (!enabled()) {
      return;
    }
    List<PodSetTas> all = requests(w, cq, a);
    List<PodSetTas> reqs = active(all);
    if (reqs.size() < all.size()) {
      a.tas = new Placement(withDelayed(List.of(), all), false); // delayed: quota only on this pass
    }
    if (reqs.isEmpty()) {
      return;
    }
    if (a.representativeMode() == AssignmentMode.FIT) {
      Found f = find(reqs, false);
      if (!f.ok()) {
        PodSetAssignment psa = a.podSets.get(f.failed.podSet);
        psa.reasons.add(f.reason);
        a.updateMode(psa, AssignmentMode.PREEMPT);
      } else {
        a.tas = new Placement(withDelayed(f.placed, all), false);
      }
    }
    if (a.representativeMode() == AssignmentMode.PREEMPT) {
      Found f = find(reqs, true);
      if (!f.ok()) {
        PodSetAssignment psa = a.podSets.get(f.failed.podSet);
        String flavor = f.failed.snap.flavorName();
        psa.noFitAttempts.removeIf(att -> att[0].equals(flavor));
        psa.noFitAttempts.add(new String[] {flavor, "TopologyPlacementFailed"});
        a.updateMode(psa, AssignmentMode.NO_FIT);
      } else {
        for (PodSetTas r : reqs) {
          a.updateMode(a.podSets.get(r.podSet), AssignmentMode.PREEMPT);
        }
      }
    }
  }

  /**
   * Kueue updateAssignmentForTAS: a Preempt assignment gets the placement it would have once its targets
   * are gone, or, without targets, the placement on an empty cluster, so that the capacity it waits for
   * can be reserved for it during the cycle.
   */
  void updateForPreemption(Workload w, ClusterQueue cq, Assignment a, List<Target> targets) {
    if (!enabled() || a.representativeMode() != AssignmentMode.PREEMPT || !requestsTas(w, cq)) {
      return;
    }
    List<PodSetTas> all = requests(w, cq, a);
    List<PodSetTas> reqs = active(all);
    Found f;
    if (!targets.isEmpty()) {
      for (Target t : targets) {
        engine.workloads.removeUsage(t.workload());
      }
      f = find(reqs, false);
      for (Target t : targets) {
        engine.workloads.addUsage(t.workload());
      }
    } else {
      f = find(reqs, true);
    }
    a.tas = new Placement(withDelayed(f.placed, all), false); // Kueue UpdateForTASResult keeps what was found
  }

  /** Kueue workloadFits, TAS part: do all TAS podSets of the assignment place on the live tree? */
  boolean placeable(Workload w, ClusterQueue cq, Assignment a) {
    if (!enabled()) {
      return true;
    }
    List<PodSetTas> reqs = active(requests(w, cq, a));
    return reqs.isEmpty() || find(reqs, false).ok();
  }

  // ------------------------------------------------------------------ usage

  /** Per-leaf TAS usage of some pods (Kueue TopologyDomainRequests): add or remove it as one. */
  static final class Usage {
    static final Usage EMPTY = new Usage(List.of());
    final List<Object[]> items; // {snap, leafIdx, podRequest, count}

    Usage(List<Object[]> items) {
      this.items = items;
    }

    boolean isEmpty() {
      return items.isEmpty();
    }
  }

  /**
   * Kueue ComputeTASNetUsage: the pods of the assignment per leaf, minus those the workload's current
   * admission already accounts for (a node replacement only claims its new domains).
   */
  Usage netUsage(Workload w, Assignment a) {
    if (a == null || a.tas == null) {
      return Usage.EMPTY;
    }
    Admitted prev = a.tas.secondPass ? admitted.get(w) : null;
    List<Object[]> items = new ArrayList<>();
    for (PodSetTas p : a.tas.podSets) {
      if (p.assignment == null) {
        continue;
      }
      TopologyAssignment before = null;
      if (prev != null) {
        for (PodSetTas q : prev.podSets) {
          if (q.podSet == p.podSet) {
            before = q.assignment;
          }
        }
      }
      for (TopologyAssignment.Slot s : p.assignment.slots()) {
        int count = s.count() - (before == null ? 0 : before.countOn(s.leaf()));
        if (count > 0) {
          items.add(new Object[] {p.snap, s.leaf(), p.request.podRequest(), count});
        }
      }
    }
    return items.isEmpty() ? Usage.EMPTY : new Usage(items);
  }

  void apply(Usage u, int sign) {
    for (Object[] it : u.items) {
      addTasUsage((TasFlavorSnapshot) it[0], (int) it[1], (long[]) it[2], (int) it[3], sign);
    }
  }

  /** Kueue TASFlavorSnapshot.Fits for every flavor of the usage. */
  boolean fits(Usage u) {
    long[] avail = new long[nRes];
    for (Object[] it : u.items) {
      TasFlavorSnapshot s = (TasFlavorSnapshot) it[0];
      Domain leaf = s.leaf((int) it[1]);
      if (!s.fitsOn(leaf, (long[]) it[2], (int) it[3], avail)) {
        return false;
      }
    }
    return true;
  }

  /** Adds TAS usage on a leaf, and on the same hostname in other hostname-level trees (overlapping flavors). */
  private void addTasUsage(TasFlavorSnapshot s, int leafIdx, long[] podReq, int count, int sign) {
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

  /** Removes (-1) or restores (+1) an admitted workload's TAS usage, for preemption simulations. */
  void workloadUsage(Workload w, int sign) {
    Admitted adm = admitted.get(w);
    if (adm == null) {
      return;
    }
    for (PodSetTas p : adm.podSets) {
      if (p.assignment == null) {
        continue; // delayed: no domains yet
      }
      for (TopologyAssignment.Slot s : p.assignment.slots()) {
        addTasUsage(p.snap, s.leaf(), p.request.podRequest(), s.count(), sign);
      }
    }
  }

  // ------------------------------------------------------------------ admission and release

  /** A first admission: the workload's assignments take their capacity. */
  void admit(Workload w, Assignment a) {
    if (a.tas == null || a.tas.podSets.isEmpty()) {
      return;
    }
    List<PodSetTas> podSets = new ArrayList<>();
    for (PodSetTas p : a.tas.podSets) {
      if (p.assignment != null || p.pending()) {
        podSets.add(p.copy());
      }
    }
    Admitted adm = new Admitted(podSets);
    admitted.put(w, adm);
    workloadUsage(w, +1);
    index(w, adm, true);
  }

  /** The workload released its quota (finished, evicted and gone, deleted): its TAS usage goes too. */
  void release(Workload w) {
    secondPass.remove(w);
    Admitted adm = admitted.get(w);
    if (adm == null) {
      return;
    }
    workloadUsage(w, -1);
    index(w, adm, false);
    admitted.remove(w);
  }

  private void index(Workload w, Admitted adm, boolean add) {
    for (PodSetTas p : adm.podSets) {
      if (!p.snap.hostnameLowest() || p.assignment == null) {
        continue;
      }
      for (TopologyAssignment.Slot s : p.assignment.slots()) {
        if (add) {
          onNode.computeIfAbsent(s.id(), k -> new LinkedHashSet<>()).add(w);
        } else {
          Set<Workload> set = onNode.get(s.id());
          if (set != null) {
            set.remove(w);
            if (set.isEmpty()) {
              onNode.remove(s.id());
            }
          }
        }
      }
    }
  }

  boolean hasAssignment(Workload w) {
    return admitted.containsKey(w);
  }

  /** Where the pods of an admitted TAS workload go: per podSet, per leaf, its nodes and a count. */
  List<TasPlacement> placement(Workload w) {
    Admitted adm = admitted.get(w);
    if (adm == null) {
      return List.of();
    }
    List<TasPlacement> out = new ArrayList<>();
    for (PodSetTas p : adm.podSets) {
      if (p.assignment == null) {
        continue;
      }
      List<TasPlacement.Slot> slots = new ArrayList<>();
      for (TopologyAssignment.Slot s : p.assignment.slots()) {
        slots.add(new TasPlacement.Slot(s.id(), p.snap.nodeNames(p.snap.leaf(s.leaf())), s.count()));
      }
      out.add(new TasPlacement(p.podSet, p.snap.flavorName(), slots));
    }
    return out;
  }

  // ------------------------------------------------------------------ node failure and the second pass

  /**
   * Kueue's TAS node controller for a node that is gone or NotReady (with its pods terminated): it leaves
   * the trees; every TAS workload assigned to it that holds quota and is not evicted gets it as unhealthy
   * node and is pre-queued for a second pass (after 1 s); a workload that already has a different
   * unhealthy node is evicted ("multiple TAS assigned node failures").
   */
  void nodeFailed(String node) {
    setNodePresent(node, false);
    Set<Workload> ws = onNode.get(node);
    if (ws == null) {
      return;
    }
    for (Workload w : new ArrayList<>(ws)) {
      Admitted adm = admitted.get(w);
      if (adm == null || !w.holdsQuota() || w.isEvicted()) {
        continue;
      }
      if (adm.unhealthyNode != null && !adm.unhealthyNode.equals(node)) {
        nodeFailureEvictions++;
        engine.workloads.evict(w, "NodeFailures", null, "Workload eviction triggered due to multiple TAS assigned node "
            + "failures, including: " + adm.unhealthyNode + ", " + node);
        secondPass.remove(w);
        continue;
      }
      if (adm.unhealthyNode == null) {
        adm.unhealthyNode = node;
        adm.secondPassIteration = 0;
        queueSecondPass(w, adm);
        engine.stateCheck.touch(w);
      }
    }
  }

  /** The node is Ready again: back in the trees, and no longer unhealthy for workloads not yet repaired. */
  void nodeRecovered(String node) {
    setNodePresent(node, true);
    Set<Workload> ws = onNode.get(node);
    if (ws == null) {
      return;
    }
    for (Workload w : ws) {
      Admitted adm = admitted.get(w);
      if (adm != null && node.equals(adm.unhealthyNode)) {
        adm.unhealthyNode = null;
        adm.secondPassIteration = 0;
        secondPass.remove(w);
      }
    }
  }

  /** Kueue NeedsSecondPass (node-failure case): quota held, not finished or evicted, an unhealthy node. */
  boolean needsSecondPass(Workload w) {
    Admitted adm = admitted.get(w);
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
    Admitted adm = admitted.get(w);
    if (adm == null || !awaitsDelayedTopology(w, adm)) {
      return false;
    }
    adm.secondPassIteration = 0;
    return queueSecondPass(w, adm);
  }

  /** Kueue's DelayedTopologyRequest of a podSet of a workload holding quota: Pending, Ready, or null. */
  String delayedTopologyRequest(Workload w, int podSet) {
    Admitted adm = admitted.get(w);
    if (adm != null) {
      for (PodSetTas p : adm.podSets) {
        if (p.podSet == podSet) {
          return p.delayed;
        }
      }
    }
    return null;
  }

  /** Kueue QueueSecondPassIfNeeded: pre-queues with backoff 1 s × 2^(iteration−1), capped at 30 s. */
  private boolean queueSecondPass(Workload w, Admitted adm) {
    if (!needsSecondPass(w)) {
      secondPass.remove(w);
      return false;
    }
    adm.secondPassIteration++;
    long at = engine.now() + backoff(adm.secondPassIteration);
    secondPass.put(w, at);
    engine.host.scheduleSecondPass(at);
    return true;
  }

  static long backoff(int iteration) {
    return Backoff.exponential(SECOND_PASS_INITIAL_MS, SECOND_PASS_MAX_MS, iteration);
  }

  /** A second-pass entry that did not get admitted goes back to the second-pass queue, not to its ClusterQueue. */
  boolean requeueSecondPass(Workload w) {
    Admitted adm = admitted.get(w);
    return adm != null && queueSecondPass(w, adm);
  }

  /** Kueue secondPassQueue.takeAllReady: every queued workload whose delay has passed and still needs it. */
  List<Workload> takeReadySecondPass() {
    if (secondPass.isEmpty()) {
      return List.of();
    }
    long now = engine.now();
    List<Workload> out = new ArrayList<>();
    var it = secondPass.entrySet().iterator();
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

  boolean inSecondPassQueue(Workload w) {
    return secondPass.containsKey(w);
  }

  /** Kueue QueueSecondPassIfNeeded on an update: an evicted workload leaves the second-pass queue. */
  void forgetSecondPass(Workload w) {
    secondPass.remove(w);
  }

  /** Test hook: queue a second pass without the eligibility check (to prove the invariant fires). */
  void forceSecondPassForTest(Workload w) {
    secondPass.put(w, engine.now());
  }

  /**
   * The second-pass assignment: the admitted flavors stay (Fit, no quota is asked again); the podSets with
   * pods on the unhealthy node get a replacement (Kueue findReplacementAssignment). Fit when every one is
   * found, else Preempt with the reason, and never with preemption targets.
   */
  Assignment secondPassAssignment(Workload w) {
    Admitted adm = admitted.get(w);
    Assignment a = new Assignment();
    int nPs = w.spec.podSets().size();
    for (int i = 0; i < nPs; i++) {
      PodSetAssignment psa = new PodSetAssignment(w.spec.podSets().get(i).name(), w.counts[i], nRes);
      for (int r = 0; r < nRes; r++) {
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
      Found f = find(reqs, false);
      if (!f.ok()) {
        PodSetAssignment psa = a.podSets.get(f.failed.podSet);
        psa.reasons.add(f.reason);
        a.updateMode(psa, AssignmentMode.PREEMPT);
      }
      for (PodSetTas p : adm.podSets) {
        PodSetTas np = p.copy();
        for (PodSetTas placed : f.placed) {
          if (placed.podSet == p.podSet) {
            np.assignment = placed.assignment;
            np.delayed = DELAYED_READY;
          }
        }
        result.add(np);
      }
      a.tas = new Placement(result, true);
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
      String why = replace(np, adm.unhealthyNode, assumed.computeIfAbsent(p.snap, k -> new HashMap<>()));
      if (why != null) {
        PodSetAssignment psa = a.podSets.get(p.podSet);
        psa.reasons.add(why);
        a.updateMode(psa, AssignmentMode.PREEMPT);
        break;
      }
      assume(assumed.get(p.snap), np);
    }
    a.tas = new Placement(result, true);
    a.lastState = null;
    return a;
  }

  /** Kueue findReplacementAssignment; rewrites {@code p.assignment} or returns why it cannot. */
  private String replace(PodSetTas p, String unhealthy, Map<Integer, long[]> assumed) {
    TasFlavorSnapshot s = p.snap;
    Domain failed = s.leafById(unhealthy);
    int count = p.assignment.countOn(failed.leafIdx());
    List<TopologyAssignment.Slot> kept = new ArrayList<>();
    for (TopologyAssignment.Slot slot : p.assignment.slots()) {
      if (slot.leaf() != failed.leafIdx()) {
        kept.add(slot);
      }
    }
    for (TopologyAssignment.Slot slot : kept) {
      if (!s.leaf(slot.leaf()).present()) {
        return "Cannot replace the node, because the existing topologyAssignment is invalid, as it contains the "
            + "stale domain " + slot.id();
      }
    }
    TopologyRequest tr = p.request.request();
    Domain within = requiredReplacementDomain(s, tr, kept, count);
    if (tr != null && tr.hasSlices() && within != null && count % tr.slices().get(0).size() != 0) {
      // Keep leaf-level grouping: the innermost slice layer whose size divides the replacement count.
      TopologyRequest.SliceLayer inner = null;
      for (int i = tr.slices().size() - 1; i >= 0 && inner == null; i--) {
        if (count % tr.slices().get(i).size() == 0) {
          inner = tr.slices().get(i);
        }
      }
      tr = new TopologyRequest(tr.mode(), tr.level(),
          inner == null ? List.of(new TopologyRequest.SliceLayer(s.levels().get(s.levels().size() - 1), 1))
              : List.of(inner));
    }
    PodSetRequest req = new PodSetRequest(p.request.name(), p.request.podRequest(), count, tr,
        p.request.nodeSelector(), p.request.tolerations());
    TopologyAssigner.Result r = s.assigner().assign(req, assumed, false, within);
    if (!r.ok()) {
      return r.failure();
    }
    if (r.assignment().slots().isEmpty()) {
      return "cannot find replacement assignment for unhealthy node: " + unhealthy;
    }
    // Kueue mergeTopologyAssignments: sorted by level values, duplicates summed.
    TreeMap<Integer, int[]> byRank = new TreeMap<>();
    Map<Integer, TopologyAssignment.Slot> any = new HashMap<>();
    for (List<TopologyAssignment.Slot> part : List.of(kept, r.assignment().slots())) {
      for (TopologyAssignment.Slot slot : part) {
        int rank = s.leaf(slot.leaf()).rankOf();
        byRank.computeIfAbsent(rank, k -> new int[1])[0] += slot.count();
        any.put(rank, slot);
      }
    }
    List<TopologyAssignment.Slot> merged = new ArrayList<>();
    byRank.forEach((rank, c) -> merged.add(new TopologyAssignment.Slot(any.get(rank).leaf(), any.get(rank).id(), c[0])));
    p.assignment = new TopologyAssignment(merged);
    return null;
  }

  /**
   * Kueue requiredReplacementDomain: a required request stays in the domain of the remaining pods at the
   * required level; a slice request whose slice is now incomplete stays in that slice's domain; anything
   * else may go anywhere (null).
   */
  private static Domain requiredReplacementDomain(TasFlavorSnapshot s, TopologyRequest tr,
      List<TopologyAssignment.Slot> kept, int count) {
    if (kept.isEmpty()) {
      return null;
    }
    if (tr != null && tr.hasSlices()) {
      int size = tr.slices().get(0).size();
      if (size > 0 && count % size != 0) {
        TopologyRequest.SliceLayer layer = tr.slices().get(0);
        if (tr.slices().size() > 1) {
          for (int i = tr.slices().size() - 1; i >= 0; i--) {
            if (count % tr.slices().get(i).size() != 0) {
              layer = tr.slices().get(i);
              break;
            }
          }
        }
        int level = s.levelIndex(layer.level());
        if (level < 0) {
          return null;
        }
        Map<Domain, Integer> pods = new LinkedHashMap<>();
        for (TopologyAssignment.Slot slot : kept) {
          pods.merge(s.leaf(slot.leaf()).ancestorAt(level), slot.count(), Integer::sum);
        }
        for (Map.Entry<Domain, Integer> e : pods.entrySet()) {
          if ((e.getValue() + count) % layer.size() == 0) {
            return e.getKey();
          }
        }
        return null;
      }
    }
    if (tr == null || tr.mode() != TopologyRequest.Mode.REQUIRED) {
      return null;
    }
    int level = s.levelIndex(tr.level());
    return level < 0 ? null : s.leaf(kept.get(0).leaf()).ancestorAt(level);
  }

  /**
   * A second pass succeeded: the workload keeps its quota and takes the new domains (a node replacement,
   * or its delayed topology). Returns true for a delayed topology: the workload is to be Admitted now.
   */
  boolean admitSecondPass(Workload w, Assignment a) {
    Admitted adm = admitted.get(w);
    boolean delayed = false;
    for (PodSetTas p : adm.podSets) {
      delayed |= p.pending();
    }
    workloadUsage(w, -1);
    index(w, adm, false);
    adm.podSets.clear();
    for (PodSetTas p : a.tas.podSets) {
      adm.podSets.add(p.copy());
    }
    adm.unhealthyNode = null;
    adm.secondPassIteration = 0;
    secondPass.remove(w);
    workloadUsage(w, +1);
    index(w, adm, true);
    if (!delayed) {
      repairs++;
    }
    return delayed;
  }

  /** Kueue handleFailedTASReplacement (fail-fast): evict with reason NodeFailures. */
  void evictFailedReplacement(Workload w) {
    Admitted adm = admitted.get(w);
    nodeFailureEvictions++;
    secondPass.remove(w);
    engine.workloads.evict(w, "NodeFailures", null, "Workload was evicted as there was no replacement for unhealthy node(s): "
        + (adm == null ? "" : adm.unhealthyNode));
  }

  String unhealthyNode(Workload w) {
    Admitted adm = admitted.get(w);
    return adm == null ? null : adm.unhealthyNode;
  }

  /** Recomputes every leaf's TAS usage from the admitted workloads; returns mismatches (checked mode). */
  List<String> checkInvariants() {
    List<String> out = new ArrayList<>();
    if (!enabled()) {
      return out;
    }
    for (Workload w : admitted.keySet()) {
      if (!w.holdsQuota()) {
        out.add("TAS workload " + w.id() + " keeps a topology assignment in state " + w.state);
      }
    }
    for (TasFlavorSnapshot s : snapshots) {
      out.addAll(s.checkUsage());
      Map<Integer, long[]> expected = new HashMap<>();
      for (Admitted adm : admitted.values()) {
        for (PodSetTas p : adm.podSets) {
          if (p.assignment == null) {
            continue;
          }
          for (TopologyAssignment.Slot slot : p.assignment.slots()) {
            Domain leaf = p.snap == s ? s.leaf(slot.leaf())
                : (p.snap.hostnameLowest() && s.hostnameLowest() ? s.leafById(slot.id()) : null);
            if (leaf == null) {
              continue;
            }
            long[] e = expected.computeIfAbsent(leaf.leafIdx(), k -> new long[nRes]);
            for (int r = 0; r < nRes; r++) {
              e[r] += p.request.podRequest()[r] * slot.count();
            }
          }
        }
      }
      for (Domain leaf : s.leaves()) {
        long[] e = expected.getOrDefault(leaf.leafIdx(), new long[nRes]);
        for (int r = 0; r < nRes; r++) {
          if (s.tasUsage(leaf, r) != e[r]) {
            out.add("TAS flavor " + s.flavorName() + " leaf " + leaf.id() + " caches TAS usage " + s.tasUsage(leaf, r)
                + " of " + engine.index.resources().name(r) + " but its workloads use " + e[r]);
          }
        }
      }
    }
    return out;
  }
}
