package batchsim.core.kueue.tas;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The domains of one TAS flavor's topology (Kueue tas_topology_tree.go): created on demand from the level
 * values of the nodes, indexed by level, path and leaf ID, ranked in level-values order; every change of a
 * leaf is pushed up to the root (aggregates of present leaves, whole free domains per level).
 */
final class DomainTree {
  private final boolean hostnameLowest;
  private final int nRes;
  final List<Domain> domains = new ArrayList<>();
  final List<Domain> leaves = new ArrayList<>();
  final List<List<Domain>> byLevel = new ArrayList<>();
  private final List<Map<String, Domain>> pathIndex = new ArrayList<>();
  final Map<String, Domain> leafById = new HashMap<>();
  final int[] freeDomains;
  private boolean ranksDirty;
  /** Bumped whenever the set of leaves changes; invalidates filter results. */
  int generation;
  /** The last changed leaves (leaf indices, a ring), so kept placement counts can catch up with them. */
  private final int[] log = new int[1 << 14];
  /** Leaf changes logged so far. */
  long logged;

  DomainTree(int levels, boolean hostnameLowest, int nRes) {
    this.hostnameLowest = hostnameLowest;
    this.nRes = nRes;
    for (int l = 0; l < levels; l++) {
      byLevel.add(new ArrayList<>());
      pathIndex.add(new HashMap<>());
    }
    this.freeDomains = new int[levels];
  }

  /** What a leaf contributed to the aggregates before a change. */
  record LeafState(boolean unavailable, long[] alloc, long[] free, long[] tas) {
    static LeafState of(Domain leaf, int nRes) {
      long[] alloc = new long[nRes];
      long[] free = new long[nRes];
      long[] tas = new long[nRes];
      if (leaf.present()) {
        for (int r = 0; r < nRes; r++) {
          alloc[r] = leaf.capacity[r];
          free[r] = leaf.capacity[r] - leaf.nonTas[r];
          tas[r] = leaf.leafTas[r];
        }
      }
      return new LeafState(isUnavailable(leaf), alloc, free, tas);
    }
  }

  private static boolean isUnavailable(Domain leaf) {
    if (!leaf.present()) {
      return true;
    }
    for (int r = 0; r < leaf.nonTas.length; r++) {
      if (leaf.nonTas[r] != 0 || leaf.leafTas[r] != 0) {
        return true;
      }
    }
    return false;
  }

  /** Pushes a leaf's change up to the root: free/TAS aggregates and free-domain counts. */
  void propagate(Domain leaf, LeafState before) {
    leaf.version++;
    log[(int) (logged++ & (log.length - 1))] = leaf.leafIdx;
    boolean present = leaf.present();
    int du = (isUnavailable(leaf) ? 1 : 0) - (before.unavailable ? 1 : 0);
    long[] da = new long[nRes];
    long[] df = new long[nRes];
    long[] dt = new long[nRes];
    boolean any = du != 0;
    for (int r = 0; r < nRes; r++) {
      da[r] = (present ? leaf.capacity[r] : 0) - before.alloc[r];
      df[r] = (present ? leaf.capacity[r] - leaf.nonTas[r] : 0) - before.free[r];
      dt[r] = (present ? leaf.leafTas[r] : 0) - before.tas[r];
      any |= da[r] != 0 || df[r] != 0 || dt[r] != 0;
    }
    if (!any) {
      return;
    }
    for (Domain d = leaf; d != null; d = d.parent) {
      boolean wasFree = d.isFree();
      for (int r = 0; r < nRes; r++) {
        d.alloc[r] += da[r];
        d.free[r] += df[r];
        d.tas[r] += dt[r];
      }
      d.unavailable += du;
      if (wasFree != d.isFree()) {
        freeDomains[d.level] += d.isFree() ? 1 : -1;
      }
    }
  }

  /** Whether every leaf change since {@code position} is still in the log. */
  boolean changedSince(long position) {
    return logged - position <= log.length;
  }

  /** The leaf of the {@code i}-th logged change (one of the last {@code log.length}). */
  int loggedLeaf(long i) {
    return log[(int) (i & (log.length - 1))];
  }

  /** Finds or creates the domains on a path of level values; returns the leaf. */
  Domain path(String[] values) {
    Domain parent = null;
    StringBuilder key = new StringBuilder();
    for (int l = 0; l < values.length; l++) {
      if (l > 0) {
        key.append(',');
      }
      key.append(values[l]);
      Domain d = pathIndex.get(l).get(key.toString());
      if (d == null) {
        boolean leaf = l == values.length - 1;
        String id = leaf && hostnameLowest ? values[l] : key.toString();
        d = new Domain(domains.size(), l, parent, Arrays.copyOf(values, l + 1), id, nRes,
            leaf ? leaves.size() : -1);
        domains.add(d);
        byLevel.get(l).add(d);
        pathIndex.get(l).put(key.toString(), d);
        if (parent != null) {
          parent.children.add(d);
        }
        if (leaf) {
          leaves.add(d);
          leafById.put(id, d);
          for (Domain a = d; a != null; a = a.parent) {
            boolean wasFree = a.isFree();
            a.leaves++;
            a.unavailable++; // absent until a node of it is present
            if (wasFree) {
              freeDomains[a.level]--;
            }
          }
        }
        ranksDirty = true;
        generation++;
      }
      parent = d;
    }
    return parent;
  }

  /** Kueue compareDomainLevelValues order, as a rank per level; recomputed after the tree grew. */
  void ensureRanks() {
    if (!ranksDirty) {
      return;
    }
    for (List<Domain> level : byLevel) {
      List<Domain> sorted = new ArrayList<>(level);
      sorted.sort((a, b) -> Arrays.compare(a.values, b.values));
      for (int i = 0; i < sorted.size(); i++) {
        sorted.get(i).rank = i;
      }
    }
    ranksDirty = false;
  }
}
