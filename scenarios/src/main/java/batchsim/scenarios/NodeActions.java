package batchsim.scenarios;

import batchsim.core.model.ClusterAction;
import batchsim.core.model.NodeAction;
import batchsim.core.model.Taint;
import batchsim.core.model.TopologySpec;
import batchsim.scenarios.yaml.MapNode;
import batchsim.scenarios.yaml.Node;
import batchsim.scenarios.yaml.ScalarNode;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Nodes named exactly (the world's actions, under every engine): NotReady and Ready, taints and labels
 * added or removed, deletion. Names that no node can ever have are refused here; see {@link NodeNames}.
 */
final class NodeActions extends ActionFamily {
  static final List<String> KEYS = List.of("setNodeNotReady", "setNodeReady", "taintNodes", "untaintNodes",
      "labelNodes", "unlabelNodes", "deleteNodes");

  NodeActions(ActionContext ctx) {
    super(ctx, KEYS);
  }

  @Override
  ClusterAction bind(String kind, Fields outer) {
    switch (kind) {
      case "setNodeNotReady":
      case "setNodeReady":
      case "deleteNodes": {
        List<String> nodes = ctx.nodeNames.read(outer.map(kind, "nodes"), ctx.problems);
        if (nodes == null) {
          return null;
        }
        return kind.equals("deleteNodes") ? new NodeAction.Delete(nodes)
            : new NodeAction.SetReady(nodes, kind.equals("setNodeReady"));
      }
      case "taintNodes": {
        Fields f = outer.map(kind, "nodes", "key", "value", "effect");
        List<String> nodes = ctx.nodeNames.read(f, ctx.problems);
        Taint t = ctx.kube.taint(f);
        return nodes == null || t == null ? null : new NodeAction.SetTaint(nodes, t, true);
      }
      case "untaintNodes": {
        Fields f = outer.map(kind, "nodes", "key", "effect");
        List<String> nodes = ctx.nodeNames.read(f, ctx.problems);
        ScalarNode key = f.requiredName("key");
        String effect = ctx.kube.optionalEffect(f);
        return nodes == null || key == null ? null
            : new NodeAction.SetTaint(nodes, new Taint(key.text(), "", effect), false);
      }
      case "labelNodes": {
        Fields f = outer.map(kind, "nodes", "labels");
        List<String> nodes = ctx.nodeNames.read(f, ctx.problems);
        Node labels = f.required("labels");
        SortedMap<String, String> set = new TreeMap<>(f.stringMap("labels"));
        boolean ok = labels instanceof MapNode;
        if (labels instanceof MapNode m) {
          if (set.isEmpty()) {
            ctx.problems.at(labels, "must not be empty");
            ok = false;
          }
          for (MapNode.Entry e : m.entries().values()) {
            ok &= changeable(e.key());
          }
        }
        return nodes == null || !ok ? null : new NodeAction.SetLabels(nodes, set);
      }
      default: { // unlabelNodes
        Fields f = outer.map(kind, "nodes", "keys");
        List<String> nodes = ctx.nodeNames.read(f, ctx.problems);
        Node keysNode = f.required("keys");
        SortedMap<String, String> removed = new TreeMap<>();
        boolean ok = keysNode != null;
        List<ScalarNode> keys = f.stringList("keys");
        if (keysNode != null && keys.isEmpty()) {
          ctx.problems.at(keysNode, "must not be empty");
          ok = false;
        }
        for (ScalarNode k : keys) {
          ok &= changeable(k);
          removed.put(k.text(), null);
        }
        return nodes == null || !ok ? null : new NodeAction.SetLabels(nodes, removed);
      }
    }
  }

  /**
   * A label key the run can change: not a topology level (that would move the node to another domain of
   * Kueue's TAS trees, which are built once) nor a TAS flavor's node label (that would move it in or out of
   * the flavor's tree). Reported at {@code key} otherwise.
   */
  private boolean changeable(ScalarNode key) {
    String k = key.text();
    if (k.equals(TopologySpec.HOSTNAME)) {
      ctx.problems.at(key, "label " + k + " is the node's name; it cannot be changed");
      return false;
    }
    for (TopologySpec t : ctx.scenario.topologies()) {
      if (t.levels().contains(k)) {
        ctx.problems.at(key, "label " + k + " is a level of topology " + t.name() + ": changing it mid-run would "
            + "move the node between topology domains, which batchsim does not model (TAS trees are built once)");
        return false;
      }
    }
    for (Spec.Flavor f : ctx.scenario.flavors()) {
      Map<String, String> nodeLabels = f.spec().nodeLabels();
      if (f.spec().topologyName() != null && nodeLabels.containsKey(k)) {
        ctx.problems.at(key, "label " + k + " is a node label of TAS flavor " + f.name().text() + ": changing it "
            + "mid-run would move the node in or out of the flavor's topology tree, which batchsim does not model");
        return false;
      }
    }
    return true;
  }
}
