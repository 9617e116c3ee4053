package batchsim.scenarios.conformance;

import batchsim.scenarios.yaml.IssueSink;
import batchsim.scenarios.yaml.ListNode;
import batchsim.scenarios.yaml.MapNode;
import batchsim.scenarios.yaml.Node;
import batchsim.scenarios.yaml.ScalarNode;
import batchsim.scenarios.yaml.YamlTreeReader;
import java.io.IOException;
import java.io.Reader;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Finds every key of a case document that its {@link Shape} does not know, with its file:line:column and key
 * path, so that a case file never passes while part of it is ignored. Only keys are checked: a value of an
 * unexpected type is left to the runner, which reports it for its case.
 */
public final class KeyCheck {
  private static final String FIXTURE = "fixture";
  private static final String REPLACE_WITH = "replace_with";

  private final boolean fixtures;
  private final List<String> problems = new ArrayList<>();

  private KeyCheck(boolean fixtures) {
    this.fixtures = fixtures;
  }

  /**
   * The unknown keys of {@code root}, one message each ({@code file:line:col: unknown key 'k' at path (known:
   * ...)}), in document order. {@code fixtures}: a list may be given as Kueue's {@code {fixture: NAME}}.
   */
  public static List<String> unknownKeys(Node root, Shape shape, boolean fixtures) {
    KeyCheck c = new KeyCheck(fixtures);
    c.walk(root, shape, false);
    return c.problems;
  }

  /**
   * Reads {@code text} (named {@code source}) document by document with locations and returns what is wrong
   * with its keys: duplicated keys (one would be ignored) and the keys {@code check} does not know.
   */
  public static List<String> problems(String source, String text, Function<Node, List<String>> check) {
    List<String> out = new ArrayList<>();
    // Jackson has read the text already; of this reader's findings only a duplicated key matters here (Jackson
    // keeps the last one silently). Its other reports (e.g. it does not resolve anchors on scalars) are not.
    IssueSink duplicates = (at, path, message) -> {
      if (message.startsWith("duplicate key")) {
        out.add(at + ": " + message);
      }
    };
    for (Node doc : YamlTreeReader.readAll(source, text, duplicates)) {
      out.addAll(check.apply(doc));
    }
    return out;
  }

  /** The whole of {@code in}. */
  public static String text(Reader in) throws IOException {
    StringWriter out = new StringWriter();
    in.transferTo(out);
    return out.toString();
  }

  private void walk(Node n, Shape s, boolean patch) {
    switch (s.kind) {
      case ANY -> { }
      case PATCH -> walk(n, s.inner, true);
      case MAP -> {
        if (n instanceof MapNode m) {
          m.entries().values().forEach(e -> walk(e.value(), s.inner, patch));
        }
      }
      case LIST -> list(n, s, patch);
      case OBJECT -> object(n, s, patch);
      default -> throw new IllegalStateException(s.kind.toString());
    }
  }

  private void list(Node n, Shape s, boolean patch) {
    if (n instanceof ListNode l) {
      l.items().forEach(i -> walk(i, s.inner, false));
    } else if (n instanceof MapNode m) {
      if (fixtures && m.entries().size() == 1 && m.get(FIXTURE) != null) {
        return;
      }
      if (patch && m.get(REPLACE_WITH) != null) {
        walk(m.get(REPLACE_WITH), s, false);
      } else if (patch) {
        m.entries().values().forEach(e -> walk(e.value(), s.inner, true));
      }
    }
  }

  private void object(Node n, Shape s, boolean patch) {
    if (n instanceof ListNode l) {
      l.items().forEach(i -> walk(i, s, patch)); // one or many, as kueue_test
      return;
    }
    if (!(n instanceof MapNode m)) {
      return;
    }
    for (Map.Entry<String, MapNode.Entry> e : m.entries().entrySet()) {
      Shape child = s.keys.get(e.getKey());
      Node value = e.getValue().value();
      if (child != null) {
        walk(value, child, patch);
      } else if (s.otherKey == null || !s.otherKey.test(e.getKey(), value)) {
        ScalarNode key = e.getValue().key();
        problems.add(key.location() + ": unknown key '" + e.getKey() + "' at " + key.path() + " (known: "
            + s.known() + ")");
      }
    }
  }
}
