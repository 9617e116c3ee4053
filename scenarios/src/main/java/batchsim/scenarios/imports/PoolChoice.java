package batchsim.scenarios.imports;

import static batchsim.scenarios.imports.ScenarioDraft.HERE;

import batchsim.scenarios.yaml.MapNode;
import batchsim.scenarios.yaml.Node;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which imported node pool a ProvisioningRequest check grows: the pools whose labels carry the nodeLabels of
 * the flavors the check applies to, in the ClusterQueues that use it (admissionChecks, or an
 * admissionChecksStrategy rule's onFlavors). The pool gets an {@code autoscaling} entry, since the nodes do
 * not say the autoscaler's range: from the nodes it has now to twice as many (at least 8 more).
 */
final class PoolChoice {
  /** The least growth an assumed autoscaling range allows. */
  private static final int MIN_GROWTH = 8;

  private PoolChoice() {}

  /** The pool for {@code check} (null when the draft has no pool; warned), its reason added to {@code comment}. */
  static String pool(ScenarioDraft d, String check, List<String> comment) {
    List<String> all = new ArrayList<>();
    d.pools.forEach(p -> all.add(Tree.text(p, "name")));
    if (all.isEmpty()) {
      d.warnings.add("AdmissionCheck:pool", HERE, "admission check " + check + ": there are no node pools to grow "
          + "(nodes come from nodesFrom); imported without provisioningRequest, so it stays Pending: write one by hand");
      return null;
    }
    Set<String> matching = new LinkedHashSet<>();
    Set<String> flavors = new LinkedHashSet<>();
    for (MapNode cq : queuesUsing(d, check)) {
      for (String f : flavorsFor(cq, check)) {
        flavors.add(f);
        Map<String, MapNode.Entry> wanted = Tree.entries(flavor(d, f), "nodeLabels");
        for (Node p : d.pools) {
          Map<String, MapNode.Entry> labels = Tree.entries(p, "labels");
          if (wanted.entrySet().stream().allMatch(e -> labels.containsKey(e.getKey())
              && Tree.text(labels.get(e.getKey()).value()).equals(Tree.text(e.getValue().value())))) {
            matching.add(Tree.text(p, "name"));
          }
        }
      }
    }
    String pool;
    if (matching.isEmpty()) {
      pool = all.get(0);
      d.warnings.add("AdmissionCheck:pool:" + check, HERE, "admission check " + check + ": no node pool carries the "
          + "node labels of its flavors " + flavors + "; provisioningRequest.pool is " + pool + " (edit it)");
      comment.add("pool " + pool + ": the first pool, since none matches the flavors " + flavors);
    } else {
      pool = matching.iterator().next();
      comment.add("pool " + pool + ": its nodes carry the node labels of flavor(s) " + flavors + (matching.size() == 1
          ? "" : "; so do " + String.join(", ", matching.stream().skip(1).toList()) + " (one pool grows per check)"));
    }
    autoscale(d, pool);
    return pool;
  }

  private static void autoscale(ScenarioDraft d, String pool) {
    if (d.autoscaling.stream().anyMatch(a -> pool.equals(Tree.text(a, "pool")))) {
      return;
    }
    long count = d.pools.stream().filter(p -> pool.equals(Tree.text(p, "name")))
        .mapToLong(p -> Long.parseLong(Tree.text(p, "count"))).sum();
    MapNode a = Tree.map(HERE, "").put("pool", pool, HERE).put("min", Tree.integer(HERE, "", count))
        .put("max", Tree.integer(HERE, "", count + Math.max(count, MIN_GROWTH)))
        .put("scaleDownDelay", "10m", HERE).build();
    d.autoscaling.add(a);
    d.comments.put(a, List.of("assumed (edit): ProvisioningRequests grow " + pool + " from the " + count + " nodes it "
        + "has to twice as many (at least " + MIN_GROWTH + " more); empty added nodes go after 10m"));
  }

  /** The ClusterQueue entries that name {@code check}. */
  static List<MapNode> queuesUsing(ScenarioDraft d, String check) {
    List<MapNode> out = new ArrayList<>();
    for (Node cq : d.clusterQueues) {
      boolean uses = Tree.items(cq, "admissionChecks").stream().anyMatch(c -> check.equals(Tree.text(c)))
          || Tree.items(cq, "admissionChecksStrategy", "admissionChecks").stream()
              .anyMatch(r -> check.equals(Tree.text(r, "name")));
      if (uses && cq instanceof MapNode m) {
        out.add(m);
      }
    }
    return out;
  }

  /** The flavors {@code check} applies to in {@code cq}: its rule's onFlavors, or all the queue's flavors. */
  private static List<String> flavorsFor(MapNode cq, String check) {
    for (Node r : Tree.items(cq, "admissionChecksStrategy", "admissionChecks")) {
      List<Node> on = Tree.items(r, "onFlavors");
      if (check.equals(Tree.text(r, "name")) && !on.isEmpty()) {
        return on.stream().map(Tree::text).toList();
      }
    }
    List<String> out = new ArrayList<>();
    for (Node g : Tree.items(cq, "resourceGroups")) {
      Tree.items(g, "flavors").forEach(f -> out.add(Tree.text(f, "name")));
    }
    return out;
  }

  private static Node flavor(ScenarioDraft d, String name) {
    return d.flavors.stream().filter(f -> name.equals(Tree.text(f, "name"))).findFirst().orElse(null);
  }

  /** Resources the draft's nodes have or its ClusterQueues cover. */
  static Set<String> resources(ScenarioDraft d) {
    Set<String> out = new LinkedHashSet<>(d.capacity.keySet());
    for (Node cq : d.clusterQueues) {
      Tree.items(cq, "resourceGroups").forEach(g -> Tree.items(g, "coveredResources").forEach(r -> out.add(Tree.text(r))));
    }
    return out;
  }
}
