package batchsim.scenarios.imports;

import batchsim.scenarios.yaml.ListNode;
import batchsim.scenarios.yaml.MapNode;
import batchsim.scenarios.yaml.Node;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The part of a Kubernetes object's schema that batchsim models. {@link #keep} copies a tree down to
 * those fields and warns, once per kind of field, about every other field that was set.
 */
final class Shape {
  /** Copy the value as it is. */
  static final Shape LEAF = new Shape(null, null);

  private final Map<String, Shape> fields;
  private final Shape item;

  private Shape(Map<String, Shape> fields, Shape item) {
    this.fields = fields;
    this.item = item;
  }

  /** A map with these fields: {@code obj("a", LEAF, "b", obj(...))}. */
  static Shape obj(Object... keyShapes) {
    Map<String, Shape> m = new LinkedHashMap<>();
    for (int i = 0; i < keyShapes.length; i += 2) {
      m.put((String) keyShapes[i], (Shape) keyShapes[i + 1]);
    }
    return new Shape(m, null);
  }

  /** A list whose items have {@code item}'s shape. */
  static Shape list(Shape item) {
    return new Shape(null, item);
  }

  /**
   * {@code node} reduced to this shape. {@code what} names the object for messages (e.g. "ClusterQueue
   * team-a"); {@code kind} keys the once-per-kind warnings.
   */
  Node keep(Node node, String kind, String what, Warnings warnings) {
    if (node == null) {
      return null;
    }
    if (fields != null && node instanceof MapNode m) {
      Tree.Map_ out = Tree.map(m.location(), m.path());
      m.entries().forEach((k, e) -> {
        Shape s = fields.get(k);
        if (s == null) {
          if (!e.value().isNull()) {
            warnings.at(kind + ":" + generic(e.key().path()), e.key(), what + ": "
                + e.key().path().replaceFirst("^items\\[\\d+]\\.", "") + " is not modelled by batchsim; dropped");
          }
        } else {
          out.put(k, s.keep(e.value(), kind, what, warnings));
        }
      });
      return out.build();
    }
    if (item != null && node instanceof ListNode l) {
      List<Node> items = new ArrayList<>();
      for (Node i : l.items()) {
        items.add(item.keep(i, kind, what, warnings));
      }
      return Tree.list(l.location(), l.path(), items);
    }
    return node; // a leaf, or a value of the wrong type that the scenario binder will report
  }

  /** A field path with list indices removed, so that the same field of every item warns once. */
  static String generic(String path) {
    return path.replaceAll("\\[\\d+]", "[]").replaceFirst("^items\\[]\\.", "");
  }
}
