package batchsim.core.kueue.tas;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Phase 1 of Kueue's TAS placement (tas_flavor_snapshot.go {@code fillInCounts}): bottom-up, how many pods
 * of a podSet fit in each leaf (Kueue CountIn of the remaining capacity) and, per domain, the pod and slice
 * counts. Phase 2 ({@link TopologyAssigner}) trims these counts in place as it picks domains. The arrays
 * are scratch owned by the snapshot; the engine is single-threaded.
 */
final class FitCounts {
  private final TasFlavorSnapshot s;
  int[] podCount = new int[0];
  int[] sliceCount = new int[0];

  /**
   * Pods of one shape that fit per leaf, valid while the leaf's version is unchanged: placement runs for
   * every nomination, preemption step and recomputation, but leaves change only when usage lands on them.
   */
  private final Map<ShapeKey, LeafCounts> leafCounts = new HashMap<>();

  private record ShapeKey(List<Long> request, boolean simulateEmpty) {}

  private static final class LeafCounts {
    int[] count = new int[0];
    int[] version = new int[0]; // leaf version + 1; 0 = not computed
    int[] limiting = new int[0];

    void ensure(int leaves) {
      if (count.length < leaves) {
        count = java.util.Arrays.copyOf(count, leaves + 16);
        version = java.util.Arrays.copyOf(version, leaves + 16);
        limiting = java.util.Arrays.copyOf(limiting, leaves + 16);
      }
    }
  }

  FitCounts(TasFlavorSnapshot s) {
    this.s = s;
  }

  /** Grows the scratch arrays to cover every domain of the tree. */
  void ensure(int domains) {
    if (podCount.length < domains) {
      podCount = new int[domains + 16];
      sliceCount = new int[domains + 16];
    }
  }

  private LeafCounts leafCounts(long[] req, boolean simulateEmpty) {
    List<Long> key = new ArrayList<>(req.length);
    for (long v : req) {
      key.add(v);
    }
    if (leafCounts.size() > 256) {
      leafCounts.clear();
    }
    LeafCounts c = leafCounts.computeIfAbsent(new ShapeKey(key, simulateEmpty), k -> new LeafCounts());
    c.ensure(s.tree.leaves.size());
    return c;
  }

  /** What phase 1 depends on besides the tree's state (Kueue recomputes it every call). */
  private record Phase1Key(List<Long> request, boolean simulateEmpty, int sliceSize, int sliceLevel,
      List<Integer> sliceSizeAtLevel, NodeFilter.Filter filter) {}

  /** A phase-1 result: per-domain pod and slice counts, valid while the tree version is unchanged. */
  private record Phase1(long version, int[] podCount, int[] sliceCount, ExclusionStats stats) {}

  private final Map<Phase1Key, Phase1> phase1Memo = new HashMap<>();

  /**
   * Phase 1, memoised: between two changes of the tree, every placement of the same pod shape sees the same
   * counts (nominations, preemption checks and recomputations of one cycle ask again and again). On an empty
   * cluster (simulateEmpty) only allocatable and non-TAS usage matter, which change far less often.
   */
  ExclusionStats phase1(PodSetRequest ps, TopologyAssigner.Params p, Map<Integer, long[]> assumed,
      boolean simulateEmpty, Domain within) {
    boolean memo = (assumed == null || assumed.isEmpty()) && within == null;
    Phase1Key key = null;
    long version = simulateEmpty ? s.tree.capacityVersion : s.tree.version;
    if (memo) {
      List<Long> req = new ArrayList<>(ps.podRequest().length);
      for (long v : ps.podRequest()) {
        req.add(v);
      }
      List<Integer> sizes = new ArrayList<>(p.sliceSizeAtLevel().length);
      for (int v : p.sliceSizeAtLevel()) {
        sizes.add(v);
      }
      key = new Phase1Key(req, simulateEmpty, p.sliceSize(), p.sliceLevel(), sizes,
          s.nodeFilter.filter(ps.nodeSelector(), ps.tolerations()));
      Phase1 hit = phase1Memo.get(key);
      if (hit != null && hit.version == version && hit.podCount.length == s.tree.domains.size()) {
        System.arraycopy(hit.podCount, 0, podCount, 0, hit.podCount.length);
        System.arraycopy(hit.sliceCount, 0, sliceCount, 0, hit.sliceCount.length);
        return hit.stats;
      }
    }
    ExclusionStats stats = new ExclusionStats();
    fillInCounts(ps, p, assumed, simulateEmpty, within, stats);
    if (memo) {
      if (phase1Memo.size() > 64) {
        phase1Memo.clear();
      }
      int n = s.tree.domains.size();
      phase1Memo.put(key, new Phase1(version, java.util.Arrays.copyOf(podCount, n),
          java.util.Arrays.copyOf(sliceCount, n), stats));
    }
    return stats;
  }

