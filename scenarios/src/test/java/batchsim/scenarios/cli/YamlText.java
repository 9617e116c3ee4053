package batchsim.scenarios.cli;

import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Writes a tree of maps, lists and strings as block-style YAML. Strings that YAML would read as written
 * (names, quantities, durations, numbers) stay plain, so a mutated "1e9" is still a number; anything else
 * is double-quoted with escapes, so odd names reach the scenario reader as strings.
 */
final class YamlText {
  private static final Pattern PLAIN = Pattern.compile("-?[A-Za-z0-9_][A-Za-z0-9_./+-]*");

  private YamlText() {}

  static String of(Object root) {
    StringBuilder sb = new StringBuilder();
    block(sb, root, 0);
    return sb.toString();
  }

  private static void block(StringBuilder sb, Object node, int indent) {
    if (node instanceof Map<?, ?> m) {
      if (m.isEmpty()) {
        sb.append(" ".repeat(indent)).append("{}\n");
      }
      for (Map.Entry<?, ?> e : m.entrySet()) {
        sb.append(" ".repeat(indent)).append(scalar((String) e.getKey())).append(':');
        value(sb, e.getValue(), indent + 2);
      }
    } else if (node instanceof List<?> l) {
      if (l.isEmpty()) {
        sb.append(" ".repeat(indent)).append("[]\n");
      }
      for (Object item : l) {
        sb.append(" ".repeat(indent)).append('-');
        value(sb, item, indent + 2);
      }
    } else {
      sb.append(" ".repeat(indent)).append(scalar((String) node)).append('\n');
    }
  }

  private static void value(StringBuilder sb, Object v, int indent) {
    if (v instanceof Map<?, ?> m && !m.isEmpty() || v instanceof List<?> l && !l.isEmpty()) {
      sb.append('\n');
      block(sb, v, indent);
    } else if (v instanceof Map<?, ?>) {
      sb.append(" {}\n");
    } else if (v instanceof List<?>) {
      sb.append(" []\n");
    } else {
      sb.append(v == null ? "\n" : " " + scalar((String) v) + "\n");
    }
  }

  static String scalar(String s) {
    if (PLAIN.matcher(s).matches()) {
      return s;
    }
    StringBuilder sb = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      if (c == '"' || c == '\\') {
        sb.append('\\').append(c);
      } else if (c < 0x20 || c == 0x7f) {
        sb.append(String.format("\\x%02x", (int) c));
      } else {
        sb.append(c);
      }
    }
    return sb.append('"').toString();
  }
}
