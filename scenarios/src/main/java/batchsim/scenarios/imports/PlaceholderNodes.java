package batchsim.scenarios.imports;

import batchsim.core.model.Quantity;
import batchsim.core.model.Taint;
import batchsim.scenarios.yaml.MapNode;
import batchsim.scenarios.yaml.Node;
import batchsim.workloads.trace.NodePools;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Nodes for Kueue objects and jobs imported without a node list: per ResourceFlavor, a pool whose nodes carry
 * the flavor's node labels and taints, each node big enough for the largest pod the jobs request and as many
 * nodes as the ClusterQueues' nominal quota in that flavor needs. So an imported scenario can run (a pod
 * that fits no node would wait forever); the comment says the nodes are generated.
 */
final class PlaceholderNodes {
  /** A generated node's size when no pod asks for more; GPUs only where a ClusterQueue covers them. */
  private static final Map<String, Long> NODE = Map.of("cpu", 64_000L, "memory", 512L << 30, "nvidia.com/gpu", 8L);
  private static final long FALLBACK_NODES = 10;

  private PlaceholderNodes() {}

  /** Adds one pool per flavor (or one pool when there are none) to {@code d}. */
  static void add(ScenarioDraft d) {
    Map<String, Map<String, Long>> quota = quotaPerFlavor(d);
    List<String> how = new ArrayList<>();
    if (d.flavors.isEmpty()) {
      Map<String, Long> node = nodeFor(d.largestPod.keySet(), d);
      d.pools.add(ClusterImport.pool(d, new NodePools.Pool("node", (int) FALLBACK_NODES, new TreeMap<>(), List.of(),
          new TreeMap<>(node), 0)));
      how.add(FALLBACK_NODES + " nodes big enough for the largest pod");
    }
    for (Node f : d.flavors) {
      String name = Tree.text(f, "name");
      Map<String, Long> covered = quota.getOrDefault(name, Map.of());
      Map<String, Long> node = nodeFor(covered.keySet(), d);
      long count = 1;
      for (Map.Entry<String, Long> q : covered.entrySet()) {
        long per = node.getOrDefault(q.getKey(), 0L);
        if (per > 0) {
          count = Math.max(count, (q.getValue() + per - 1) / per);
        }
      }
      TreeMap<String, String> labels = new TreeMap<>();
      Tree.entries(f, "nodeLabels").forEach((k, e) -> labels.put(k, Tree.text(e.value())));
      List<Taint> taints = new ArrayList<>();
      for (Node t : Tree.items(f, "nodeTaints")) {
        taints.add(new Taint(Tree.text(t, "key"), String.valueOf(Tree.text(t, "value") == null ? ""
            : Tree.text(t, "value")), Tree.text(t, "effect")));
      }
      d.pools.add(ClusterImport.pool(d, new NodePools.Pool(ScenarioDraft.dns(name), (int) Math.min(count, 10_000),
          labels, taints, new TreeMap<>(node), 0)));
      how.add(ScenarioDraft.dns(name) + ": " + count + " for " + (covered.isEmpty() ? "no quota" : "its nominal quota"));
    }
    d.clusterSources.add("No node list was given, so these nodes are generated (edit them): per ResourceFlavor, "
        + "nodes with its labels and taints, each big enough for the largest pod, as many as the ClusterQueues' "
        + "nominal quota in it needs (" + String.join("; ", how) + ")");
  }

  /** A node's allocatable: cpu and memory, and these resources, each the default size or the largest pod's. */
  private static Map<String, Long> nodeFor(Iterable<String> resources, ScenarioDraft d) {
    Map<String, Long> node = new LinkedHashMap<>();
    List<String> all = new ArrayList<>(List.of("cpu", "memory"));
    resources.forEach(all::add);
    for (String r : all) {
      if (!r.equals("pods")) { // every node has Kubernetes' 110
        node.merge(r, Math.max(NODE.getOrDefault(r, 0L), d.largestPod.getOrDefault(r, 0L)), Math::max);
      }
    }
    return node;
  }

  /** Σ nominalQuota per flavor and resource over the ClusterQueues (and cohorts' own quota). */
  private static Map<String, Map<String, Long>> quotaPerFlavor(ScenarioDraft d) {
    Map<String, Map<String, Long>> out = new LinkedHashMap<>();
    List<Node> owners = new ArrayList<>(d.clusterQueues);
    owners.addAll(d.cohorts);
    for (Node owner : owners) {
      for (Node g : Tree.items(owner, "resourceGroups")) {
        for (Node f : Tree.items(g, "flavors")) {
          for (Node q : Tree.items(f, "resources")) {
            String r = Tree.text(q, "name");
            String nominal = Tree.text(q, "nominalQuota");
            if (r == null || nominal == null) {
              continue;
            }
            try {
              out.computeIfAbsent(Tree.text(f, "name"), k -> new LinkedHashMap<>())
                  .merge(r, Quantity.parse(r, nominal), Long::sum);
            } catch (IllegalArgumentException e) {
              // the scenario's loader reports a bad quantity where it is written
            }
          }
        }
      }
    }
    return out;
  }

  /** Remembers the largest request per resource of the pod sets in {@code template} ({@code podSets}). */
  static void noteRequests(ScenarioDraft d, MapNode template) {
    for (Node ps : Tree.items(template, "podSets")) {
      Tree.entries(ps, "requests").forEach((r, e) -> {
        try {
          d.largestPod.merge(r, Quantity.parse(r, String.valueOf(Tree.text(e.value()))), Math::max);
        } catch (IllegalArgumentException x) {
          // reported where the request is written
        }
      });
    }
  }
}
