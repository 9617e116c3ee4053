package batchsim.scenarios.imports;

import batchsim.scenarios.yaml.ListNode;
import batchsim.scenarios.yaml.MapNode;
import batchsim.scenarios.yaml.Node;
import batchsim.scenarios.yaml.ScalarNode;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Prints a scenario tree as YAML people can edit: block style, with small maps and lists of scalars on
 * one line in flow style ({@code {name: cpu, nominalQuota: 20}}), comments before sections and entries,
 * and strings quoted only where YAML would read them as something else.
 */
public final class ScenarioWriter {
  private static final int WIDTH = 110;
  /** Whole numbers stay plain: scenario values are read by their text (a queue named 103959 is fine). */
  private static final Pattern WHOLE = Pattern.compile("[-+]?[0-9]+");
  private static final Pattern PLAIN_NON_STRING = Pattern.compile(
      "~|null|Null|NULL|[-+]?(\\.[0-9]+|[0-9_]+(\\.[0-9_]*)?)([eE][-+]?[0-9]+)?|[-+]?\\.(inf|Inf|INF)|\\.(nan|NaN|NAN)"
          + "|0x[0-9a-fA-F_]+|0o?[0-7_]+|[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+(\\.[0-9_]*)?"
          + "|y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF");

  private final StringBuilder out = new StringBuilder();
  private final Map<Node, List<String>> comments;

  private ScenarioWriter(Map<Node, List<String>> comments) {
    this.comments = comments;
  }

  /** A top-level key with the lines of comment that go above it. */
  public record Section(String key, Node value, List<String> comment) {}

  /**
   * The whole file: {@code header} comment lines, then the sections in order. {@code comments} adds
   * comment lines above particular list items (keyed by identity).
   */
  public static String write(List<String> header, List<Section> sections, IdentityHashMap<Node, List<String>> comments) {
    ScenarioWriter w = new ScenarioWriter(comments);
    header.forEach(h -> w.out.append(h.isEmpty() ? "#" : "# " + h).append('\n'));
    for (Section s : sections) {
      if (s.value() == null) {
        continue;
      }
      w.out.append('\n');
      s.comment().forEach(c -> wrap(c).forEach(line -> w.out.append("# ").append(line).append('\n')));
      w.entry(0, s.key(), s.value());
    }
    return w.out.toString();
  }

  /** A comment broken into lines of at most {@link #WIDTH} characters, at spaces. */
  static List<String> wrap(String text) {
    List<String> lines = new java.util.ArrayList<>();
    StringBuilder line = new StringBuilder();
    for (String word : text.split(" ")) {
      if (line.length() > 0 && line.length() + 1 + word.length() > WIDTH - 2) {
        lines.add(line.toString());
        line.setLength(0);
      }
      line.append(line.length() == 0 ? "" : " ").append(word);
    }
    lines.add(line.toString());
    return lines;
  }

  private void entry(int indent, String key, Node value) {
    String prefix = " ".repeat(indent) + key(key) + ":";
    if (value instanceof ScalarNode s) {
      out.append(prefix).append(' ').append(scalar(s, false)).append('\n');
      return;
    }
    String flow = flow(value);
    if (flow != null && prefix.length() + 1 + flow.length() <= WIDTH) {
      out.append(prefix).append(' ').append(flow).append('\n');
      return;
    }
    out.append(prefix).append('\n');
    block(value instanceof ListNode ? indent : indent + 2, value);
  }

  private void block(int indent, Node n) {
    if (n instanceof MapNode m) {
      m.entries().forEach((k, e) -> entry(indent, k, e.value()));
      return;
    }
    String pad = " ".repeat(indent);
    for (Node item : ((ListNode) n).items()) {
      List<String> c = comments.get(item);
      if (c != null) {
        c.forEach(text -> wrap(text).forEach(line -> out.append(pad).append("# ").append(line).append('\n')));
      }
      String flow = flow(item);
      if (item instanceof ScalarNode s) {
        out.append(pad).append("- ").append(scalar(s, false)).append('\n');
      } else if (flow != null && indent + 2 + flow.length() <= WIDTH) {
        out.append(pad).append("- ").append(flow).append('\n');
      } else if (item instanceof MapNode m && !m.entries().isEmpty()) {
        // the first entry shares the dash's line; the rest line up under it
        int mark = out.length();
        block(indent + 2, m);
        out.replace(mark + indent, mark + indent + 2, "- ");
      } else {
        out.append(pad).append("-\n");
        block(indent + 2, item);
      }
    }
  }

  /** The node on one line, or null when it has a comment inside or nests too deep. */
  private String flow(Node n) {
    return flow(n, 0);
  }

  private String flow(Node n, int depth) {
    if (n instanceof ScalarNode s) {
      return scalar(s, true);
    }
    if (depth > 2 || comments.containsKey(n)) {
      return null;
    }
    StringBuilder sb = new StringBuilder();
    if (n instanceof MapNode m) {
      sb.append('{');
      for (var e : m.entries().entrySet()) {
        String v = flow(e.getValue().value(), depth + 1);
        if (v == null) {
          return null;
        }
        sb.append(sb.length() > 1 ? ", " : "").append(key(e.getKey())).append(": ").append(v);
      }
      return sb.append('}').toString();
    }
    sb.append('[');
    for (Node item : ((ListNode) n).items()) {
      String v = flow(item, depth + 1);
      if (v == null) {
        return null;
      }
      sb.append(sb.length() > 1 ? ", " : "").append(v);
    }
    return sb.append(']').toString();
  }

  private static String key(String k) {
    return needsQuotes(k, true) ? quote(k) : k;
  }

  private static String scalar(ScalarNode s, boolean inFlow) {
    if (s.type() == ScalarNode.Type.NULL) {
      return "null";
    }
    if (s.type() != ScalarNode.Type.STRING && !s.text().isEmpty()) {
      return s.text();
    }
    return needsQuotes(s.text(), inFlow) ? quote(s.text()) : s.text();
  }

  /** Would YAML read {@code s}, written plain, as anything but this string? */
  static boolean needsQuotes(String s, boolean inFlow) {
    if (s.isEmpty() || !s.strip().equals(s)
        || PLAIN_NON_STRING.matcher(s).matches() && !WHOLE.matcher(s).matches()) {
      return true;
    }
    if ("-?:,[]{}#&*!|>'\"%@`".indexOf(s.charAt(0)) >= 0) {
      return true;
    }
    if (s.contains(": ") || s.contains(" #") || s.endsWith(":") || s.chars().anyMatch(c -> c < 0x20)) {
      return true;
    }
    return inFlow && s.chars().anyMatch(c -> ",[]{}".indexOf(c) >= 0);
  }

  static String quote(String s) {
    StringBuilder sb = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\t' -> sb.append("\\t");
        default -> {
          if (c < 0x20) {
            sb.append(String.format("\\x%02x", (int) c));
          } else {
            sb.append(c);
          }
        }
      }
    }
    return sb.append('"').toString();
  }
}
