package batchsim.core.kueue.tas;

import batchsim.core.model.TopologyRequest;
import batchsim.core.model.TopologyRequest.Mode;
import batchsim.core.model.TopologyRequest.SliceLayer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

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
 * Phase 1 is {@link FitCounts}; this class runs it and phase 2. PodSet groups (leader/worker) and balanced
 * placement (an alpha gate) are not modelled. The scratch arrays belong to the snapshot; the engine is
 * single-threaded.
 */
public final class TopologyAssigner {
  private final TasFlavorSnapshot s;
  /** Phase 1's per-domain counts, trimmed here by phase 2. */
  private final FitCounts counts;

  TopologyAssigner(TasFlavorSnapshot s) {
    this.s = s;
    this.counts = new FitCounts(s);
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

  /** The parameters of one run (Kueue topologyAssignmentParameters). */
  /** {@code sliceSizeAtLevel[l]}: inner slice size at level l (multi-layer), 0 when none. */
  record Params(int count, int sliceSize, int requestedLevel, int sliceLevel, boolean required,
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
    try {
      return place(ps, assumed, simulateEmpty, within);
    } finally {
      counts.restore(); // phase 1's kept counts serve the next placement
    }
  }

  private Result place(PodSetRequest ps, Map<Integer, long[]> assumed, boolean simulateEmpty, Domain within) {
    s.tree.ensureRanks();
    counts.ensure(s.tree.domains.size());
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
    ExclusionStats stats = counts.phase1(ps, p, assumed, simulateEmpty, within);

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
            counts.setSlices(c.idx, counts.podCount[c.idx] / unit);
          }
        }
        List<Domain> part = updateCountsToMinimum(lower, counts.podCount[d.idx], unit, p.lfc(), unit > 1);
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

  // ------------------------------------------------------------------ phase 2

  private record Fit(int level, List<Domain> domains) {}

  /** Kueue findLevelWithFitDomains. Returns a Fit or the failure message. */
  private Object findLevelWithFitDomains(int level, Params p, ExclusionStats stats) {
    List<Domain> all = s.tree.byLevel.get(level);
    if (all.isEmpty()) {
      return "no topology domains at level: " + s.levels.get(level);
    }
    // The one-domain answers need only the first domain in sorted order (and the tightest that covers the
    // need): found in one pass; the whole order only when the pods spread over several domains.
    Comparator<Domain> order = order(p.lfc());
    int need = p.count / p.sliceSize;
    Domain top = first(all, order, 0);
    if (!p.lfc() && counts.sliceCount[top.idx] >= need) {
      top = tightest(all, order, need); // optimize the potentially last domain (Kueue findBestFitDomain)
    }
    if (p.lfc()) {
      Domain d = first(all, order, need);
      if (d != null) {
        return new Fit(level, List.of(d));
      }
      if (p.required) {
        return notFit(counts.podCount[last(all, order).idx], need, p, level, stats);
      }
    }
    if (counts.sliceCount[top.idx] < need) {
      List<Domain> sorted = sorted(all, p.lfc());
      if (p.required) {
        return notFit(counts.sliceCount[top.idx], need, p, level, stats);
      }
      if (level > 0 && !p.unconstrained) {
        return findLevelWithFitDomains(level - 1, p, stats); // preferred: one level up
      }
      List<Domain> results = new ArrayList<>();
      int remaining = need;
      for (int i = 0; remaining > 0 && i < sorted.size(); i++) {
        Domain d = sorted.get(i);
        if (!p.lfc() && counts.sliceCount[d.idx] >= remaining) {
          d = bestFit(sorted.subList(i, sorted.size()), remaining, true);
        }
        results.add(d);
        remaining -= counts.sliceCount[d.idx];
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
      int c = slices ? counts.sliceCount[d.idx] : counts.podCount[d.idx];
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
        if (!lfc && counts.sliceCount[d.idx] >= remaining) {
          d = bestFit(domains.subList(i, domains.size()), remaining, true);
        }
        if (counts.sliceCount[d.idx] >= remaining) {
          counts.setPods(d.idx, remaining * sliceSize);
          counts.setSlices(d.idx, remaining);
          result.add(d);
          return result;
        }
        counts.setPods(d.idx, counts.sliceCount[d.idx] * sliceSize);
        remaining -= counts.sliceCount[d.idx];
        result.add(d);
        continue;
      }
      if (!lfc && counts.podCount[d.idx] >= remaining) {
        d = bestFit(domains.subList(i, domains.size()), remaining, false);
      }
      if (counts.podCount[d.idx] >= remaining) {
        counts.setPods(d.idx, remaining);
        result.add(d);
        return result;
      }
      remaining -= counts.podCount[d.idx];
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
    out.sort(order(lfc));
    return out;
  }

  /** The order of {@link #sorted}. */
  private Comparator<Domain> order(boolean lfc) {
    return (a, b) -> {
      int c = Integer.compare(counts.sliceCount[a.idx], counts.sliceCount[b.idx]);
      if (c != 0) {
        return lfc ? c : -c;
      }
      c = Integer.compare(counts.podCount[a.idx], counts.podCount[b.idx]);
      return c != 0 ? c : Integer.compare(a.rank, b.rank);
    };
  }

  /** The first domain in {@code order} with at least {@code need} slices, or null. */
  private Domain first(List<Domain> domains, Comparator<Domain> order, int need) {
    Domain best = null;
    for (Domain d : domains) {
      if (counts.sliceCount[d.idx] >= need && (best == null || order.compare(d, best) < 0)) {
        best = d;
      }
    }
    return best;
  }

  private static Domain last(List<Domain> domains, Comparator<Domain> order) {
    Domain worst = domains.get(0);
    for (Domain d : domains) {
      if (order.compare(d, worst) > 0) {
        worst = d;
      }
    }
    return worst;
  }

  /** {@link #bestFit} over the domains in {@code order} without sorting them: fewest slices covering {@code need}. */
  private Domain tightest(List<Domain> domains, Comparator<Domain> order, int need) {
    Domain best = null;
    for (Domain d : domains) {
      int c = counts.sliceCount[d.idx];
      if (c >= need && (best == null || c < counts.sliceCount[best.idx]
          || (c == counts.sliceCount[best.idx] && order.compare(d, best) < 0))) {
        best = d;
      }
    }
    return best;
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
      if (counts.podCount[d.idx] > 0) {
        slots.add(new TopologyAssignment.Slot(d.leafIdx, d.id, counts.podCount[d.idx]));
      }
    }
    return new TopologyAssignment(slots);
  }

  // ------------------------------------------------------------------ messages

  private String notFit(int fit, int total, Params p, int level, ExclusionStats stats) {
    StringBuilder b = new StringBuilder();
    if (p.layers.size() > 1) {
      b.append("topology \"").append(s.topology).append("\" doesn't allow to fit");
      Domain best = null;
      for (Domain d : s.tree.byLevel.get(level)) {
        if (best == null || counts.sliceCount[d.idx] > counts.sliceCount[best.idx]
            || (counts.sliceCount[d.idx] == counts.sliceCount[best.idx] && d.id.compareTo(best.id) < 0)) {
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
      return counts.podCount[d.idx] / size;
    }
    int n = 0;
    for (Domain c : d.children) {
      n += countSlices(c, targetLevel, size);
    }
    return n;
  }
}