  private void fillInCounts(PodSetRequest ps, TopologyAssigner.Params p, Map<Integer, long[]> assumed,
      boolean simulateEmpty, Domain within, ExclusionStats stats) {
    long[] req = ps.podRequest();
    long[] avail = new long[s.nRes];
    NodeFilter.Filter filter = s.nodeFilter.filter(ps.nodeSelector(), ps.tolerations());
    String[] excluded = filter == null ? null : filter.excluded();
    if (assumed != null && assumed.isEmpty()) {
      assumed = null;
    }
    LeafCounts cache = leafCounts(req, simulateEmpty);
    for (Domain leaf : s.tree.leaves) {
      podCount[leaf.idx] = 0;
      sliceCount[leaf.idx] = 0;
      if (!leaf.present()) {
        continue; // Kueue drops NotReady and unschedulable nodes from the tree
      }
      stats.totalNodes++;
      if (excluded != null && excluded[leaf.leafIdx] != null) {
        String why = excluded[leaf.leafIdx];
        if (why.equals("nodeSelector")) {
          stats.nodeSelector++;
        } else {
          stats.taints.merge(why, 1, Integer::sum);
        }
        continue;
      }
      if (within != null && !under(leaf, within)) {
        stats.topologyDomain++;
        continue;
      }
      long[] a = assumed == null ? null : assumed.get(leaf.leafIdx);
      int li = leaf.leafIdx;
      int best;
      int limiting;
      if (a == null && cache.version[li] == leaf.version + 1) {
        best = cache.count[li];
        limiting = cache.limiting[li];
      } else {
        for (int r = 0; r < s.nRes; r++) {
          avail[r] = s.remaining(leaf, r, simulateEmpty) - (a == null ? 0 : a[r]);
        }
        best = Integer.MAX_VALUE;
        limiting = -1;
        for (int r = 0; r < s.nRes; r++) {
          if (req[r] <= 0) {
            continue;
          }
          int c = (int) Math.max(0, Math.min(avail[r] / req[r], Integer.MAX_VALUE));
          if (c < best || (c == best && limiting >= 0
              && s.resourceNames.get(r).compareTo(s.resourceNames.get(limiting)) < 0)) {
            best = c;
            limiting = r;
          }
        }
        if (a == null) {
          cache.count[li] = best;
          cache.limiting[li] = limiting;
          cache.version[li] = leaf.version + 1;
        }
      }
      podCount[leaf.idx] = best;
      if (best == 0 && limiting >= 0) {
        stats.resources.merge(s.resourceNames.get(limiting), 1, Integer::sum);
      }
    }
    // Kueue fillInCountsHelper, bottom-up level by level.
    int lowestLevel = s.levels.size() - 1;
    for (int level = lowestLevel; level >= 0; level--) {
      for (Domain d : s.tree.byLevel.get(level)) {
        if (d.isLeaf()) {
          sliceCount[d.idx] = level == p.sliceLevel() ? podCount[d.idx] / p.sliceSize() : 0;
          continue;
        }
        int inner = p.sliceSizeAtLevel()[level + 1];
        int pods = 0;
        int slices = 0;
        for (Domain c : d.children) {
          pods += inner == 0 ? podCount[c.idx] : (podCount[c.idx] / inner) * inner;
          slices += sliceCount[c.idx];
        }
        podCount[d.idx] = pods;
        sliceCount[d.idx] = level == p.sliceLevel() ? pods / p.sliceSize() : slices;
      }
    }
  }

  private static boolean under(Domain leaf, Domain within) {
    Domain d = leaf;
    while (d != null && d.level > within.level) {
      d = d.parent;
    }
    return d == within;
  }
}
