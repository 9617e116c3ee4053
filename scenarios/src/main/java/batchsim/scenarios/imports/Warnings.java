package batchsim.scenarios.imports;

import batchsim.scenarios.yaml.Location;
import batchsim.scenarios.yaml.Node;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Things an import could not carry over, reported once per kind of thing: thirty ClusterQueues with a
 * {@code stopPolicy} give one warning at the first of them, with the count of the others.
 */
public final class Warnings {
  private final Map<String, Entry> byKey = new LinkedHashMap<>();

  private static final class Entry {
    final Location at;
    final String message;
    int more;

    Entry(Location at, String message) {
      this.at = at;
      this.message = message;
    }
  }

  /** Records a warning; {@code key} identifies its kind (repeats only count). */
  public void add(String key, Location at, String message) {
    Entry e = byKey.get(key);
    if (e == null) {
      byKey.put(key, new Entry(at, message));
    } else {
      e.more++;
    }
  }

  /** A warning about {@code node}, once per {@code key}. */
  void at(String key, Node node, String message) {
    add(key, node.location(), message);
  }

  public boolean isEmpty() {
    return byKey.isEmpty();
  }

  /** One line each: {@code file:line:col: message (and N more like it)}. */
  public List<String> lines() {
    List<String> out = new ArrayList<>();
    for (Entry e : byKey.values()) {
      out.add(e.at + ": " + e.message + (e.more == 0 ? "" : " (and " + e.more + " more like it)"));
    }
    return out;
  }
}
