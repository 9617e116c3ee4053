package batchsim.scenarios.overrides;

import batchsim.scenarios.yaml.IssueSink;
import batchsim.scenarios.yaml.Location;
import batchsim.scenarios.yaml.Node;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Applies overrides to a tree, and reads them from {@code --set path=value} arguments. */
public final class Overrides {
  private Overrides() {}

  /** {@code root} with every override applied in order; overrides that do not apply are reported. */
  public static Node apply(Node root, List<Assignment> overrides, IssueSink sink) {
    Node out = root;
    for (Assignment o : overrides) {
      // Re-rooting refreshes the paths of inserted nodes, so later problems name them correctly.
      out = TreeEditor.apply(out, o, sink).withPath("");
    }
    return out;
  }

  /**
   * Reads {@code path=value}; the value is YAML (a scalar such as {@code 48} or {@code 2h}, or flow
   * YAML such as <code>{}</code> or {@code [a, b]}), and empty means null. Problems are reported as
   * {@code --set path=value: ...}; returns null after one.
   */
  static Assignment parseSet(String raw, Composer.Parser parser, IssueSink sink) {
    Location at = Composer.argument(raw);
    int eq = raw.indexOf('=');
    if (eq < 0) {
      sink.report(at, "", "expected path=value");
      return null;
    }
    SetPath path;
    try {
      path = SetPath.parse(raw.substring(0, eq).strip());
    } catch (IllegalArgumentException e) {
      sink.report(at, "", "bad path: " + e.getMessage());
      return null;
    }
    String text = raw.substring(eq + 1);
    if (text.isBlank()) {
      return new Assignment(path, Trees.nullAt(at), at, "");
    }
    boolean[] failed = {false};
    Node value = parser.parse(at.file(), text.getBytes(StandardCharsets.UTF_8), (l, p, m) -> {
      failed[0] = true;
      sink.report(at, p, m);
    });
    return value == null || failed[0] ? null : new Assignment(path, Trees.relocate(value, at), at, "");
  }
}
