package batchsim.scenarios.imports;

import batchsim.core.model.Quantity;
import batchsim.core.model.Taint;
import batchsim.scenarios.imports.KubeObjects.KubeObject;
import batchsim.scenarios.yaml.IssueSink;
import batchsim.scenarios.yaml.MapNode;
import batchsim.scenarios.yaml.Node;
import batchsim.workloads.trace.NodePools;
import batchsim.workloads.trace.NodeRecord;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * The nodes of {@code kubectl get nodes -o yaml}: labels, taints, allocatable (the capacity pods get) and
 * the Ready condition. {@link #cluster} (for {@code batchsim import}) keeps every node, NotReady and cordoned
 * ones listed, and groups them by the labels imported objects schedule by. {@link #read} (for a scenario's
 * {@code nodesFrom}) leaves NotReady and cordoned nodes out (warned) unless asked for; per-node labels
 * ({@code kubernetes.io/hostname} and {@code ignoreLabels}) are dropped, and with {@code keepLabels} only
 * those labels stay, so that nodes differing only in other labels fall into one pool.
 */
public final class NodeListReader {
  /** Labels every node has a different value of; batchsim names pool nodes itself. */
  static final Set<String> PER_NODE_LABELS = Set.of("kubernetes.io/hostname");
  /** Allocatable resources no scheduler decision here depends on. */
  private static final String[] UNMODELLED_PREFIXES = {"ephemeral-storage", "hugepages-", "attachable-volumes-"};
  private static final String CORDONED = "cordoned";
  /**
   * The taints Kubernetes' node controllers put on a node for its conditions (not-ready, unreachable,
   * unschedulable, memory-pressure, ...); an imported node gets its state instead.
   */
  private static final String CONDITION_TAINT = "node.kubernetes.io/";
  private static final String[] NODE_GROUP = {"cloud.google.com/gke-nodepool", "eks.amazonaws.com/nodegroup",
      "karpenter.sh/nodepool", "kubernetes.azure.com/agentpool"};
  private static final String[] INSTANCE_TYPE = {"node.kubernetes.io/instance-type", "beta.kubernetes.io/instance-type"};

  private NodeListReader() {}

  /**
   * @param keepLabels label keys to keep (all but per-node ones when empty)
   * @param ignoreLabels more label keys to drop
   */
  public record Options(boolean includeNotReady, Set<String> keepLabels, Set<String> ignoreLabels) {
    public static final Options DEFAULT = new Options(false, Set.of(), Set.of());

    public Options {
      keepLabels = Set.copyOf(keepLabels);
      ignoreLabels = Set.copyOf(ignoreLabels);
    }
  }

  public static boolean handles(KubeObject o) {
    return o.kind().equals("Node") && o.group().isEmpty();
  }

  /** The Node objects among {@code objects}; bad quantities are problems, left-out nodes warnings. */
  public static List<NodeRecord> read(List<KubeObject> objects, Options options, IssueSink problems,
      Warnings warnings) {
    List<NodeRecord> out = new ArrayList<>();
    for (KubeObject o : objects) {
      if (!handles(o)) {
        continue;
      }
      String why = notSchedulable(o.node());
      if (why != null && !options.includeNotReady()) {
        warnings.add("Node:" + why, o.location(), "Node " + o.name() + " is " + why + "; left out (includeNotReady: true "
            + "keeps such nodes)");
        continue;
      }
      NodeRecord n = node(o, k -> options.keepLabels().isEmpty()
          ? !PER_NODE_LABELS.contains(k) && !options.ignoreLabels().contains(k) : options.keepLabels().contains(k),
          true, problems, warnings);
      if (n != null) {
        out.add(n);
      }
    }
    return out;
  }

  /**
   * The imported cluster: pools of the nodes that schedule alike, and every node's scenario name.
   *
   * @param pools in order of first appearance; nodes are named {@code <pool>-<i>} in input order
   * @param scenarioNames real node name → scenario node name, in input order
   * @param notReady scenario names of nodes whose Ready condition is not True
   * @param cordoned scenario names of nodes with {@code spec.unschedulable}
   * @param droppedLabels label keys no imported object schedules by (left out of the pools)
   */
  public record Cluster(List<NodePools.Pool> pools, Map<String, String> scenarioNames, List<String> notReady,
      List<String> cordoned, Set<String> droppedLabels) {}

  /**
   * Every Node among {@code objects}, grouped by what scheduling sees: allocatable, taints and only the labels
   * in {@code schedulingLabels} (per-node labels such as the hostname would make one pool per node). NotReady
   * and cordoned nodes are kept and listed, without the taints the node controllers add for those states;
   * pools are named after the cloud's node group, else the instance type.
   */
  public static Cluster cluster(List<KubeObject> objects, Set<String> schedulingLabels, IssueSink problems,
      Warnings warnings) {
    List<NodeRecord> nodes = new ArrayList<>();
    Map<NodeRecord, String> poolName = new IdentityHashMap<>();
    Map<NodeRecord, KubeObject> source = new IdentityHashMap<>();
    Set<String> dropped = new TreeSet<>();
    for (KubeObject o : objects) {
      if (!handles(o)) {
        continue;
      }
      NodeRecord n = node(o, schedulingLabels::contains, false, problems, warnings);
      if (n == null) {
        continue;
      }
      Map<String, MapNode.Entry> labels = Tree.entries(o.node(), "metadata", "labels");
      labels.forEach((k, e) -> {
        if (!schedulingLabels.contains(k) && !PER_NODE_LABELS.contains(k) && dropped.add(k)) {
          warnings.at("Node:labels", e.key(), "Node " + o.name() + ": label " + k + " is selected on by no "
              + "ResourceFlavor, Topology or job; left out of the pools, so nodes that differ only in such labels "
              + "share one");
        }
      });
      poolName.put(n, poolName(labels));
      source.put(n, o);
      nodes.add(n);
    }
    List<NodePools.Pool> pools = NodePools.group(nodes, poolName::get);
    Map<List<Object>, String> poolOf = new HashMap<>();
    pools.forEach(p -> poolOf.put(List.of(p.labels(), p.taints(), p.allocatable()), p.name()));
    Map<String, Integer> next = new HashMap<>();
    Map<String, String> names = new LinkedHashMap<>();
    List<String> notReady = new ArrayList<>();
    List<String> cordoned = new ArrayList<>();
    for (NodeRecord n : nodes) {
      String pool = poolOf.get(List.of(n.labels(), n.taints(), n.allocatable()));
      String name = pool + "-" + (next.merge(pool, 1, Integer::sum) - 1);
      names.put(n.name(), name);
      KubeObject o = source.get(n);
      if (isCordoned(o.node())) {
        cordoned.add(name);
        warnings.add("Node:" + CORDONED, o.location(), "Node " + o.name() + " is cordoned: imported as " + name
            + ", cordoned (cordonNodes at 0s in events)");
      }
      if (isNotReady(o.node())) {
        notReady.add(name);
        warnings.add("Node:not Ready", o.location(), "Node " + o.name() + " is not Ready: imported as " + name
            + ", NotReady (setNodeNotReady at 0s in events)");
      }
    }
    return new Cluster(pools, names, notReady, cordoned, dropped);
  }

  /** A pool's name: its cloud node group (GKE node pool, EKS node group, Karpenter or AKS pool) or instance type. */
  private static String poolName(Map<String, MapNode.Entry> labels) {
    for (String l : NODE_GROUP) {
      if (labels.containsKey(l) && Tree.text(labels.get(l).value()) != null) {
        return Tree.text(labels.get(l).value());
      }
    }
    for (String l : INSTANCE_TYPE) {
      if (labels.containsKey(l) && Tree.text(labels.get(l).value()) != null) {
        return Tree.text(labels.get(l).value());
      }
    }
    return "nodes";
  }

  /** One node with the labels {@code keep} accepts; null after reporting a problem. */
  private static NodeRecord node(KubeObject o, Predicate<String> keep, boolean conditionTaints, IssueSink problems,
      Warnings warnings) {
    SortedMap<String, String> labels = new TreeMap<>();
    Tree.entries(o.node(), "metadata", "labels").forEach((k, e) -> {
      if (keep.test(k)) {
        labels.put(k, Tree.text(e.value()) == null ? "" : Tree.text(e.value()));
      }
    });
    List<Taint> taints = new ArrayList<>();
    for (Node t : Tree.items(o.node(), "spec", "taints")) {
      String key = Tree.text(t, "key");
      String effect = Tree.text(t, "effect");
      if (key == null || effect == null) {
        problems.report(t.location(), t.path(), "a taint needs key and effect");
        continue;
      }
      if (!conditionTaints && key.startsWith(CONDITION_TAINT)) {
        warnings.at("Node:conditionTaint", t, "Node " + o.name() + ": taint " + key + ":" + effect + " marks the "
            + "node's condition; left out, since its Ready and cordoned state is imported instead");
        continue;
      }
      taints.add(new Taint(key, Tree.text(t, "value") == null ? "" : Tree.text(t, "value"), effect));
    }
    SortedMap<String, Long> allocatable = new TreeMap<>();
    Node alloc = Tree.get(o.node(), "status", "allocatable");
    if (!(alloc instanceof MapNode m)) {
      problems.report(o.location(), o.node().path(), "Node " + o.name() + " has no status.allocatable");
      return null;
    }
    m.entries().forEach((r, e) -> {
      for (String p : UNMODELLED_PREFIXES) {
        if (r.startsWith(p)) {
          warnings.at("Node:allocatable:" + p, e.key(), "Node allocatable " + r
              + " is not needed by batchsim's scheduler; dropped");
          return;
        }
      }
      try {
        allocatable.put(r, Quantity.parse(r, Tree.text(e.value()) == null ? "" : Tree.text(e.value())));
      } catch (IllegalArgumentException ex) {
        problems.report(e.value().location(), e.value().path(), ex.getMessage());
      }
    });
    return new NodeRecord(o.name(), o.location().line(), labels, taints, allocatable);
  }

  /** Pools of identical nodes, named after their instance type. */
  public static List<NodePools.Pool> pools(List<NodeRecord> nodes) {
    return NodePools.group(nodes, n -> {
      for (String l : INSTANCE_TYPE) {
        if (n.labels().containsKey(l)) {
          return n.labels().get(l);
        }
      }
      return "nodes";
    });
  }

  /** "not Ready", "cordoned", or null for a node that takes pods. */
  private static String notSchedulable(Node node) {
    return isCordoned(node) ? CORDONED : isNotReady(node) ? "not Ready" : null;
  }

  private static boolean isCordoned(Node node) {
    return "true".equals(Tree.text(node, "spec", "unschedulable"));
  }

  private static boolean isNotReady(Node node) {
    return Tree.items(node, "status", "conditions").stream()
        .anyMatch(c -> "Ready".equals(Tree.text(c, "type")) && !"True".equals(Tree.text(c, "status")));
  }
}
