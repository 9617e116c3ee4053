package batchsim.core.kueue.tas;

import batchsim.core.model.TopologyRequest;
import batchsim.core.model.TopologyRequest.Mode;
import batchsim.core.model.TopologyRequest.SliceLayer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Kueue's two-phase TAS placement for one podSet on one flavor's tree (tas_flavor_snapshot.go
 * {@code findTopologyAssignment}), with the default profile (TASProfileMixed): BestFit for required and
 * preferred requests, LeastFreeCapacity for unconstrained ones (explicit, implied or slice-only).
 *
 * <ol>
 *   <li>Phase 1, bottom-up: how many pods fit in each leaf (Kueue CountIn of the remaining capacity), and
 *       per domain the pod count and the slice count (slices never straddle a slice-level domain).
 *   <li>Phase 2a: at the requested level, sort the domains (BestFit: slices descending; LFC: ascending; then
 *       pods ascending, then level values) and take one domain that fits (BestFit: the tightest one). A
 *       preferred request that fits nowhere moves one level up; at the top, or for unconstrained requests,
 *       several domains are taken greedily (BestFit: the last one tightest). A required request fails.
 *   <li>Phase 2b: descend. Above the slice level, the children of all chosen domains are pooled and taken
 *       greedily; at and below it, each parent's pods are distributed over its own children.
 * </ol>
 *
 * PodSet groups (leader/worker) and balanced placement (an alpha gate) are not modelled. The scratch
 * arrays belong to the snapshot; the engine is single-threaded.
 */
public final class TopologyAssigner {
  private final TasFlavorSnapshot s;
  private int[] podCount = new int[0];
  private int[] sliceCount = new int[0];
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

  private LeafCounts leafCounts(long[] req, boolean simulateEmpty) {
    List<Long> key = new ArrayList<>(req.length);
    for (long v : req) {
      key.add(v);
    }
    if (leafCounts.size() > 256) {
      leafCounts.clear();
    }
    LeafCounts c = leafCounts.computeIfAbsent(new ShapeKey(key, simulateEmpty), k -> new LeafCounts());
    c.ensure(s.leaves.size());
    return c;
  }

  TopologyAssigner(TasFlavorSnapshot s) {
    this.s = s;
  }

  /** A placement, or why there is none (Kueue's message). */
  public record Result(TopologyAssignment assignment, String failure) {
    public boolean ok() {
      return failure == null;
    }

    static Result fail(String why) {
      return new Result(null, why);
    }
  }

  /** Kueue tasExclusionStats. */
  private static final class Stats {
    int totalNodes;
    int nodeSelector;
    int topologyDomain;
    final TreeMap<String, Integer> taints = new TreeMap<>();
    final TreeMap<String, Integer> resources = new TreeMap<>();

    boolean any() {
      return nodeSelector > 0 || topologyDomain > 0 || !taints.isEmpty() || !resources.isEmpty();
    }

    String format() {
      List<String> r = new ArrayList<>();
      if (nodeSelector > 0) {
        r.add("nodeSelector: " + nodeSelector);
      }
      if (topologyDomain > 0) {
        r.add("topologyDomain: " + topologyDomain);
      }
      taints.forEach((k, v) -> r.add(k + ": " + v));
      resources.forEach((k, v) -> r.add("resource \"" + k + "\": " + v));
      java.util.Collections.sort(r);
      return String.join(", ", r);
    }
  }

  /** The parameters of one run (Kueue topologyAssignmentParameters). */
  /** {@code sliceSizeAtLevel[l]}: inner slice size at level l (multi-layer), 0 when none. */
  private record Params(int count, int sliceSize, int requestedLevel, int sliceLevel, boolean required,
      boolean unconstrained, int[] sliceSizeAtLevel, List<SliceLayer> layers) {
    /** Kueue useLeastFreeCapacityAlgorithm: unconstrained requests with TASProfileMixed (the default). */
    boolean lfc() {
      return unconstrained;
    }
  }

