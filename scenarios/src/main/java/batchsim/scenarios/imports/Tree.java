package batchsim.scenarios.imports;

import batchsim.scenarios.yaml.ListNode;
import batchsim.scenarios.yaml.Location;
import batchsim.scenarios.yaml.MapNode;
import batchsim.scenarios.yaml.Node;
import batchsim.scenarios.yaml.ScalarNode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Builds scenario-shaped trees; new scalars are located where the text they stand for was read. */
final class Tree {
  private Tree() {}

  /** An insertion-ordered map under construction. */
  static final class Map_ {
    private final Location at;
    private final String path;
    private final Map<String, MapNode.Entry> entries = new LinkedHashMap<>();

    Map_(Location at, String path) {
      this.at = at;
      this.path = path;
    }

    Map_ put(String key, Node value) {
      if (value != null) {
        entries.put(key, new MapNode.Entry(new ScalarNode(value.location(), Node.childPath(path, key), key,
            ScalarNode.Type.STRING), value));
      }
      return this;
    }

    Map_ put(String key, String text, Location where) {
      return text == null ? this : put(key, string(where, Node.childPath(path, key), text));
    }

    boolean has(String key) {
      return entries.containsKey(key);
    }

    boolean isEmpty() {
      return entries.isEmpty();
    }

    MapNode build() {
      return new MapNode(at, path, entries);
    }
  }

  static Map_ map(Location at, String path) {
    return new Map_(at, path);
  }

  static MapNode map(Node at) {
    return new MapNode(at.location(), at.path(), Map.of());
  }

  static ScalarNode string(Location at, String path, String text) {
    return new ScalarNode(at, path, text, ScalarNode.Type.STRING);
  }

  static ScalarNode integer(Location at, String path, long value) {
    return new ScalarNode(at, path, Long.toString(value), ScalarNode.Type.INT);
  }

  static ListNode list(Location at, String path, List<? extends Node> items) {
    return new ListNode(at, path, List.copyOf(items));
  }

  /** The child at a dotted path of map keys, or null (also when a step is not a map). */
  static Node get(Node n, String... keys) {
    for (String k : keys) {
      if (!(n instanceof MapNode m)) {
        return null;
      }
      n = m.get(k);
    }
    return n == null || n.isNull() ? null : n;
  }

  /** The text of a scalar at a path, or null. */
  static String text(Node n, String... keys) {
    Node v = get(n, keys);
    return v instanceof ScalarNode s ? s.text() : null;
  }

  /** The items of a list at a path (empty when absent or not a list). */
  static List<Node> items(Node n, String... keys) {
    Node v = get(n, keys);
    return v instanceof ListNode l ? l.items() : List.of();
  }

  /** The entries of a map at a path (empty when absent or not a map). */
  static Map<String, MapNode.Entry> entries(Node n, String... keys) {
    Node v = get(n, keys);
    return v instanceof MapNode m ? m.entries() : Map.of();
  }
}
