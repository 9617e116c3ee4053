package batchsim.scenarios;

import batchsim.core.model.KueueEnum;
import batchsim.scenarios.yaml.ListNode;
import batchsim.scenarios.yaml.MapNode;
import batchsim.scenarios.yaml.Node;
import batchsim.scenarios.yaml.ScalarNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Reads one YAML map whose keys are known in advance. Unknown keys are reported when the reader is
 * created, wrong types and bad values as each field is read; a field with a problem reads as absent,
 * so binding goes on. An absent (or YAML null) block reads as an empty map without complaint.
 */
final class Fields {
  private final MapNode map;
  private final Problems problems;

  private Fields(MapNode map, Problems problems) {
    this.map = map;
    this.problems = problems;
  }

  /** Reads {@code node} as a map allowed to hold {@code keys}. */
  static Fields of(Node node, Problems problems, String... keys) {
    if (node == null || node.isNull()) {
      return new Fields(null, problems);
    }
    if (!(node instanceof MapNode m)) {
      problems.wrongType(node, "a map");
      return new Fields(null, problems);
    }
    List<String> allowed = List.of(keys);
    m.entries().forEach((k, e) -> {
      if (!allowed.contains(k)) {
        problems.at(e.key(), "unknown key '" + k + "' (expected one of " + String.join(", ", allowed) + ")");
      }
    });
    return new Fields(m, problems);
  }

  /** True when the block was written as a map (possibly empty). */
  boolean present() {
    return map != null;
  }

  /** The map node itself; only valid when {@link #present()}. */
  MapNode node() {
    return map;
  }

  /** The value under {@code key}, or null when absent or YAML null. */
  Node get(String key) {
    if (map == null) {
      return null;
    }
    Node n = map.get(key);
    return n == null || n.isNull() ? null : n;
  }

  boolean has(String key) {
    return get(key) != null;
  }

  /** The key node of {@code key} (for problems about the key itself), or null. */
  ScalarNode keyNode(String key) {
    MapNode.Entry e = map == null ? null : map.entries().get(key);
    return e == null ? null : e.key();
  }

  /** The value under {@code key}; reports it missing (at this map) when absent. */
  Node required(String key) {
    Node n = get(key);
    if (n == null && map != null) {
      problems.at(map, "missing required field '" + key + "'");
    }
    return n;
  }

  /** A required, non-empty string whose node is kept for later references and duplicate checks. */
  ScalarNode requiredName(String key) {
    ScalarNode s = Values.scalar(required(key), problems, "a string");
    if (s != null && s.text().isBlank()) {
      problems.at(s, "must not be empty");
      return null;
    }
    return s;
  }

  /** An optional string kept as a node (a reference to something defined elsewhere), or null. */
  ScalarNode optionalName(String key) {
    ScalarNode s = Values.scalar(get(key), problems, "a string");
    if (s != null && s.text().isBlank()) {
      problems.at(s, "must not be empty");
      return null;
    }
    return s;
  }

  String string(String key, String dflt) {
    String s = Values.string(get(key), problems);
    return s == null ? dflt : s;
  }

  long integer(String key, long dflt, long min) {
    Long v = Values.integer(get(key), problems, min);
    return v == null ? dflt : v;
  }

  /** An integer in [min, max]; above max it is reported (a physical ceiling, e.g. against overflow). */
  long integer(String key, long dflt, long min, long max) {
    return atMost(key, integer(key, dflt, min), max, Long.toString(max));
  }

  /** A duration of at most {@code maxMs}, written {@code max} in the problem. */
  long duration(String key, long dflt, long maxMs, String max) {
    return atMost(key, duration(key, dflt), maxMs, max);
  }

  private long atMost(String key, long v, long max, String shown) {
    if (v <= max) {
      return v;
    }
    String got = get(key) instanceof ScalarNode s ? s.text() : Long.toString(v);
    problems.at(get(key), "must be <= " + shown + ", got " + got);
    return max;
  }

  int int32(String key, int dflt, int min) {
    Integer v = Values.int32(get(key), problems, min);
    return v == null ? dflt : v;
  }