  /**
   * Places {@code ps.count()} pods.
   *
   * @param assumed usage already taken by earlier podSets of the same workload, per leaf index (may be null)
   * @param simulateEmpty ignore all TAS usage (Kueue WithSimulateEmpty: "would it fit if every TAS workload
   *     were preempted?"); non-TAS usage still counts
   * @param within only leaves under this domain may take pods (node replacement), or null
   */
  public Result assign(PodSetRequest ps, Map<Integer, long[]> assumed, boolean simulateEmpty, Domain within) {
    s.ensureRanks();
    if (podCount.length < s.domains.size()) {
      podCount = new int[s.domains.size() + 16];
      sliceCount = new int[s.domains.size() + 16];
    }
    TopologyRequest tr = ps.request();
    List<SliceLayer> layers = tr == null ? List.of() : tr.slices();
    int sliceSize = layers.isEmpty() ? 1 : layers.get(0).size();
    if (sliceSize <= 0) {
      return Result.fail("slice topology requested, but slice size not provided");
    }
    boolean required = tr != null && tr.mode() == Mode.REQUIRED;
    boolean unconstrained = tr == null || tr.mode() == Mode.UNCONSTRAINED;
    String key = levelKey(tr);
    int requestedLevel = s.levelIndex(key);
    if (requestedLevel < 0) {
      return Result.fail("no requested topology level: " + key);
    }
    String sliceKey = layers.isEmpty() ? lowest() : layers.get(0).level();
    int sliceLevel = s.levelIndex(sliceKey);
    if (sliceLevel < 0) {
      return Result.fail("no requested topology level for slices: " + sliceKey);
    }
    if (requestedLevel > sliceLevel) {
      return Result.fail("podset slice topology " + sliceKey + " is above the podset topology " + key);
    }
    // Kueue buildSliceSizeAtLevel: inner layers fill the levels down to theirs with their size.
    Map<Integer, Integer> sizeAt = new HashMap<>();
    int prevSize = sliceSize;
    int prevLevel = sliceLevel;
    for (SliceLayer layer : layers.subList(Math.min(1, layers.size()), layers.size())) {
      int l = s.levelIndex(layer.level());
      if (l < 0) {
        return Result.fail("no requested topology level for additional slice layer: " + layer.level());
      }
      if (l <= prevLevel) {
        return Result.fail("additional slice layer topology " + layer.level() + " must be at a lower level than "
            + s.levels.get(prevLevel));
      }
      if (layer.size() <= 0 || prevSize % layer.size() != 0) {
        return Result.fail("additional slice layer size " + layer.size() + " must evenly divide parent layer size "
            + prevSize);
      }
      for (int x = prevLevel + 1; x <= l; x++) {
        sizeAt.put(x, layer.size());
      }
      prevSize = layer.size();
      prevLevel = l;
    }
    int[] sizeAtLevel = new int[s.levels.size() + 1];
    sizeAt.forEach((l, size) -> sizeAtLevel[l] = size);
    Params p = new Params(ps.count(), sliceSize, requestedLevel, sliceLevel, required, unconstrained, sizeAtLevel,
        layers);
    Stats stats = phase1(ps, p, assumed, simulateEmpty, within);

    // Phase 2a.
    Object fit = findLevelWithFitDomains(requestedLevel, p, stats);
    if (fit instanceof String why) {
      return Result.fail(why);
    }
    Fit f = (Fit) fit;
    List<Domain> current = updateCountsToMinimum(f.domains, p.count, p.sliceSize, p.lfc(), true);
    int level = f.level;
    int lowestLevel = s.levels.size() - 1;
    // Phase 2b, above the slice level: pool the children of every chosen domain.
    for (; current != null && level < Math.min(lowestLevel, sliceLevel); level++) {
      current = updateCountsToMinimum(sorted(children(current), p.lfc()), p.count, p.sliceSize, p.lfc(), true);
    }
    // At and below the slice level: each parent's pods go to its own children.
    for (; current != null && level < lowestLevel; level++) {
      int unit = level >= sliceLevel ? sizeAt.getOrDefault(level + 1, 1) : sliceSize;
      List<Domain> next = new ArrayList<>();
      for (Domain d : current) {
        List<Domain> lower = sorted(d.children, p.lfc());
        if (unit > 1) {
          for (Domain c : lower) {
            sliceCount[c.idx] = podCount[c.idx] / unit;
          }
        }
        List<Domain> part = updateCountsToMinimum(lower, podCount[d.idx], unit, p.lfc(), unit > 1);
        if (part == null) {
          current = null;
          break;
        }
        next.addAll(part);
      }
      if (current != null) {
        current = next;
      }
    }
    if (current == null) {
      return Result.fail("code assumptions violated: could not distribute " + p.count + " pods in topology \""
          + s.topology + "\"");
    }
    return new Result(build(current), null);
  }

