package batchsim.scenarios.yaml;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** A YAML mapping with string keys, in document order. Each entry keeps its key node for locations. */
public record MapNode(Location location, String path, Map<String, Entry> entries) implements Node {
  /** One key/value pair; the key node's path is the path of the value. */
  public record Entry(ScalarNode key, Node value) {}

  public MapNode {
    entries = Collections.unmodifiableMap(new LinkedHashMap<>(entries));
  }

  /** The value under {@code key}, or null when the key is absent. */
  public Node get(String key) {
    Entry e = entries.get(key);
    return e == null ? null : e.value();
  }

  @Override
  public String describe() {
    return "a map";
  }

  @Override
  public MapNode withPath(String newPath) {
    Map<String, Entry> copy = new LinkedHashMap<>();
    entries.forEach((k, e) -> {
      String p = Node.childPath(newPath, k);
      copy.put(k, new Entry(e.key().withPath(p), e.value().withPath(p)));
    });
    return new MapNode(location, newPath, copy);
  }
}
