package batchsim.core.kueue;

import batchsim.core.kueue.tas.Domain;
import batchsim.core.kueue.tas.TasFlavorSnapshot;
import batchsim.core.kueue.tas.TasPlacement;
import batchsim.core.kueue.tas.TopologyAssignment;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * [TAS] The topology assignments of the workloads holding quota (Kueue's TAS cache of workload usage):
 * their per-domain usage on the trees, added, removed for preemption and fits simulations, and checked;
 * the index of workloads by node that node failures look up; where their pods go.
 */
final class TasAdmissions {
  private final KueueEngine engine;
  private final Tas tas;
  /** TAS workloads holding quota, with their assignments, in admission order. */
  private final Map<Workload, Admitted> admitted = new LinkedHashMap<>();
  /** Node name → workloads with pods assigned there (hostname-level trees only). */
  private final Map<String, Set<Workload>> onNode = new HashMap<>();

  TasAdmissions(KueueEngine engine, Tas tas) {
    this.engine = engine;
    this.tas = tas;
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
      tas.addTasUsage((TasFlavorSnapshot) it[0], (int) it[1], (long[]) it[2], (int) it[3], sign);
    }
  }

  /** Kueue TASFlavorSnapshot.Fits for every flavor of the usage. */
  boolean fits(Usage u) {
    long[] avail = new long[tas.nRes];
    for (Object[] it : u.items) {
      TasFlavorSnapshot s = (TasFlavorSnapshot) it[0];
      Domain leaf = s.leaf((int) it[1]);
      if (!s.fitsOn(leaf, (long[]) it[2], (int) it[3], avail)) {
        return false;
      }
    }
    return true;
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
        tas.addTasUsage(p.snap, s.leaf(), p.request.podRequest(), s.count(), sign);
      }
    }
  }

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

  /** The workload released its quota: its assignments and their usage go. */
  void release(Workload w) {
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

  /** The admitted TAS workload's assignments and node-failure state, or null. */
  Admitted get(Workload w) {
    return admitted.get(w);
  }

  /** The workloads with pods assigned to a node, or null. */
  Set<Workload> onNode(String node) {
    return onNode.get(node);
  }

  /** A second pass placed the workload anew: it takes the new domains and is healthy again. */
  void reassign(Workload w, Admitted adm, List<PodSetTas> podSets) {
    workloadUsage(w, -1);
    index(w, adm, false);
    adm.podSets.clear();
    for (PodSetTas p : podSets) {
      adm.podSets.add(p.copy());
    }
    adm.unhealthyNode = null;
    adm.secondPassIteration = 0;
    workloadUsage(w, +1);
    index(w, adm, true);
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

  String unhealthyNode(Workload w) {
    Admitted adm = admitted.get(w);
    return adm == null ? null : adm.unhealthyNode;
  }

  /** Recomputes every leaf's TAS usage from the admitted workloads; returns mismatches (checked mode). */
  List<String> checkInvariants() {
    List<String> out = new ArrayList<>();
    if (!tas.enabled()) {
      return out;
    }
    for (Workload w : admitted.keySet()) {
      if (!w.holdsQuota()) {
        out.add("TAS workload " + w.id() + " keeps a topology assignment in state " + w.state);
      }
    }
    for (TasFlavorSnapshot s : tas.snapshots()) {
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
            long[] e = expected.computeIfAbsent(leaf.leafIdx(), k -> new long[tas.nRes]);
            for (int r = 0; r < tas.nRes; r++) {
              e[r] += p.request.podRequest()[r] * slot.count();
            }
          }
        }
      }
      for (Domain leaf : s.leaves()) {
        long[] e = expected.getOrDefault(leaf.leafIdx(), new long[tas.nRes]);
        for (int r = 0; r < tas.nRes; r++) {
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
