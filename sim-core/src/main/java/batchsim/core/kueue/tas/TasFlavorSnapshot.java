package batchsim.core.kueue.tas;

import batchsim.core.model.ResourceFlavorSpec;
import batchsim.core.model.ResourceSpace;
import batchsim.core.model.Toleration;
import batchsim.core.model.TopologySpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;

/**
 * The topology tree of one TAS ResourceFlavor with its live capacity: Kueue's {@code topologyTree} plus
 * {@code TASFlavorSnapshot}, kept up to date incrementally instead of being rebuilt every cycle.
 *
 * <p>A node belongs to the tree when it carries every node label of the flavor and every level label
 * (Kueue NodeMatchesFlavor). A leaf's remaining capacity is its nodes' allocatable minus non-TAS usage
 * (pods of workloads without a topology assignment) minus TAS usage (the assignments of admitted TAS
 * workloads). A node that is NotReady, unschedulable or removed is absent: its leaf (when no other node
 * of it is present) drops out, exactly as Kueue drops such nodes from the tree. Every change updates the
 * aggregates of the leaf's ancestors, so the free capacity of any domain and the number of whole free
 * domains per level are always at hand (O(levels × resources) per change, nothing per node).
 *
 * <p>The structure only grows: domains and leaves keep their indices for the whole run, so assignments
 * can refer to leaves by index.
 */
public final class TasFlavorSnapshot {
  final String flavor;
  final String topology;
  final List<String> levels;
  final boolean hostnameLowest;
  final SortedMap<String, String> nodeLabels;
  final List<Toleration> tolerations;
  final int nRes;
  final List<String> resourceNames;
  private final List<Node> nodes = new ArrayList<>();
  private final Map<String, Node> nodeByName = new HashMap<>();
  /** The domains, their aggregates and the change counters. */
  final DomainTree tree;
  final NodeFilter nodeFilter;
  /** Scratch of the placement algorithm, reused across calls (single-threaded). */
  final TopologyAssigner assigner;

  private static final class Node {
    TasNode spec;
    final Domain leaf;
    final long[] allocatable;
    final long[] nonTas;
    boolean present;

    Node(TasNode spec, Domain leaf, int nRes) {
      this.spec = spec;
      this.leaf = leaf;
      this.allocatable = new long[nRes];
      for (int r = 0; r < nRes; r++) {
        allocatable[r] = spec.allocatable().get(r);
      }
      this.nonTas = new long[nRes];
    }
  }

  public TasFlavorSnapshot(ResourceFlavorSpec flavor, TopologySpec topology, ResourceSpace resources) {
    this.flavor = flavor.name();
    this.topology = topology.name();
    this.levels = topology.levels();
    this.hostnameLowest = topology.lowestIsHostname();
    this.nodeLabels = flavor.nodeLabels();
    this.tolerations = flavor.tolerations();
    this.nRes = resources.size();
    this.resourceNames = resources.names();
    this.tree = new DomainTree(levels.size(), hostnameLowest, nRes);
    this.nodeFilter = new NodeFilter(this);
    this.assigner = new TopologyAssigner(this);
  }

  public String flavorName() {
    return flavor;
  }

  public String topologyName() {
    return topology;
  }

  public List<String> levels() {
    return levels;
  }

  public boolean hostnameLowest() {
    return hostnameLowest;
  }

  public int levelIndex(String label) {
    return levels.indexOf(label);
  }

  // ------------------------------------------------------------------ nodes

  /** Kueue NodeMatchesFlavor: every flavor node label and every level label. */
  public boolean matches(TasNode n) {
    for (Map.Entry<String, String> e : nodeLabels.entrySet()) {
      if (!e.getValue().equals(n.labels().get(e.getKey()))) {
        return false;
      }
    }
    for (String l : levels) {
      if (!n.labels().containsKey(l)) {
        return false;
      }
    }
    return true;
  }

  /** Adds a matching node (a no-op for others); {@code present} = Ready and schedulable. */
  public void addNode(TasNode n, boolean present) {
    if (!matches(n) || nodeByName.containsKey(n.name())) {
      return;
    }
    String[] values = new String[levels.size()];
    for (int l = 0; l < values.length; l++) {
      values[l] = n.labels().get(levels.get(l));
    }
    Domain leaf = tree.path(values);
    Node node = new Node(n, leaf, nRes);
    nodeByName.put(n.name(), node);
    nodes.add(node);
    leaf.nodes.add(nodes.size() - 1);
    if (present) {
      setPresent(node, true);
    }
  }