  private String levelKey(TopologyRequest tr) {
    if (tr == null) {
      return lowest(); // implied TAS: unconstrained at the lowest level
    }
    switch (tr.mode()) {
      case REQUIRED:
      case PREFERRED:
        return tr.level();
      default:
        return tr.hasSlices() ? s.levels.get(0) : lowest(); // slice-only: the highest level
    }
  }

  private String lowest() {
    return s.levels.get(s.levels.size() - 1);
  }

  // ------------------------------------------------------------------ phase 1

  /** What phase 1 depends on besides the tree's state (Kueue recomputes it every call). */
  private record Phase1Key(List<Long> request, boolean simulateEmpty, int sliceSize, int sliceLevel,
      List<Integer> sliceSizeAtLevel, TasFlavorSnapshot.Filter filter) {}

  /** A phase-1 result: per-domain pod and slice counts, valid while the tree version is unchanged. */
  private record Phase1(long version, int[] podCount, int[] sliceCount, Stats stats) {}

  private final Map<Phase1Key, Phase1> phase1Memo = new HashMap<>();

  /**
   * Phase 1, memoised: between two changes of the tree, every placement of the same pod shape sees the same
   * counts (nominations, preemption checks and recomputations of one cycle ask again and again). On an empty
   * cluster (simulateEmpty) only allocatable and non-TAS usage matter, which change far less often.
   */
  private Stats phase1(PodSetRequest ps, Params p, Map<Integer, long[]> assumed, boolean simulateEmpty,
      Domain within) {
    boolean memo = (assumed == null || assumed.isEmpty()) && within == null;
    Phase1Key key = null;
    long version = simulateEmpty ? s.capacityVersion : s.version;
    if (memo) {
      List<Long> req = new ArrayList<>(ps.podRequest().length);
      for (long v : ps.podRequest()) {
        req.add(v);
      }
      List<Integer> sizes = new ArrayList<>(p.sliceSizeAtLevel.length);
      for (int v : p.sliceSizeAtLevel) {
        sizes.add(v);
      }
      key = new Phase1Key(req, simulateEmpty, p.sliceSize, p.sliceLevel, sizes,
          s.filter(ps.nodeSelector(), ps.tolerations()));
      Phase1 hit = phase1Memo.get(key);
      if (hit != null && hit.version == version && hit.podCount.length == s.domains.size()) {
        System.arraycopy(hit.podCount, 0, podCount, 0, hit.podCount.length);
        System.arraycopy(hit.sliceCount, 0, sliceCount, 0, hit.sliceCount.length);
        return hit.stats;
      }
    }
    Stats stats = new Stats();
    fillInCounts(ps, p, assumed, simulateEmpty, within, stats);
    if (memo) {
      if (phase1Memo.size() > 64) {
        phase1Memo.clear();
      }
      int n = s.domains.size();
      phase1Memo.put(key, new Phase1(version, java.util.Arrays.copyOf(podCount, n),
          java.util.Arrays.copyOf(sliceCount, n), stats));
    }
    return stats;
  }

