package batchsim.core.kueue.tas;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Phase 1 of Kueue's TAS placement (tas_flavor_snapshot.go {@code fillInCounts}): bottom-up, how many pods
 * of a podSet fit in each leaf (Kueue CountIn of the remaining capacity) and, per domain, the pod and slice
 * counts. Phase 2 ({@link TopologyAssigner}) trims these counts in place as it picks domains, through
 * {@link #setPods}/{@link #setSlices}, and {@link #restore} undoes its trims once the placement is made.
 *
 * <p>Kueue recomputes phase 1 over every node for each placement. Here the counts of one pod shape are kept
 * between placements and brought up to date from the tree's log of changed leaves: each changed leaf is
 * counted again and its difference pushed up its ancestors, so a placement costs O(leaves changed since the
 * last one × depth), not O(nodes). A change of the tree's shape, presence or filters (its generation), or a
 * log that overflowed, recomputes everything. The results are the same numbers either way.
 */
final class FitCounts {
  private final TasFlavorSnapshot s;
  /** The counts phase 2 reads and trims: a kept {@link Phase1}'s arrays, or {@link #scratch}'s. */
  int[] podCount = new int[0];
  int[] sliceCount = new int[0];
  private Phase1 scratch;
  /** Phase 2's trims: domain index, pods and slices before the trim, undone by {@link #restore}. */
  private int[] undo = new int[48];
  private int undoLen;
  /** Leaves seen while catching up (a stamp per leaf, so a leaf changed twice is counted once). */
  private int[] seen = new int[0];
  private int seenStamp;

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
        count = Arrays.copyOf(count, leaves + 16);
        version = Arrays.copyOf(version, leaves + 16);
        limiting = Arrays.copyOf(limiting, leaves + 16);
      }
    }
  }

  FitCounts(TasFlavorSnapshot s) {
    this.s = s;
    this.scratch = new Phase1(0, s.resourceNames);
  }

  /** Grows the scratch arrays to cover every domain of the tree. */
  void ensure(int domains) {
    if (scratch.pod.length < domains) {
      scratch = new Phase1(domains + 16, s.resourceNames);
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

  /** Phase-1 counts: per domain pods and slices, per leaf the limiting resource, and the exclusion stats. */
  private static final class Phase1 {
    final int[] pod;
    final int[] slice;
    final int[] limiting;
    ExclusionStats stats;
    /** The per-leaf counts of its pod shape, found once when it was made (catching up reuses them). */
    LeafCounts leafCounts;
    /** The tree's generation and change-log position these counts are up to date with. */
    int generation;
    long synced;

    Phase1(int domains, List<String> resourceNames) {
      stats = new ExclusionStats(resourceNames);
      pod = new int[domains];
      slice = new int[domains];
      limiting = new int[domains];
    }
  }

  private final Map<Phase1Key, Phase1> phase1Memo = new HashMap<>();

  /**
   * Phase 1. Without assumed usage or a domain to stay within, the counts of the same pod shape are kept and
   * caught up with the leaves changed since (nominations, preemption checks and recomputations of one cycle
   * ask again and again; between cycles only the leaves that took or gave back pods differ).
   */
  ExclusionStats phase1(PodSetRequest ps, TopologyAssigner.Params p, Map<Integer, long[]> assumed,
      boolean simulateEmpty, Domain within) {
    undoLen = 0;
    if ((assumed != null && !assumed.isEmpty()) || within != null) {
      scratch.stats = new ExclusionStats(s.resourceNames);
      fillInCounts(scratch, ps, p, assumed, simulateEmpty, within);
      return use(scratch);
    }
    List<Long> req = new ArrayList<>(ps.podRequest().length);
    for (long v : ps.podRequest()) {
      req.add(v);
    }
    List<Integer> sizes = new ArrayList<>(p.sliceSizeAtLevel().length);
    for (int v : p.sliceSizeAtLevel()) {
      sizes.add(v);
    }
    Phase1Key key = new Phase1Key(req, simulateEmpty, p.sliceSize(), p.sliceLevel(), sizes,
        s.nodeFilter.filter(ps.nodeSelector(), ps.tolerations()));
    DomainTree t = s.tree;
    Phase1 kept = phase1Memo.get(key);
    if (kept != null && kept.generation == t.generation && kept.pod.length == t.domains.size()
        && t.changedSince(kept.synced)) {
      catchUp(kept, ps, p, simulateEmpty);
      return use(kept);
    }
    if (phase1Memo.size() > 64) {
      phase1Memo.clear();
    }
    Phase1 fresh = new Phase1(t.domains.size(), s.resourceNames);
    fillInCounts(fresh, ps, p, null, simulateEmpty, null);
    fresh.generation = t.generation;
    fresh.synced = t.logged;
    phase1Memo.put(key, fresh);
    return use(fresh);
  }

  private ExclusionStats use(Phase1 c) {
    podCount = c.pod;
    sliceCount = c.slice;
    return c.stats;
  }

  // ------------------------------------------------------------------ phase 2's trims

  void setPods(int idx, int pods) {
    save(idx);
    podCount[idx] = pods;
  }

  void setSlices(int idx, int slices) {
    save(idx);
    sliceCount[idx] = slices;
  }

  private void save(int idx) {
    if (undoLen + 3 > undo.length) {
      undo = Arrays.copyOf(undo, undo.length * 2);
    }
    undo[undoLen++] = idx;
    undo[undoLen++] = podCount[idx];
    undo[undoLen++] = sliceCount[idx];
  }

  /** Undoes phase 2's trims, newest first, so the kept counts are phase 1's again. */
  void restore() {
    for (int i = undoLen - 3; i >= 0; i -= 3) {
      podCount[undo[i]] = undo[i + 1];
      sliceCount[undo[i]] = undo[i + 2];
    }
    undoLen = 0;
  }

  // ------------------------------------------------------------------ phase 1

  /** Counts one leaf again for every change logged since the counts were made, and pushes the differences up. */
  private void catchUp(Phase1 c, PodSetRequest ps, TopologyAssigner.Params p, boolean simulateEmpty) {
    DomainTree t = s.tree;
    if (seen.length < t.leaves.size()) {
      seen = new int[t.leaves.size() + 16];
    }
    int stamp = ++seenStamp;
    String[] excluded = excluded(ps);
    LeafCounts cache = c.leafCounts;
    long[] avail = new long[s.nRes];
    for (long i = c.synced; i < t.logged; i++) {
      int li = t.loggedLeaf(i);
      if (seen[li] == stamp) {
        continue;
      }
      seen[li] = stamp;
      Domain leaf = t.leaves.get(li);
      if (!leaf.present() || (excluded != null && excluded[li] != null)) {
        continue; // presence and filters are fixed within a generation: still not counted
      }
      int oldPods = c.pod[leaf.idx];
      int oldLimiting = c.limiting[li];
      int pods = count(leaf, ps.podRequest(), null, simulateEmpty, cache, avail);
      c.limiting[li] = limiting;
      if (oldPods == 0 && oldLimiting >= 0) {
        c.stats.resourceFull(oldLimiting, -1);
      }
      if (pods == 0 && limiting >= 0) {
        c.stats.resourceFull(limiting, +1);
      }
      if (pods != oldPods) {
        pushUp(c, leaf, oldPods, pods, p);
      }
    }
    c.synced = t.logged;
  }

  /** A leaf's pod count changed: its slices and every ancestor's pods and slices follow (fillInCountsHelper). */
  private static void pushUp(Phase1 c, Domain leaf, int oldPods, int pods, TopologyAssigner.Params p) {
    int oldSlices = c.slice[leaf.idx];
    int slices = leaf.level == p.sliceLevel() ? pods / p.sliceSize() : 0;
    c.pod[leaf.idx] = pods;
    c.slice[leaf.idx] = slices;
    for (Domain d = leaf.parent; d != null && (oldPods != pods || oldSlices != slices); d = d.parent) {
      int inner = p.sliceSizeAtLevel()[d.level + 1];
      int delta = inner == 0 ? pods - oldPods : (pods / inner) * inner - (oldPods / inner) * inner;
      int dOldPods = c.pod[d.idx];
      int dOldSlices = c.slice[d.idx];
      c.pod[d.idx] += delta;
      c.slice[d.idx] = d.level == p.sliceLevel() ? c.pod[d.idx] / p.sliceSize() : dOldSlices + slices - oldSlices;
      oldPods = dOldPods;
      pods = c.pod[d.idx];
      oldSlices = dOldSlices;
      slices = c.slice[d.idx];
    }
  }

  private String[] excluded(PodSetRequest ps) {
    NodeFilter.Filter filter = s.nodeFilter.filter(ps.nodeSelector(), ps.tolerations());
    return filter == null ? null : filter.excluded();
  }

  /**
   * Kueue CountIn of a leaf's remaining capacity (less {@code assumed}): how many pods fit. The limiting
   * resource (-1 when none is requested) is left in {@link #limiting}. Kept per leaf version when nothing is
   * assumed.
   */
  private int count(Domain leaf, long[] req, long[] assumed, boolean simulateEmpty, LeafCounts cache, long[] avail) {
    int li = leaf.leafIdx;
    if (assumed == null && cache.version[li] == leaf.version + 1) {
      limiting = cache.limiting[li];
      return cache.count[li];
    }
    for (int r = 0; r < s.nRes; r++) {
      avail[r] = s.remaining(leaf, r, simulateEmpty) - (assumed == null ? 0 : assumed[r]);
    }
    int best = Integer.MAX_VALUE;
    limiting = -1;
    for (int r = 0; r < s.nRes; r++) {
      if (req[r] <= 0) {
        continue;
      }
      int n = (int) Math.max(0, Math.min(avail[r] / req[r], Integer.MAX_VALUE));
      if (n < best || (n == best && limiting >= 0
          && s.resourceNames.get(r).compareTo(s.resourceNames.get(limiting)) < 0)) {
        best = n;
        limiting = r;
      }
    }
    if (assumed == null) {
      cache.count[li] = best;
      cache.limiting[li] = limiting;
      cache.version[li] = leaf.version + 1;
    }
    return best;
  }

  /** The limiting resource of the last {@link #count}. */
  private int limiting;

  private void fillInCounts(Phase1 c, PodSetRequest ps, TopologyAssigner.Params p, Map<Integer, long[]> assumed,
      boolean simulateEmpty, Domain within) {
    ExclusionStats stats = c.stats;
    long[] req = ps.podRequest();
    long[] avail = new long[s.nRes];
    NodeFilter.Filter filter = s.nodeFilter.filter(ps.nodeSelector(), ps.tolerations());
    String[] excluded = filter == null ? null : filter.excluded();
    LeafCounts cache = leafCounts(req, simulateEmpty);
    c.leafCounts = cache;
    for (Domain leaf : s.tree.leaves) {
      c.pod[leaf.idx] = 0;
      c.slice[leaf.idx] = 0;
      c.limiting[leaf.leafIdx] = -1;
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
      int best = count(leaf, req, a, simulateEmpty, cache, avail);
      c.pod[leaf.idx] = best;
      c.limiting[leaf.leafIdx] = limiting;
      if (best == 0 && limiting >= 0) {
        stats.resourceFull(limiting, +1);
      }
    }
    // Kueue fillInCountsHelper, bottom-up level by level.
    int lowestLevel = s.levels.size() - 1;
    for (int level = lowestLevel; level >= 0; level--) {
      for (Domain d : s.tree.byLevel.get(level)) {
        if (d.isLeaf()) {
          c.slice[d.idx] = level == p.sliceLevel() ? c.pod[d.idx] / p.sliceSize() : 0;
          continue;
        }
        int inner = p.sliceSizeAtLevel()[level + 1];
        int pods = 0;
        int slices = 0;
        for (Domain ch : d.children) {
          pods += inner == 0 ? c.pod[ch.idx] : (c.pod[ch.idx] / inner) * inner;
          slices += c.slice[ch.idx];
        }
        c.pod[d.idx] = pods;
        c.slice[d.idx] = level == p.sliceLevel() ? pods / p.sliceSize() : slices;
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