  double decimal(String key, double dflt, double min) {
    Double v = Values.decimal(get(key), problems, min);
    return v == null ? dflt : v;
  }

  boolean bool(String key, boolean dflt) {
    Boolean v = Values.bool(get(key), problems);
    return v == null ? dflt : v;
  }

  long duration(String key, long dflt) {
    Long v = Values.duration(get(key), problems);
    return v == null ? dflt : v;
  }

  <E extends Enum<E> & KueueEnum> E enumeration(String key, Class<E> type, E dflt) {
    E v = Values.enumeration(type, get(key), problems);
    return v == null ? dflt : v;
  }

  /** The items of a list field; empty when absent or not a list (the latter is reported). */
  List<Node> list(String key) {
    Node n = get(key);
    if (n == null) {
      return List.of();
    }
    if (n instanceof ListNode l) {
      return l.items();
    }
    problems.wrongType(n, "a list");
    return List.of();
  }

  /** A required list; reports it missing, or empty when {@code nonEmpty}. */
  List<Node> requiredList(String key, boolean nonEmpty) {
    Node n = required(key);
    List<Node> items = list(key);
    if (n instanceof ListNode && nonEmpty && items.isEmpty()) {
      problems.at(n, "must not be empty");
    }
    return items;
  }

  /** A nested block with its own keys. */
  Fields map(String key, String... keys) {
    return Fields.of(get(key), problems, keys);
  }

  /** A map of string to string (labels, node selectors), sorted by key. */
  SortedMap<String, String> stringMap(String key) {
    SortedMap<String, String> out = new TreeMap<>();
    Node n = get(key);
    if (n == null) {
      return Collections.unmodifiableSortedMap(out);
    }
    if (!(n instanceof MapNode m)) {
      problems.wrongType(n, "a map of strings");
      return Collections.unmodifiableSortedMap(out);
    }
    m.entries().forEach((k, e) -> {
      String v = Values.string(e.value(), problems);
      out.put(k, v == null ? "" : v);
    });
    return Collections.unmodifiableSortedMap(out);
  }

  /** A list of strings. */
  List<ScalarNode> stringList(String key) {
    List<ScalarNode> out = new ArrayList<>();
    for (Node item : list(key)) {
      ScalarNode s = Values.scalar(item, problems, "a string");
      if (s != null) {
        out.add(s);
      } else if (item.isNull()) {
        problems.at(item, "must not be empty");
      }
    }
    return out;
  }

  /** Reports when both {@code a} and {@code b} are given; returns false then. */
  boolean atMostOne(String a, String b) {
    if (has(a) && has(b)) {
      ScalarNode second = keyNode(a).location().compareTo(keyNode(b).location()) < 0 ? keyNode(b) : keyNode(a);
      problems.at(second, "give either '" + a + "' or '" + b + "', not both");
      return false;
    }
    return true;
  }

  /**
   * The one key of {@code choices} present in this map, or null after reporting that none or several
   * are given (e.g. {@code arrival: {poisson: ...}} vs {@code {every: ...}}).
   */
  String exactlyOne(String what, String... choices) {
    List<String> given = new ArrayList<>();
    for (String c : choices) {
      if (has(c)) {
        given.add(c);
      }
    }
    if (given.size() == 1) {
      return given.get(0);
    }
    if (map != null) {
      problems.at(map, what + " needs exactly one of " + String.join(", ", choices)
          + (given.isEmpty() ? "" : " (got " + String.join(", ", given) + ")"));
    }
    return null;
  }

  /** A required name that must be one of {@code known}; reported (with the known names) when it is not. */
  ScalarNode reference(String key, java.util.Set<String> known, String what) {
    ScalarNode s = requiredName(key);
    if (s != null && !known.contains(s.text())) {
      problems.at(s, "unknown " + what + " '" + s.text() + "' " + ScenarioValidator.known(known));
      return null;
    }
    return s;
  }

  /** The items of a top-level list node; empty when absent or null, reported when not a list. */
  static List<Node> items(Node n, Problems problems) {
    if (n == null || n.isNull()) {
      return List.of();
    }
    if (n instanceof ListNode l) {
      return l.items();
    }
    problems.wrongType(n, "a list");
    return List.of();
  }
}