  /**
   * A node of this tree got new labels or taints (its level labels and the flavor's node labels unchanged):
   * the per-node filters are computed again.
   */
  public void updateNode(TasNode n) {
    Node node = nodeByName.get(n.name());
    if (node != null) {
      node.spec = n;
      tree.generation++;
    }
  }

  /** Whether the node's NoSchedule/NoExecute taints are all tolerated by the pod's and the flavor's tolerations. */
  public boolean toleratesTaints(String name, List<Toleration> podTolerations) {
    Node node = nodeByName.get(name);
    if (node == null) {
      return true;
    }
    List<Toleration> all = new ArrayList<>(podTolerations);
    all.addAll(tolerations);
    return Toleration.toleratesAll(node.spec.taints(), all);
  }

  public boolean hasNode(String name) {
    return nodeByName.containsKey(name);
  }

  /** Marks a node present (Ready, schedulable) or absent. Returns false for an unknown node. */
  public boolean setNodePresent(String name, boolean present) {
    Node n = nodeByName.get(name);
    if (n == null || n.present == present) {
      return n != null;
    }
    setPresent(n, present);
    return true;
  }

  public boolean nodePresent(String name) {
    Node n = nodeByName.get(name);
    return n != null && n.present;
  }

  private void applyPresence(Node n, int sign) {
    Domain leaf = n.leaf;
    for (int r = 0; r < nRes; r++) {
      leaf.capacity[r] += sign * n.allocatable[r];
      leaf.nonTas[r] += sign * n.nonTas[r];
    }
    leaf.presentNodes += sign;
  }

  private void setPresent(Node n, boolean present) {
    Domain leaf = n.leaf;
    DomainTree.LeafState before = DomainTree.LeafState.of(leaf, nRes);
    n.present = present;
    applyPresence(n, present ? 1 : -1);
    tree.propagate(leaf, before);
    tree.generation++;
  }

  /** Non-TAS pods (DaemonSets, other workloads' pods) bound to (+1) or leaving (-1) a node. */
  public void addNonTasUsage(String node, long[] request, int sign) {
    Node n = nodeByName.get(node);
    if (n == null) {
      return;
    }
    DomainTree.LeafState before = DomainTree.LeafState.of(n.leaf, nRes);
    for (int r = 0; r < nRes; r++) {
      n.nonTas[r] += sign * request[r];
      if (n.present) {
        n.leaf.nonTas[r] += sign * request[r];
      }
    }
    tree.propagate(n.leaf, before);
  }

  /** TAS usage of {@code count} pods of {@code podRequest} (which includes pods=1) on a leaf. */
  public void addTasUsage(Domain leaf, long[] podRequest, int count, int sign) {
    DomainTree.LeafState before = DomainTree.LeafState.of(leaf, nRes);
    for (int r = 0; r < nRes; r++) {
      leaf.leafTas[r] += (long) sign * podRequest[r] * count;
    }
    tree.propagate(leaf, before);
  }

  // ------------------------------------------------------------------ queries

  public List<Domain> leaves() {
    return tree.leaves;
  }

  public List<Domain> domains(int level) {
    return tree.byLevel.get(level);
  }

  public Domain leaf(int leafIdx) {
    return tree.leaves.get(leafIdx);
  }

  /** The leaf a node sits in, or null for a node outside this tree. */
  public Domain leafOfNode(String name) {
    Node n = nodeByName.get(name);
    return n == null ? null : n.leaf;
  }

  /** The leaf with a Kueue domain ID (the hostname when hostname is the lowest level), or null. */
  public Domain leafById(String id) {
    return tree.leafById.get(id);
  }

  /** Names of the present nodes of a leaf, in the order they were added. */
  public List<String> presentNodes(Domain leaf) {
    List<String> out = new ArrayList<>();
    for (int i : leaf.nodes) {
      if (nodes.get(i).present) {
        out.add(nodes.get(i).spec.name());
      }
    }
    return out;
  }

  /** The first node of a leaf (a hostname leaf has exactly one). */
  TasNode firstNode(Domain leaf) {
    return nodes.get(leaf.nodes.get(0)).spec;
  }

  /** The names of every node of a leaf, present or not. */
  public List<String> nodeNames(Domain leaf) {
    List<String> out = new ArrayList<>();
    for (int i : leaf.nodes) {
      out.add(nodes.get(i).spec.name());
    }
    return out;
  }

