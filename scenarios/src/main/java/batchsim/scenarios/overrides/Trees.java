package batchsim.scenarios.overrides;

import batchsim.scenarios.yaml.ListNode;
import batchsim.scenarios.yaml.Location;
import batchsim.scenarios.yaml.MapNode;
import batchsim.scenarios.yaml.Node;
import batchsim.scenarios.yaml.ScalarNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Small constructions on the immutable YAML tree. */
final class Trees {
  private Trees() {}

  static ScalarNode nullAt(Location at) {
    return new ScalarNode(at, "", "", ScalarNode.Type.NULL);
  }

  static MapNode emptyMap(Location at) {
    return new MapNode(at, "", Map.of());
  }

  /** {@code m} with {@code key} set to {@code value}; a new key goes last. */
  static MapNode with(MapNode m, String key, Node value) {
    Map<String, MapNode.Entry> entries = new LinkedHashMap<>(m.entries());
    MapNode.Entry old = entries.get(key);
    ScalarNode keyNode = old != null ? old.key()
        : new ScalarNode(value.location(), "", key, ScalarNode.Type.STRING);
    entries.put(key, new MapNode.Entry(keyNode, value));
    return new MapNode(m.location(), m.path(), entries);
  }

  /** {@code m} without {@code key}. */
  static MapNode without(MapNode m, String key) {
    Map<String, MapNode.Entry> entries = new LinkedHashMap<>(m.entries());
    entries.remove(key);
    return new MapNode(m.location(), m.path(), entries);
  }

  static ListNode with(ListNode l, int index, Node item) {
    List<Node> items = new ArrayList<>(l.items());
    items.set(index, item);
    return new ListNode(l.location(), l.path(), items);
  }

  /** The same subtree with every location replaced by {@code at} (a value given on the command line). */
  static Node relocate(Node n, Location at) {
    if (n instanceof MapNode m) {
      Map<String, MapNode.Entry> entries = new LinkedHashMap<>();
      m.entries().forEach((k, e) -> entries.put(k,
          new MapNode.Entry((ScalarNode) relocate(e.key(), at), relocate(e.value(), at))));
      return new MapNode(at, m.path(), entries);
    }
    if (n instanceof ListNode l) {
      return new ListNode(at, l.path(), l.items().stream().map(i -> relocate(i, at)).toList());
    }
    ScalarNode s = (ScalarNode) n;
    return new ScalarNode(at, s.path(), s.text(), s.type());
  }

  /**
   * The identity of a named object in a list: its {@code name}, prefixed by {@code namespace/} when it
   * has one (LocalQueues of two namespaces may share a name). Null when the item has no scalar name.
   */
  static String identity(Node item) {
    if (!(item instanceof MapNode m) || !(m.get("name") instanceof ScalarNode name) || name.isNull()) {
      return null;
    }
    return m.get("namespace") instanceof ScalarNode ns && !ns.isNull() ? ns.text() + "/" + name.text()
        : name.text();
  }

  /** The names of the items (identity, or the plain name) for "known: ..." hints. */
  static List<String> names(ListNode l) {
    List<String> out = new ArrayList<>();
    for (Node item : l.items()) {
      String id = identity(item);
      if (id != null) {
        out.add(id);
      }
    }
    return out;
  }
}
