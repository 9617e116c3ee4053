package batchsim.core.cluster;

import batchsim.core.model.NodePoolSpec;
import batchsim.core.model.ResourceSpace;
import batchsim.core.model.ScoringStrategy;
import batchsim.core.model.Taint;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The nodes of the cluster and what is bound to them. Nodes of a pool are identical, so each pool keeps
 * its nodes in a sorted index by free capacity: the best node for a pod is found by walking that index
 * from the best end, not by scanning every node.
 */
public final class ClusterState {
  final ResourceSpace resources;
  final List<Node> nodes = new ArrayList<>();
  final List<NodePoolSpec> pools;
  final List<TreeSet<Node>> poolIndex = new ArrayList<>();
  final List<FreeIndex> freeIndex = new ArrayList<>();
  /** Nodes whose labels or taints were edited mid-run, in node order: searched one by one, not by pool. */
  final List<Node> edited = new ArrayList<>();
  /** Nodes whose allocation changed since the last invariant check (checked runs only look at these). */
  private final java.util.LinkedHashSet<Node> dirty = new java.util.LinkedHashSet<>();
  /** Checked mode asked once: from then on allocations note their node in {@link #dirty}. */
  private boolean checking;
  final ScoringStrategy scoring;
  private final int cpu;
  private final int memory;
  private final int pods;
  /** Per pool, the number the next added node gets. */
  private final int[] nextIndex;

  public ClusterState(ResourceSpace resources, List<NodePoolSpec> pools, ScoringStrategy scoring) {
    this.resources = resources;
    this.pools = List.copyOf(pools);
    this.scoring = scoring;
    this.cpu = resources.indexOf(ResourceSpace.CPU);
    this.memory = resources.indexOf(ResourceSpace.MEMORY);
    this.pods = resources.indexOf(ResourceSpace.PODS);
    // Best first: most free for LeastAllocated, least free for MostAllocated; then by node order.
    boolean mostFreeFirst = scoring == ScoringStrategy.LEAST_ALLOCATED;
    Comparator<Node> order = (a, b) -> {
      int c = Double.compare(a.freeScore, b.freeScore);
      return c != 0 ? (mostFreeFirst ? -c : c) : Integer.compare(a.index, b.index);
    };
    this.nextIndex = new int[pools.size()];
    for (int p = 0; p < pools.size(); p++) {
      NodePoolSpec spec = pools.get(p);
      nextIndex[p] = spec.count();
      TreeSet<Node> idx = new TreeSet<>(order);
      for (int i = 0; i < spec.count(); i++) {
        String name = spec.name() + "-" + i;
        TreeMap<String, String> labels = new TreeMap<>(spec.labels());
        labels.put("kubernetes.io/hostname", name);
        Node n = new Node(nodes.size(), name, p, labels, spec.taints(), spec.allocatable().toArray());
        n.freeScore = freeScore(n);
        nodes.add(n);
        idx.add(n);
      }
      poolIndex.add(idx);
      FreeIndex free = new FreeIndex(resources.size(), spec.count());
      for (Node n : idx) {
        n.slot = free.add();
        free.set(n.slot, n);
      }
      freeIndex.add(free);
    }
  }

  public List<Node> nodes() {
    return nodes;
  }

  public ResourceSpace resources() {
    return resources;
  }

  /** Index of the "pods" resource, or -1: every bound pod takes one. */
  int podsResource() {
    return pods;
  }

  /** Sum over cpu and memory of free / allocatable (kube-scheduler NodeResourcesFit's default resources). */
  double freeScore(Node n) {
    double s = 0;
    for (int r : new int[] {cpu, memory}) {
      if (r >= 0 && n.allocatable[r] > 0) {
        s += (n.allocatable[r] - n.allocated[r]) / (double) n.allocatable[r];
      }
    }
    return s;
  }

  /** kube-scheduler score of placing {@code req} on {@code n} (higher is better). */
  double score(Node n, long[] req) {
    double s = 0;
    int k = 0;
    for (int r : new int[] {cpu, memory}) {
      if (r >= 0 && n.allocatable[r] > 0) {
        double used = (n.allocated[r] + req[r]) / (double) n.allocatable[r];
        s += scoring == ScoringStrategy.LEAST_ALLOCATED ? 1 - used : used;
        k++;
      }
    }
    return k == 0 ? 0 : s / k;
  }