  /** Remaining capacity of a leaf: allocatable − non-TAS − TAS usage (without TAS usage when simulating empty). */
  long remaining(Domain leaf, int r, boolean simulateEmpty) {
    long v = leaf.capacity[r] - leaf.nonTas[r];
    return simulateEmpty ? v : v - leaf.leafTas[r];
  }

  /** Kueue CountIn: how many pods of {@code req} fit in {@code avail} (clamped at 0). */
  static int countIn(long[] req, long[] avail) {
    long best = Integer.MAX_VALUE;
    for (int r = 0; r < req.length; r++) {
      if (req[r] > 0) {
        best = Math.min(best, Math.max(0, avail[r] / req[r]));
      }
    }
    return (int) best;
  }

  /** The placement algorithm on this tree. */
  public TopologyAssigner assigner() {
    return assigner;
  }

  /** TAS usage of a resource cached on a leaf (present or not). */
  public long tasUsage(Domain leaf, int r) {
    return leaf.leafTas[r];
  }

  /** Kueue Fits for one domain: the leaf is present and {@code count} pods still fit (avail is scratch). */
  public boolean fitsOn(Domain leaf, long[] podRequest, int count, long[] avail) {
    if (!leaf.present()) {
      return false;
    }
    for (int r = 0; r < nRes; r++) {
      avail[r] = remaining(leaf, r, false);
    }
    return countIn(podRequest, avail) >= count;
  }

  /** Kueue TASFlavorSnapshot.Fits: each assigned leaf is present and still holds its pods. */
  public boolean fits(long[] podRequest, TopologyAssignment a) {
    long[] avail = new long[nRes];
    for (TopologyAssignment.Slot s : a.slots()) {
      Domain leaf = tree.leaves.get(s.leaf());
      if (!leaf.present()) {
        return false;
      }
      for (int r = 0; r < nRes; r++) {
        avail[r] = remaining(leaf, r, false);
      }
      if (countIn(podRequest, avail) < s.count()) {
        return false;
      }
    }
    return true;
  }

  /** Leaves whose non-TAS or TAS usage went negative (checked mode); empty when sound. */
  public List<String> checkUsage() {
    List<String> out = new ArrayList<>();
    for (Domain leaf : tree.leaves) {
      for (int r = 0; r < nRes; r++) {
        if (leaf.nonTas[r] < 0 || leaf.leafTas[r] < 0) {
          out.add("TAS flavor " + flavor + " leaf " + leaf.id + " has negative usage of " + resourceNames.get(r)
              + " (non-TAS " + leaf.nonTas[r] + ", TAS " + leaf.leafTas[r] + ")");
        }
      }
    }
    return out;
  }

  /** Whole free domains (every node present, no pod at all) at a level. */
  public int freeDomains(int level) {
    return tree.freeDomains[level];
  }

  /** The most pods of {@code podRequest} that fit in a single domain of the level, now. */
  public int largestFit(int level, long[] podRequest) {
    long[] avail = new long[nRes];
    int[] perDomain = new int[tree.domains.size()];
    for (Domain leaf : tree.leaves) {
      if (!leaf.present()) {
        continue;
      }
      for (int r = 0; r < nRes; r++) {
        avail[r] = remaining(leaf, r, false);
      }
      int c = countIn(podRequest, avail);
      for (Domain d = leaf; d != null; d = d.parent) {
        perDomain[d.idx] += c;
      }
    }
    int best = 0;
    for (Domain d : tree.byLevel.get(level)) {
      best = Math.max(best, perDomain[d.idx]);
    }
    return best;
  }

  /** Used amount of a resource in a domain: allocatable − remaining, over its present leaves. */
  public long used(Domain d, int r) {
    return d.alloc[r] - (d.free[r] - d.tas[r]);
  }

  /** Allocatable of a resource over the present leaves of a domain. */
  public long allocatable(Domain d, int r) {
    return d.alloc[r];
  }

  /** Remaining capacity over a domain's present leaves (allocatable − non-TAS − TAS usage). */
  public long remainingIn(Domain d, int r) {
    return d.free[r] - d.tas[r];
  }

  @Override
  public String toString() {
    return "TasFlavorSnapshot(" + flavor + ", " + topology + ", " + tree.leaves.size() + " leaves)";
  }
}