  private void fillInCounts(PodSetRequest ps, Params p, Map<Integer, long[]> assumed, boolean simulateEmpty,
      Domain within, Stats stats) {
    long[] req = ps.podRequest();
    long[] avail = new long[s.nRes];
    TasFlavorSnapshot.Filter filter = s.filter(ps.nodeSelector(), ps.tolerations());
    String[] excluded = filter == null ? null : filter.excluded();
    if (assumed != null && assumed.isEmpty()) {
      assumed = null;
    }
    LeafCounts cache = leafCounts(req, simulateEmpty);
    for (Domain leaf : s.leaves) {
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
      for (Domain d : s.byLevel.get(level)) {
        if (d.isLeaf()) {
          sliceCount[d.idx] = level == p.sliceLevel ? podCount[d.idx] / p.sliceSize : 0;
          continue;
        }
        int inner = p.sliceSizeAtLevel[level + 1];
        int pods = 0;
        int slices = 0;
        for (Domain c : d.children) {
          pods += inner == 0 ? podCount[c.idx] : (podCount[c.idx] / inner) * inner;
          slices += sliceCount[c.idx];
        }
        podCount[d.idx] = pods;
        sliceCount[d.idx] = level == p.sliceLevel ? pods / p.sliceSize : slices;
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

  // ------------------------------------------------------------------ phase 2

  private record Fit(int level, List<Domain> domains) {}

  /** Kueue findLevelWithFitDomains. Returns a Fit or the failure message. */
  private Object findLevelWithFitDomains(int level, Params p, Stats stats) {
    List<Domain> all = s.byLevel.get(level);
    if (all.isEmpty()) {
      return "no topology domains at level: " + s.levels.get(level);
    }
    List<Domain> sorted = sorted(all, p.lfc());
    Domain top = sorted.get(0);
    int need = p.count / p.sliceSize;
    if (!p.lfc() && sliceCount[top.idx] >= need) {
      top = bestFit(sorted, need, true); // optimize the potentially last domain
    }
    if (p.lfc()) {
      for (Domain d : sorted) {
        if (sliceCount[d.idx] >= need) {
          return new Fit(level, List.of(d));
        }
      }
      if (p.required) {
        return notFit(podCount[sorted.get(sorted.size() - 1).idx], need, p, level, stats);
      }
    }
    if (sliceCount[top.idx] < need) {
      if (p.required) {
        return notFit(sliceCount[top.idx], need, p, level, stats);
      }
      if (level > 0 && !p.unconstrained) {
        return findLevelWithFitDomains(level - 1, p, stats); // preferred: one level up
      }
      List<Domain> results = new ArrayList<>();
      int remaining = need;
      for (int i = 0; remaining > 0 && i < sorted.size(); i++) {
        Domain d = sorted.get(i);
        if (!p.lfc() && sliceCount[d.idx] >= remaining) {
          d = bestFit(sorted.subList(i, sorted.size()), remaining, true);
        }
        results.add(d);
        remaining -= sliceCount[d.idx];
      }
      if (remaining > 0) {
        return notFit(need - remaining, need, p, level, stats);
      }
      return new Fit(level, results);
    }
    return new Fit(level, List.of(top));
  }

  /**
   * Kueue findBestFitDomain(ForSlices): the first domain with the smallest count that still covers
   * {@code need}; the first domain when none does.
   */
  private Domain bestFit(List<Domain> domains, int need, boolean slices) {
    Domain best = null;
    int bestCount = Integer.MAX_VALUE;
    for (Domain d : domains) {
      int c = slices ? sliceCount[d.idx] : podCount[d.idx];
      if (c >= need && c < bestCount) {
        best = d;
        bestCount = c;
      }
    }
    return best == null ? domains.get(0) : best;
  }

  /**
   * Kueue updateCountsToMinimumGeneric (without leaders): takes domains in order until {@code count} pods
   * (or count/sliceSize slices) are covered, trimming the last one; BestFit swaps in the tightest domain
   * that covers the remainder. Null when the domains cannot cover it (Kueue logs "code assumptions violated").
   */
  private List<Domain> updateCountsToMinimum(List<Domain> domains, int count, int sliceSize, boolean lfc,
      boolean slices) {
    List<Domain> result = new ArrayList<>();
    int remaining = slices ? count / sliceSize : count;
    for (int i = 0; i < domains.size(); i++) {
      Domain d = domains.get(i);
      if (slices) {
        if (!lfc && sliceCount[d.idx] >= remaining) {
          d = bestFit(domains.subList(i, domains.size()), remaining, true);
        }
        if (sliceCount[d.idx] >= remaining) {
          podCount[d.idx] = remaining * sliceSize;
          sliceCount[d.idx] = remaining;
          result.add(d);
          return result;
        }
        podCount[d.idx] = sliceCount[d.idx] * sliceSize;
        remaining -= sliceCount[d.idx];
        result.add(d);
        continue;
      }
      if (!lfc && podCount[d.idx] >= remaining) {
        d = bestFit(domains.subList(i, domains.size()), remaining, false);
      }
      if (podCount[d.idx] >= remaining) {
        podCount[d.idx] = remaining;
        result.add(d);
        return result;
      }
      remaining -= podCount[d.idx];
      result.add(d);
    }
    return remaining == 0 ? result : null;
  }

  /**
   * Kueue sortedDomains: BestFit by slice count descending, LeastFreeCapacity ascending; then pod count
   * ascending (less leftover wins); then level values.
   */
  private List<Domain> sorted(List<Domain> domains, boolean lfc) {
    List<Domain> out = new ArrayList<>(domains);
    Comparator<Domain> bySlices = Comparator.comparingInt(d -> sliceCount[d.idx]);
    out.sort((lfc ? bySlices : bySlices.reversed())
        .thenComparingInt(d -> podCount[d.idx])
        .thenComparingInt(d -> d.rank));
    return out;
  }

  private static List<Domain> children(List<Domain> domains) {
    List<Domain> out = new ArrayList<>();
    for (Domain d : domains) {
      out.addAll(d.children);
    }
    return out;
  }

  /** Kueue buildAssignment: leaves with pods, sorted by level values. */
  private TopologyAssignment build(List<Domain> leaves) {
    List<Domain> sorted = new ArrayList<>(leaves);
    sorted.sort(Comparator.comparingInt(d -> d.rank));
    List<TopologyAssignment.Slot> slots = new ArrayList<>();
    for (Domain d : sorted) {
      if (podCount[d.idx] > 0) {
        slots.add(new TopologyAssignment.Slot(d.leafIdx, d.id, podCount[d.idx]));
      }
    }
    return new TopologyAssignment(slots);
  }

  // ------------------------------------------------------------------ messages

  private String notFit(int fit, int total, Params p, int level, Stats stats) {
    StringBuilder b = new StringBuilder();
    if (p.layers.size() > 1) {
      b.append("topology \"").append(s.topology).append("\" doesn't allow to fit");
      Domain best = null;
      for (Domain d : s.byLevel.get(level)) {
        if (best == null || sliceCount[d.idx] > sliceCount[best.idx]
            || (sliceCount[d.idx] == sliceCount[best.idx] && d.id.compareTo(best.id) < 0)) {
          best = d;
        }
      }
      if (best != null) {
        for (SliceLayer c : p.layers) {
          int target = s.levelIndex(c.level());
          b.append("; ").append(countSlices(best, target, c.size())).append('/').append(p.count / c.size())
              .append(" slice(s) fit on level ").append(c.level());
        }
      }
    } else {
      String unit = p.sliceSize == 1 ? "pod" : "slice";
      if (fit == 0) {
        b.append("topology \"").append(s.topology).append("\" doesn't allow to fit any of ").append(total)
            .append(' ').append(unit).append("(s)");
      } else {
        b.append("topology \"").append(s.topology).append("\" allows to fit only ").append(fit).append(" out of ")
            .append(total).append(' ').append(unit).append("(s)");
      }
    }
    if (stats.any()) {
      b.append(". Total nodes: ").append(stats.totalNodes).append("; excluded: ").append(stats.format());
    }
    return b.toString();
  }

  private int countSlices(Domain d, int targetLevel, int size) {
    if (d.level == targetLevel) {
      return podCount[d.idx] / size;
    }
    int n = 0;
    for (Domain c : d.children) {
      n += countSlices(c, targetLevel, size);
    }
    return n;
  }
}
