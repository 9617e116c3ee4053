package batchsim.scenarios.imports;

import batchsim.scenarios.imports.KubeObjects.KubeObject;
import batchsim.scenarios.yaml.MapNode;
import batchsim.scenarios.yaml.Node;
import batchsim.scenarios.yaml.ScalarNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Volcano Queues ({@code scheduling.volcano.sh} v1beta1) as {@code volcano.queues} entries: weight,
 * capability, deserved, {@code guarantee.resource}, priority, reclaimable and {@code status.state} copy over;
 * {@code spec.parent} is kept apart for the import to place (it counts only with hierarchical capacity).
 * Resources no node and no job has are dropped (warned): they cannot bound anything, and the scenario
 * refuses resources that appear nowhere else. Other spec fields are warned about.
 */
final class VolcanoQueueReader {
  private static final Set<String> COPIED = Set.of("weight", "priority", "reclaimable");
  private static final List<String> RESOURCES = List.of("capability", "deserved", "guarantee");
  private static final Set<String> STATES = Set.of("Open", "Closed", "Closing");

  /** A queue entry without its parent, and the parent as written (null: none, i.e. root). */
  record Queue(String name, ScalarNode parent, MapNode entry) {}

  private VolcanoQueueReader() {}

  static boolean handles(KubeObject o) {
    return o.kind().equals("Queue") && o.group().equals(VolcanoJobReader.SCHEDULING);
  }

  /** The queues among {@code objects}; {@code resources} are the scenario's resource names. */
  static List<Queue> read(List<KubeObject> objects, Set<String> resources, Warnings warnings) {
    List<Queue> out = new ArrayList<>();
    for (KubeObject o : objects) {
      if (!handles(o)) {
        continue;
      }
      String what = "Queue " + o.name();
      Node spec = Tree.get(o.node(), "spec");
      Tree.Map_ q = Tree.map(o.location(), o.node().path());
      Node name = Tree.get(o.node(), "metadata", "name");
      q.put("name", name);
      Tree.entries(spec).forEach((k, e) -> {
        if (COPIED.contains(k)) {
          q.put(k, e.value());
        } else if (!k.equals("parent") && !RESOURCES.contains(k) && !e.value().isNull()) {
          warnings.at("Queue:" + k, e.key(), what + ": spec." + k + " is not modelled by batchsim; dropped");
        }
      });
      for (String r : RESOURCES) {
        Node list = r.equals("guarantee") ? Tree.get(spec, r, "resource") : Tree.get(spec, r);
        Tree.entries(spec, r).forEach((k, e) -> {
          if (r.equals("guarantee") && !k.equals("resource")) {
            warnings.at("Queue:guarantee." + k, e.key(), what + ": spec.guarantee." + k + " is not modelled by "
                + "batchsim; dropped");
          }
        });
        MapNode kept = resources(list, resources, what, warnings);
        if (kept != null) {
          q.put(r, kept);
        }
      }
      Node state = Tree.get(o.node(), "status", "state");
      if (state != null && STATES.contains(Tree.text(state))) {
        q.put("state", state);
      } else if (state != null) {
        warnings.at("Queue:state", state, what + ": status.state " + Tree.text(state) + " is not Open, Closed or "
            + "Closing; read as Open");
      }
      Node parent = Tree.get(spec, "parent");
      out.add(new Queue(o.name(), parent instanceof ScalarNode p && !p.text().isEmpty() ? p : null, q.build()));
    }
    return out;
  }

  private static MapNode resources(Node list, Set<String> resources, String what, Warnings warnings) {
    if (!(list instanceof MapNode m)) {
      return null;
    }
    Tree.Map_ out = Tree.map(m.location(), m.path());
    m.entries().forEach((r, e) -> {
      if (resources.contains(r)) {
        out.put(r, e.value());
      } else {
        warnings.at("Queue:resource:" + r, e.key(), what + ": " + r + " is a resource no node or job in the "
            + "inputs has; dropped (it bounds nothing)");
      }
    });
    return out.isEmpty() ? null : out.build();
  }
}
