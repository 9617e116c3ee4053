package batchsim.core.world;

import batchsim.core.cluster.Node;
import batchsim.core.model.NodeAction;
import batchsim.core.model.Taint;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Timeline actions on nodes named exactly, under every engine: readiness, taints, labels and deletion, as
 * the API server takes them; {@link Nodes} carries out what kube's controllers then do. Every name must be
 * a node present at that time (else the action is refused); each node is changed in the order named.
 */
final class NamedNodeActions {
  private final Nodes nodes;

  NamedNodeActions(Nodes nodes) {
    this.nodes = nodes;
  }

  void apply(NodeAction action) {
    List<Node> named = new ArrayList<>();
    for (String name : action.nodes()) {
      named.add(nodes.present(name)); // all checked before any changes
    }
    for (Node n : named) {
      if (action instanceof NodeAction.SetReady a) {
        setReady(n, a.ready());
      } else if (action instanceof NodeAction.SetTaint a) {
        nodes.edit(n, n.labels(), taints(n.taints(), a.taint(), a.add()));
      } else if (action instanceof NodeAction.SetLabels a) {
        nodes.edit(n, labels(n.labels(), a.labels()), n.taints());
      } else if (action instanceof NodeAction.Delete) {
        nodes.removeNode(n);
      } else {
        throw new IllegalStateException("unknown node action " + action);
      }
    }
  }

  /** Setting the condition it already has changes nothing (a kubelet reporting the same status). */
  private void setReady(Node n, boolean ready) {
    if (ready && n.failed()) {
      nodes.ready(n);
    } else if (!ready && !n.failed()) {
      nodes.notReady(n);
    }
  }

  /**
   * kubectl taint: adding a taint with the key and effect of an existing one replaces its value; removing
   * drops every taint with the key (and the effect, when given).
   */
  static List<Taint> taints(List<Taint> current, Taint t, boolean add) {
    List<Taint> out = new ArrayList<>();
    for (Taint c : current) {
      boolean sameKey = c.key().equals(t.key());
      boolean sameEffect = t.effect() == null || t.effect().equals(c.effect());
      if (!(sameKey && sameEffect)) {
        out.add(c);
      }
    }
    if (add) {
      out.add(t);
    }
    return out;
  }

  private static SortedMap<String, String> labels(SortedMap<String, String> current, SortedMap<String, String> change) {
    SortedMap<String, String> out = new TreeMap<>(current);
    change.forEach((key, value) -> {
      if (value == null) {
        out.remove(key);
      } else {
        out.put(key, value);
      }
    });
    return out;
  }
}
