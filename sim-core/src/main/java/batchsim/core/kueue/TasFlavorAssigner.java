package batchsim.core.kueue;

import batchsim.core.kueue.Assignment.PodSetAssignment;
import batchsim.core.kueue.tas.PodSetRequest;
import batchsim.core.kueue.tas.TasFlavorSnapshot;
import batchsim.core.kueue.tas.TopologyAssigner;
import batchsim.core.kueue.tas.TopologyAssignment;
import batchsim.core.model.PodSetSpec;
import batchsim.core.model.TopologyRequest;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * [TAS] Topology Aware Scheduling in flavor assignment (Kueue flavorassigner/tas_flavorassigner.go and the
 * TAS parts of flavorassigner.go and scheduler.go): which podSets need TAS, whether a flavor may serve
 * them, their topology requests, and placing them on the trees, live or on an empty cluster (Fit → Preempt
 * → NoFit), also for a preemptor whose targets are gone.
 */
final class TasFlavorAssigner {
  private final KueueEngine engine;
  private final Tas tas;

  TasFlavorAssigner(KueueEngine engine, Tas tas) {
    this.engine = engine;
    this.tas = tas;
  }

  /** Kueue isTASOnly: every flavor of the ClusterQueue is a TAS flavor. */
  boolean tasOnly(ClusterQueue cq) {
    if (!tas.enabled()) {
      return false;
    }
    for (ResourceGroup g : cq.groups) {
      for (int f : g.flavors()) {
        if (tas.byFlavor[f] == null) {
          return false;
        }
      }
    }
    return true;
  }

  /** Kueue isTASRequested: explicitly (a topology request) or implied by a TAS-only ClusterQueue. */
  boolean requested(PodSetSpec ps, ClusterQueue cq) {
    return tas.enabled() && (ps.topology() != null || tasOnly(cq));
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
    if (tas.byFlavor == null) {
      return null;
    }
    String name = engine.index.flavorName(flavor);
    TasFlavorSnapshot s = tas.byFlavor[flavor];
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

  /**
   * Kueue podSetTopologyRequest: with a ProvisioningRequest admission check, the first pass (no quota yet)
   * delays placement; it happens in a second pass once the checks are Ready. batchsim's only admission
   * check controller is ProvisioningRequest, so any check on the ClusterQueue that applies to the TAS flavor
   * (HasProvRequestAdmissionCheck(flavor): admissionChecksStrategy onFlavors) delays.
   */
  private boolean delays(ClusterQueue cq, Workload w, int tasFlavor) {
    if (w.holdsQuota() || cq.spec.admissionChecks() == null) {
      return false;
    }
    List<String> flavor = List.of(engine.index.flavorName(tasFlavor));
    return cq.spec.admissionChecks().stream().anyMatch(c -> cq.spec.appliesTo(c, flavor));
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

  /** Kueue WorkloadsTopologyRequests: the TAS requests of an assignment's podSets (errors mark the podSet). */
  private List<PodSetTas> requests(Workload w, ClusterQueue cq, Assignment a) {
    List<PodSetTas> out = new ArrayList<>();
    List<PodSetSpec> specs = w.spec.podSets();
    for (int i = 0; i < specs.size() && i < a.podSets.size(); i++) {
      PodSetSpec ps = specs.get(i);
      PodSetAssignment psa = a.podSets.get(i);
      if (!requested(ps, cq) || (!psa.reasons.isEmpty() && !psa.hasFlavors()) || psa.count == 0) {
        continue;
      }
      TasFlavorSnapshot snap = null;
      Set<Integer> tasFlavors = new java.util.TreeSet<>();
      for (int f : psa.flavor) {
        if (f >= 0 && tas.byFlavor[f] != null) {
          tasFlavors.add(f);
        }
      }
      if (tasFlavors.size() != 1) {
        psa.reasons.add(tasFlavors.isEmpty() ? "no TAS flavor assigned"
            : "more than one TAS flavor assigned: " + tasFlavors.stream().map(engine.index::flavorName).toList());
        java.util.Arrays.fill(psa.flavor, -1); // Kueue psError: the podSet becomes NoFit
        continue;
      }
      int tasFlavor = tasFlavors.iterator().next();
      snap = tas.byFlavor[tasFlavor];
      PodSetTas p = new PodSetTas(i, snap, podSetRequest(ps, psa.count));
      p.delayed = delays(cq, w, tasFlavor) ? PodSetTas.DELAYED_PENDING : null;
      out.add(p);
    }
    return out;
  }

  private PodSetRequest podSetRequest(PodSetSpec ps, int count) {
    long[] req = new long[tas.nRes];
    for (int r = 0; r < tas.nRes; r++) {
      req[r] = ps.perPod().get(r);
    }
    if (tas.podsRes >= 0) {
      req[tas.podsRes] += 1; // Kueue adds OnePodRequest
    }
    return new PodSetRequest(ps.name(), req, count, ps.topology(), ps.nodeSelector(), ps.tolerations());
  }

  /** The outcome of placing every TAS podSet of a workload: placed podSets, or the first failure. */
  record Found(List<PodSetTas> placed, PodSetTas failed, String reason) {
    boolean ok() {
      return failed == null;
    }
  }

  /**
   * Kueue FindTopologyAssignmentsForWorkload: flavors in name order, podSets in spec order; each success is
   * assumed for the next podSet; the first failure stops.
   */
  Found find(List<PodSetTas> reqs, boolean simulateEmpty) {
    List<PodSetTas> placed = new ArrayList<>();
    for (TasFlavorSnapshot s : tas.snapshots()) {
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

  void assume(Map<Integer, long[]> assumed, PodSetTas p) {
    for (TopologyAssignment.Slot slot : p.assignment.slots()) {
      long[] a = assumed.computeIfAbsent(slot.leaf(), k -> new long[tas.nRes]);
      for (int r = 0; r < tas.nRes; r++) {
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
    if (!tas.enabled()) {
      return;
    }
    List<PodSetTas> all = requests(w, cq, a);
    List<PodSetTas> reqs = active(all);
    if (reqs.size() < all.size()) {
      a.tas = new Tas.Placement(withDelayed(List.of(), all), false); // delayed: quota only on this pass
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
        a.tas = new Tas.Placement(withDelayed(f.placed, all), false);
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
    if (!tas.enabled() || a.representativeMode() != AssignmentMode.PREEMPT || !requestsTas(w, cq)) {
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
    a.tas = new Tas.Placement(withDelayed(f.placed, all), false); // Kueue UpdateForTASResult keeps what was found
  }

  /** Kueue workloadFits, TAS part: do all TAS podSets of the assignment place on the live tree? */
  boolean placeable(Workload w, ClusterQueue cq, Assignment a) {
    if (!tas.enabled()) {
      return true;
    }
    List<PodSetTas> reqs = active(requests(w, cq, a));
    return reqs.isEmpty() || find(reqs, false).ok();
  }
}
