package batchsim.scenarios.overrides;

import batchsim.reports.Provenance;
import batchsim.scenarios.RegularFiles;
import batchsim.scenarios.yaml.IssueSink;
import batchsim.scenarios.yaml.ListNode;
import batchsim.scenarios.yaml.Location;
import batchsim.scenarios.yaml.MapNode;
import batchsim.scenarios.yaml.Node;
import batchsim.scenarios.yaml.ScalarNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;

/**
 * Builds a scenario's tree from its file, the files it includes ({@code include: base.yaml} or a list,
 * paths relative to the including file, merged in order under the including file by {@link DeepMerge})
 * and the {@code --set path=value} arguments (applied last, in order). Problems go to the sink, located
 * at the include entry or named after the {@code --set} argument.
 */
public final class Composer {
  /** The top-level key that names included files. */
  public static final String INCLUDE = "include";

  /** Parses one file's bytes into a tree, or returns null after reporting why not. */
  @FunctionalInterface
  public interface Parser {
    Node parse(String fileName, byte[] bytes, IssueSink sink);
  }

  private final Parser parser;
  private final IssueSink sink;
  private final List<byte[]> inputs = new ArrayList<>();
  private final List<Provenance.Input> files = new ArrayList<>();
  private final Deque<String> including = new ArrayDeque<>();

  private Composer(Parser parser, IssueSink sink) {
    this.parser = parser;
    this.sink = sink;
  }

  /**
   * Composes the scenario in {@code bytes}, named {@code fileName}; returns null when the file itself
   * does not parse (the reason is reported).
   */
  public static Composition compose(String fileName, byte[] bytes, List<String> sets, Parser parser,
      IssueSink sink) {
    Composer c = new Composer(parser, sink);
    Node root = c.file(fileName, bytes);
    if (root == null) {
      return null;
    }
    for (String set : sets) {
      c.inputs.add(("--set " + set).getBytes(StandardCharsets.UTF_8));
      Assignment o = Overrides.parseSet(set, parser, sink);
      if (o != null) {
        root = Overrides.apply(root, List.of(o), sink);
      }
    }
    String sha = c.inputs.size() == 1 ? RegularFiles.sha256(bytes) : combinedSha(c.inputs);
    return new Composition(root.withPath(""), fileName, sha, sets, c.files);
  }

  private Node file(String fileName, byte[] bytes) {
    inputs.add(bytes);
    files.add(new Provenance.Input(fileName, RegularFiles.sha256(bytes)));
    Node root = parser.parse(fileName, bytes, sink);
    if (!(root instanceof MapNode m) || m.get(INCLUDE) == null) {
      return root;
    }
    including.push(fileName);
    Node merged = null;
    for (ScalarNode ref : refs(m.get(INCLUDE))) {
      Node base = include(fileName, ref);
      if (base != null) {
        merged = merged == null ? base : DeepMerge.merge(merged, base);
      }
    }
    including.pop();
    MapNode own = Trees.without(m, INCLUDE);
    return merged == null ? own : DeepMerge.merge(merged, own);
  }

  private List<ScalarNode> refs(Node include) {
    List<ScalarNode> out = new ArrayList<>();
    List<Node> items = include instanceof ListNode l ? l.items() : List.of(include);
    for (Node item : items) {
      if (item instanceof ScalarNode s && !s.isNull() && !s.text().isBlank()) {
        out.add(s);
      } else {
        sink.report(item.location(), item.path(), "expected a file name (or a list of them), got "
            + item.describe());
      }
    }
    return out;
  }

  private Node include(String from, ScalarNode ref) {
    Path dir = Path.of(from).getParent();
    String name = (dir == null ? Path.of(ref.text()) : dir.resolve(ref.text())).normalize().toString();
    if (including.contains(name)) {
      List<String> chain = new ArrayList<>(including);
      Collections.reverse(chain);
      chain.add(name);
      sink.report(ref.location(), ref.path(), "include cycle: " + String.join(" -> ", chain));
      return null;
    }
    byte[] bytes;
    try {
      bytes = RegularFiles.readAllBytes(Path.of(name));
    } catch (NoSuchFileException e) {
      sink.report(ref.location(), ref.path(), "cannot include '" + ref.text() + "': no such file (" + name + ")");
      return null;
    } catch (IOException e) {
      sink.report(ref.location(), ref.path(), "cannot include '" + ref.text() + "': " + e.getMessage());
      return null;
    }
    Node root = file(name, bytes);
    if (root != null && !(root instanceof MapNode)) {
      sink.report(root.location(), root.path(), "an included file must hold a map at the top level, got "
          + root.describe());
      return null;
    }
    return root;
  }

  /** A digest over several inputs: each one's own digest, in order. */
  private static String combinedSha(List<byte[]> inputs) {
    StringBuilder sb = new StringBuilder("batchsim-composed\n");
    inputs.forEach(b -> sb.append(RegularFiles.sha256(b)).append('\n'));
    return RegularFiles.sha256(sb.toString().getBytes(StandardCharsets.UTF_8));
  }

  /** Where a problem about the whole argument {@code --set raw} is reported. */
  static Location argument(String raw) {
    return Location.argument("--set " + raw);
  }
}