  void allocate(Node n, long[] req, int sign) {
    TreeSet<Node> idx = poolIndex.get(n.pool);
    boolean indexed = idx.remove(n);
    for (int r = 0; r < req.length; r++) {
      n.allocated[r] += sign * req[r];
    }
    n.freeScore = freeScore(n);
    if (indexed) {
      idx.add(n);
    }
    freeIndex.get(n.pool).set(n.slot, n);
    if (checking) {
      dirty.add(n);
    }
  }

  /** Sets a node's condition flags and keeps only schedulable nodes in the pool index. */
  void setState(Node n, Boolean failed, Boolean cordoned, Boolean removed) {
    TreeSet<Node> idx = poolIndex.get(n.pool);
    idx.remove(n);
    if (failed != null) {
      n.failed = failed;
    }
    if (cordoned != null) {
      n.cordoned = cordoned;
    }
    if (removed != null) {
      n.removed = removed;
    }
    if (n.schedulable() && !n.edited) {
      idx.add(n);
    }
    freeIndex.get(n.pool).set(n.slot, n);
  }

  /**
   * Gives a node new labels and taints (a timeline action): it leaves its pool's index, whose filter is the
   * pool's, for the list of edited nodes that the kube-scheduler emulation filters node by node.
   */
  void edit(Node n, SortedMap<String, String> labels, List<Taint> taints) {
    poolIndex.get(n.pool).remove(n);
    n.labels = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(labels));
    n.taints = List.copyOf(taints);
    if (!n.edited) {
      n.edited = true;
      int at = 0;
      while (at < edited.size() && edited.get(at).index < n.index) {
        at++;
      }
      edited.add(at, n);
    }
  }

  /** Adds {@code count} nodes to pool {@code p}, named on from the pool's highest number. */
  List<Node> addNodes(int p, int count) {
    NodePoolSpec spec = pools.get(p);
    List<Node> added = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      String name = spec.name() + "-" + nextIndex[p]++;
      TreeMap<String, String> labels = new TreeMap<>(spec.labels());
      labels.put("kubernetes.io/hostname", name);
      Node n = new Node(nodes.size(), name, p, labels, spec.taints(), spec.allocatable().toArray());
      n.freeScore = freeScore(n);
      nodes.add(n);
      poolIndex.get(p).add(n);
      n.slot = freeIndex.get(p).add();
      freeIndex.get(p).set(n.slot, n);
      added.add(n);
    }
    return added;
  }

  /** Nodes of a pool in node order, or the named nodes; null entries for unknown names are skipped. */
  public List<Node> nodesOf(String pool, List<String> names) {
    List<Node> out = new ArrayList<>();
    if (names != null && !names.isEmpty()) {
      for (String name : names) {
        Node n = byName(name);
        if (n != null) {
          out.add(n);
        }
      }
      return out;
    }
    for (Node n : nodes) {
      if (pools.get(n.pool).name().equals(pool) && !n.removed) {
        out.add(n);
      }
    }
    return out;
  }

  public Node byName(String name) {
    for (Node n : nodes) {
      if (n.name.equals(name)) {
        return n;
      }
    }
    return null;
  }

  public List<NodePoolSpec> pools() {
    return pools;
  }

  /**
   * Checks node capacity on every node whose allocation changed since the last call: returns violations
   * (allocated above allocatable, or negative).
   */
  public List<String> checkInvariants() {
    List<String> out = new ArrayList<>();
    List<Node> changed = checking ? new ArrayList<>(dirty) : nodes; // the first check looks at every node
    checking = true;
    dirty.clear();
    for (Node n : changed) {
      for (int r = 0; r < n.allocated.length; r++) {
        if (n.allocated[r] > n.allocatable[r] || n.allocated[r] < 0) {
          out.add("node " + n.name + " has " + n.allocated[r] + " " + resources.name(r) + " allocated of "
              + n.allocatable[r]);
        }
      }
    }
    return out;
  }
}
