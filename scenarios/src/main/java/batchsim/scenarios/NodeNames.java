package batchsim.scenarios;

import batchsim.scenarios.yaml.ListNode;
import batchsim.scenarios.yaml.MapNode;
import batchsim.scenarios.yaml.Node;
import batchsim.scenarios.yaml.ScalarNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Which node names a timeline action may name. Nodes are named {@code <pool>-<i>}: a pool's first
 * {@code count} exist from the start, and higher numbers only in a pool that grows (an {@code addNodes}
 * event, or the autoscaler). A name outside those can never exist and is refused where it is written; one
 * that may exist later is checked when the action is applied.
 */
final class NodeNames {
  private final Spec.Scenario scenario;
  private final Set<String> growing;

  NodeNames(Spec.Scenario scenario, Set<String> growing) {
    this.scenario = scenario;
    this.growing = growing;
  }

  /** The pools that may get more nodes: named by an addNodes event or by autoscaling. */
  static Set<String> growingPools(Node root) {
    Set<String> out = new LinkedHashSet<>();
    if (root instanceof MapNode m) {
      for (Node e : listItems(m.get("events"))) {
        if (e instanceof MapNode em && em.get("addNodes") instanceof MapNode add
            && add.get("pool") instanceof ScalarNode pool) {
          out.add(pool.text());
        }
      }
      for (Node a : listItems(m.get("autoscaling"))) {
        if (a instanceof MapNode am && am.get("pool") instanceof ScalarNode pool) {
          out.add(pool.text());
        }
      }
    }
    return out;
  }

  private static List<Node> listItems(Node n) {
    return n instanceof ListNode l ? l.items() : List.of();
  }

  /** The names of {@code f}'s required, non-empty list {@code nodes}; null after reporting a problem. */
  List<String> read(Fields f, Problems problems) {
    Node list = f.required("nodes");
    List<ScalarNode> names = f.stringList("nodes");
    if (list instanceof ListNode l && l.items().isEmpty()) {
      problems.at(list, "must not be empty");
    }
    List<String> out = new ArrayList<>();
    boolean ok = list instanceof ListNode && names.size() == ((ListNode) list).items().size();
    for (ScalarNode s : names) {
      String why = never(s.text());
      if (why != null) {
        problems.at(s, why);
        ok = false;
      } else if (out.contains(s.text())) {
        problems.at(s, "node " + s.text() + " is named twice");
        ok = false;
      } else {
        out.add(s.text());
      }
    }
    return ok && !out.isEmpty() ? List.copyOf(out) : null;
  }

  /** Why a pool never has {@code count} nodes to act on, or null when it has or may have them. */
  String tooMany(String pool, int count) {
    for (Spec.NodePool p : scenario.nodePools()) {
      if (p.name() != null && p.name().text().equals(pool) && count > p.count() && !growing.contains(pool)) {
        return "count " + count + " is more than pool " + pool + " ever has: " + p.count() + " node"
            + (p.count() == 1 ? "" : "s") + " and no addNodes event or autoscaling adds any";
      }
    }
    return null;
  }

  /** Why no node is ever named {@code name}, or null when one is or may be. */
  String never(String name) {
    return missing(name, false);
  }

  /** Why no node named {@code name} exists when the run starts (where a restored workload's pods run), or null. */
  String absentAtStart(String name) {
    return missing(name, true);
  }

  private String missing(String name, boolean atStart) {
    for (Spec.NodePool p : scenario.nodePools()) {
      String pool = p.name().text();
      if (name.startsWith(pool + "-")) {
        String number = name.substring(pool.length() + 1);
        if (number.matches("0|[1-9][0-9]{0,8}")) {
          int i = Integer.parseInt(number);
          if (i < p.count() || !atStart && growing.contains(pool)) {
            return null;
          }
          return "node " + name + " never exists: pool " + pool + " has " + p.count() + " nodes ("
              + (p.count() == 0 ? "none" : pool + "-0 .. " + pool + "-" + (p.count() - 1))
              + (atStart ? ") at the start" : ") and no addNodes event or autoscaling adds any");
        }
      }
    }
    List<String> pools = new ArrayList<>();
    scenario.nodePools().forEach(p -> pools.add(p.name().text()));
    return "unknown node '" + name + "': nodes are named <pool>-<number> (pools: " + String.join(", ", pools)
        + ")" + (atStart ? " at the start" : "");
  }
}
