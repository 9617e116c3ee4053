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
import java.util.List;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The nodes of {@code kubectl get nodes -o yaml}: labels, taints, allocatable and the Ready condition.
 * Nodes that are not Ready or are cordoned are left out (warned) unless asked for; per-node labels
 * ({@code kubernetes.io/hostname} and {@code ignoreLabels}) are dropped, and with {@code keepLabels} only
 * those labels stay, so that nodes differing only in other labels fall into one pool.
 */
public final class NodeListReader {
  /** Labels every node has a different value of; batchsim names pool nodes itself. */
  static final Set<String> PER_NODE_LABELS = Set.of("kubernetes.io/hostname");
  /** Allocatable resources no scheduler decision here depends on. */
  private static final String[] UNMODELLED_PREFIXES = {"ephemeral-storage", "hugepages-", "attachable-volumes-"};
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
      SortedMap<String, String> labels = new TreeMap<>();
      Tree.entries(o.node(), "metadata", "labels").forEach((k, e) -> {
        boolean keep = options.keepLabels().isEmpty() ? !PER_NODE_LABELS.contains(k) && !options.ignoreLabels().contains(k)
            : options.keepLabels().contains(k);
        if (keep) {
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
        taints.add(new Taint(key, Tree.text(t, "value") == null ? "" : Tree.text(t, "value"), effect));
      }
      SortedMap<String, Long> allocatable = new TreeMap<>();
      Node alloc = Tree.get(o.node(), "status", "allocatable");
      if (!(alloc instanceof MapNode m)) {
        problems.report(o.location(), o.node().path(), "Node " + o.name() + " has no status.allocatable");
        continue;
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
      out.add(new NodeRecord(o.name(), o.location().line(), labels, taints, allocatable));
    }
    return out;
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
    if ("true".equals(Tree.text(node, "spec", "unschedulable"))) {
      return "cordoned";
    }
    for (Node c : Tree.items(node, "status", "conditions")) {
      if ("Ready".equals(Tree.text(c, "type")) && !"True".equals(Tree.text(c, "status"))) {
        return "not Ready";
      }
    }
    return null;
  }
}
