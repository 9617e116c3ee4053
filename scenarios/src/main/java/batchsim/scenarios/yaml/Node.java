package batchsim.scenarios.yaml;

/**
 * A node of the YAML tree. {@code path} is the field path from the document root ("" for the root),
 * e.g. {@code cluster.nodePools[0].allocatable[nvidia.com/gpu]}.
 */
public sealed interface Node permits MapNode, ListNode, ScalarNode {
  Location location();

  String path();

  /** What the node is, for "expected X, got Y" messages: "a map", "a list", "'text'", "null". */
  String describe();

  /** True for an explicit or implicit YAML null ({@code key:} or {@code key: null}). */
  default boolean isNull() {
    return this instanceof ScalarNode s && s.type() == ScalarNode.Type.NULL;
  }

  /** This node and its subtree, re-rooted at {@code path} (used when an alias copies an anchored node). */
  Node withPath(String path);

  /** The path of a child reached by map key {@code key}; keys that are not plain identifiers get brackets. */
  static String childPath(String parent, String key) {
    if (!key.isEmpty() && key.chars().allMatch(c -> Character.isLetterOrDigit(c) || c == '_' || c == '-')) {
      return parent.isEmpty() ? key : parent + "." + key;
    }
    return parent + "[" + key + "]";
  }

  /** The path of the {@code index}-th item of a list. */
  static String itemPath(String parent, int index) {
    return parent + "[" + index + "]";
  }
}
