package batchsim.core.kueue;

import batchsim.core.kueue.tas.Domain;
import batchsim.core.kueue.tas.PodSetRequest;
import batchsim.core.kueue.tas.TasFlavorSnapshot;
import batchsim.core.kueue.tas.TopologyAssigner;
import batchsim.core.kueue.tas.TopologyAssignment;
import batchsim.core.model.TopologyRequest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * [TAS] Kueue findReplacementAssignment (cache/scheduler/tas_flavor_snapshot.go): new domains for the pods
 * a podSet had on an unhealthy node, within the domain its remaining pods require, merged with the slots
 * it keeps.
 */
final class NodeReplacement {
  private NodeReplacement() {}

  /** Kueue findReplacementAssignment; rewrites {@code p.assignment} or returns why it cannot. */
  static String replace(PodSetTas p, String unhealthy, Map<Integer, long[]> assumed) {
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
}
