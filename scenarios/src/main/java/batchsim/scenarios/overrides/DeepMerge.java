package batchsim.scenarios.overrides;

import batchsim.scenarios.yaml.ListNode;
import batchsim.scenarios.yaml.MapNode;
import batchsim.scenarios.yaml.Node;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How a file is laid over the files it includes. Maps merge key by key (base keys keep their order, new
 * keys follow). Lists whose items are all named objects (maps with a {@code name}, and a
 * {@code namespace} where given) merge item by item by that identity: a matching item merges
 * recursively, a new one is appended. Anything else, including an empty list, replaces the base value;
 * a null ({@code key: ~}) therefore removes a setting. Every node keeps the location it was written at.
 */
final class DeepMerge {
  private DeepMerge() {}

  static Node merge(Node base, Node top) {
    if (base instanceof MapNode b && top instanceof MapNode t) {
      Map<String, MapNode.Entry> entries = new LinkedHashMap<>(b.entries());
      t.entries().forEach((k, e) -> {
        MapNode.Entry old = entries.get(k);
        entries.put(k, old == null ? e : new MapNode.Entry(e.key(), merge(old.value(), e.value())));
      });
      return new MapNode(t.location(), t.path(), entries);
    }
    if (base instanceof ListNode b && top instanceof ListNode t && named(b) && named(t)) {
      List<Node> items = new ArrayList<>(b.items());
      List<String> ids = new ArrayList<>(Trees.names(b));
      for (Node item : t.items()) {
        int k = ids.indexOf(Trees.identity(item));
        if (k < 0) {
          items.add(item);
          ids.add(Trees.identity(item));
        } else {
          items.set(k, merge(items.get(k), item));
        }
      }
      return new ListNode(t.location(), t.path(), items);
    }
    return top;
  }

  private static boolean named(ListNode l) {
    return !l.items().isEmpty() && l.items().stream().allMatch(i -> Trees.identity(i) != null);
  }
}
