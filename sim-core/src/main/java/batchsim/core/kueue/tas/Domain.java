package batchsim.core.kueue.tas;

import java.util.ArrayList;
import java.util.List;

/**
 * One topology domain of a TAS flavor's tree (Kueue tas_topology_tree.go {@code domain} /
 * {@code leafDomain}), with the free capacity of its present leaves aggregated incrementally.
 *
 * <p>Aggregates cover present leaves only: {@link #alloc} = allocatable, {@link #free} = allocatable − non-TAS
 * usage, {@link #tas} = TAS usage. A leaf additionally keeps its own totals whether present or not, so that a node that comes back
 * brings its usage with it (Kueue rebuilds the snapshot from the workloads that still point at it).
 */
public final class Domain {
  final int idx;
  final int level;
  final Domain parent;
  /** Label values from the highest level down to this one. */
  final String[] values;
  /** Kueue TopologyDomainID: the values joined with ","; a hostname leaf is just the hostname. */
  final String id;
  final List<Domain> children = new ArrayList<>();
  /** Position among the domains of its level in level-values order (Kueue compareDomainLevelValues). */
  int rank;

  // Aggregates over present leaves in the subtree.
  final long[] alloc;
  final long[] free;
  final long[] tas;
  /** Leaves below (present or not) and those absent or holding any pod: a domain is free when 0. */
  int leaves;
  int unavailable;

  // Leaf only (leafIdx >= 0).
  final int leafIdx;
  final List<Integer> nodes = new ArrayList<>();
  long[] capacity;
  long[] nonTas;
  long[] leafTas;
  int presentNodes;
  /** Bumped on every change to the leaf (usage, presence): invalidates cached per-leaf pod counts. */
  int version;

  Domain(int idx, int level, Domain parent, String[] values, String id, int nRes, int leafIdx) {
    this.idx = idx;
    this.level = level;
    this.parent = parent;
    this.values = values;
    this.id = id;
    this.alloc = new long[nRes];
    this.free = new long[nRes];
    this.tas = new long[nRes];
    this.leafIdx = leafIdx;
    if (leafIdx >= 0) {
      capacity = new long[nRes];
      nonTas = new long[nRes];
      leafTas = new long[nRes];
    }
  }

  public String id() {
    return id;
  }

  public int level() {
    return level;
  }

  public List<String> values() {
    return List.of(values);
  }

  boolean isLeaf() {
    return leafIdx >= 0;
  }

  /** The index of a leaf among its snapshot's leaves (-1 for an inner domain). */
  public int leafIdx() {
    return leafIdx;
  }

  /** A leaf is present while at least one of its nodes is Ready and schedulable. */
  public boolean present() {
    return presentNodes > 0;
  }

  /** Position in level-values order among the domains of the level. */
  public int rankOf() {
    return rank;
  }

  /** This domain's ancestor (or itself) at a level at or above its own. */
  public Domain ancestorAt(int level) {
    Domain d = this;
    while (d != null && d.level > level) {
      d = d.parent;
    }
    return d;
  }

  public Domain parent() {
    return parent;
  }

  /** A free domain: every leaf below is present and holds no pod. */
  public boolean isFree() {
    return leaves > 0 && unavailable == 0;
  }

  @Override
  public String toString() {
    return id;
  }
}
