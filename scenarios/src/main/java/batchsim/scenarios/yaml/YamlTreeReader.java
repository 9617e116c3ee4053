package batchsim.scenarios.yaml;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.StreamReadException;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/**
 * Builds a {@link Node} tree from one YAML document with Jackson's streaming parser.
 *
 * <p>Beyond plain YAML it resolves anchors and aliases ({@code &base}, {@code *base}) and YAML 1.1 merge
 * keys ({@code <<: *base}), because scenario files repeat ClusterQueue and pod-set blocks. Explicit keys
 * win over merged ones; merged entries follow the explicit ones. An alias copy keeps the locations of
 * the anchored text but gets paths of the place it is used, so problems point at both sensibly.
 *
 * <p>Hostile documents are refused with a location: tags other than YAML's core ones (a {@code !secret}
 * would otherwise be dropped silently), nesting deeper than {@link #MAX_DEPTH}, and aliases that expand to
 * more than {@link #MAX_ALIAS_NODES} nodes ("billion laughs"). Plain nodes written out in the text do not
 * count towards the alias budget: a large document is not a bomb.
 */
public final class YamlTreeReader {
  /** Upper bound on nodes copied by alias expansion. */
  static final long MAX_ALIAS_NODES = 1_000_000;
  /** Deepest nesting of maps and lists; scenarios need about ten, Jackson's own limit is 1,000. */
  static final int MAX_DEPTH = 100;
  private static final String CORE_TAG = "tag:yaml.org,2002:";
  private static final Set<String> CORE_TAGS = Set.of("str", "int", "float", "bool", "null", "map", "seq");
  private static final String MERGE_KEY = "<<";
  private static final YAMLFactory FACTORY = createFactory();

  private final String file;
  private final IssueSink issues;
  private final Map<String, Node> anchors = new HashMap<>();
  private final Map<String, Long> anchorSizes = new HashMap<>();
  private YAMLParser parser;
  private long nodes;
  private long aliasNodes;
  private int depth;

  private final long maxAliasNodes;

  private YamlTreeReader(String file, IssueSink issues, long maxAliasNodes) {
    this.file = file;
    this.issues = issues;
    this.maxAliasNodes = maxAliasNodes;
  }

  private static YAMLFactory createFactory() {
    LoaderOptions options = new LoaderOptions();
    options.setCodePointLimit((int) batchsim.scenarios.RegularFiles.MAX_BYTES); // as large as a file may be; default 3 MB
    // `key:` with nothing after it is YAML null, as in Kubernetes manifests.
    return YAMLFactory.builder().loaderOptions(options).enable(YAMLParser.Feature.EMPTY_STRING_AS_NULL).build();
  }

  /**
   * Reads {@code text} (named {@code file} in locations). Returns the root node, or null after reporting
   * why there is none (syntax error or empty document).
   */
  public static Node read(String file, String text, IssueSink issues) {
    return read(file, text, issues, MAX_ALIAS_NODES);
  }

  /** {@link #read} with another alias budget (tests show it apart from document size with small texts). */
  static Node read(String file, String text, IssueSink issues, long maxAliasNodes) {
    return new YamlTreeReader(file, issues, maxAliasNodes).readDocument(text);
  }

  /**
   * Reads every document of a multi-document stream ({@code ---} separated), in order; empty documents are
   * skipped. Anchors do not carry over between documents. Returns an empty list after reporting a syntax error.
   */
  public static List<Node> readAll(String file, String text, IssueSink issues) {
    return new YamlTreeReader(file, issues, MAX_ALIAS_NODES).readDocuments(text);
  }

  private List<Node> readDocuments(String text) {
    List<Node> out = new ArrayList<>();
    try (YAMLParser p = FACTORY.createParser(text)) {
      parser = p;
      for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
        anchors.clear();
        anchorSizes.clear();
        Node root = readValue(t, "");
        if (!root.isNull()) {
          out.add(root);
        }
      }
      return out;
    } catch (StreamReadException e) {
      reportSyntaxError(e);
      return List.of();
    } catch (Refused e) {
      return List.of();
    } catch (IOException e) {
      throw new UncheckedIOException(e); // reading from a String: cannot happen
    }
  }

  private Node readDocument(String text) {
    try (YAMLParser p = FACTORY.createParser(text)) {
      parser = p;
      JsonToken t = p.nextToken();
      if (t == null) {
        issues.report(new Location(file, 1, 1), "", "the document is empty");
        return null;
      }
      Node root = readValue(t, "");
      if (p.nextToken() != null) {
        issues.report(tokenLocation(), "", "a second YAML document starts here; a scenario file holds one");
      }
      return root;
    } catch (StreamReadException e) {
      reportSyntaxError(e);
      return null;
    } catch (Refused e) {
      return null;
    } catch (IOException e) {
      throw new UncheckedIOException(e); // reading from a String: cannot happen
    }
  }

  private Node readValue(JsonToken t, String path) throws IOException {
    Location at = tokenLocation();
    nodes++;
    checkTag(at, path);
    switch (t) {
      case START_OBJECT: {
        String anchor = parser.getObjectId();
        long before = nodes - 1;
        enter(at, path);
        Node map = readMap(at, path);
        depth--;
        return remember(anchor, map, before);
      }
      case START_ARRAY: {
        String anchor = parser.getObjectId();
        long before = nodes - 1;
        enter(at, path);
        Node list = readList(at, path);
        depth--;
        return remember(anchor, list, before);
      }
      default:
        if (parser.isCurrentAlias()) {
          return alias(parser.getText(), at, path);
        }
        return remember(parser.getObjectId(), new ScalarNode(at, path, text(t), scalarType(t)), nodes - 1);
    }
  }

  private MapNode readMap(Location at, String path) throws IOException {
    Map<String, MapNode.Entry> explicit = new LinkedHashMap<>();
    List<MapNode> merged = new ArrayList<>();
    JsonToken t;
    while ((t = parser.nextToken()) == JsonToken.FIELD_NAME) {
      String key = parser.currentName();
      String childPath = Node.childPath(path, key);
      ScalarNode keyNode = new ScalarNode(tokenLocation(), childPath, key, ScalarNode.Type.STRING);
      Node value = readValue(parser.nextToken(), childPath);
      if (key.equals(MERGE_KEY)) {
        collectMerge(value, merged);
      } else if (explicit.containsKey(key)) {
        Location first = explicit.get(key).key().location();
        issues.report(keyNode.location(), childPath,
            "duplicate key '" + key + "' (first at line " + first.line() + ", column " + first.column() + ")");
      } else {
        explicit.put(key, new MapNode.Entry(keyNode, value));
      }
    }
    expect(t, JsonToken.END_OBJECT);
    Map<String, MapNode.Entry> entries = new LinkedHashMap<>(explicit);
    for (MapNode m : merged) {
      m.withPath(path).entries().forEach(entries::putIfAbsent);
    }
    return new MapNode(at, path, entries);
  }

  private void collectMerge(Node value, List<MapNode> merged) {
    if (value instanceof MapNode m) {
      merged.add(m);
    } else if (value instanceof ListNode l && l.items().stream().allMatch(MapNode.class::isInstance)) {
      l.items().forEach(item -> merged.add((MapNode) item));
    } else {
      issues.report(value.location(), value.path(), "merge key '<<' needs a map or a list of maps, got "
          + value.describe());
    }
  }

  private ListNode readList(Location at, String path) throws IOException {
    List<Node> items = new ArrayList<>();
    JsonToken t;
    while ((t = parser.nextToken()) != JsonToken.END_ARRAY && t != null) {
      items.add(readValue(t, Node.itemPath(path, items.size())));
    }
    expect(t, JsonToken.END_ARRAY);
    return new ListNode(at, path, items);
  }

  private Node alias(String name, Location at, String path) {
    Node target = anchors.get(name);
    if (target == null) {
      issues.report(at, path, "unknown alias '*" + name + "' (anchors must be defined before use)");
      return new ScalarNode(at, path, "", ScalarNode.Type.NULL);
    }
    long size = anchorSizes.get(name);
    nodes += size;
    aliasNodes += size;
    if (aliasNodes > maxAliasNodes) {
      issues.report(at, path, "aliases expand to more than " + maxAliasNodes + " nodes (the alias '*" + name
          + "' copies " + size + "); write the repeated parts out, or anchor smaller blocks");
      throw new Refused();
    }
    return target.withPath(path);
  }

  private Node remember(String anchor, Node node, long nodesBefore) {
    if (anchor != null) {
      anchors.put(anchor, node);
      anchorSizes.put(anchor, nodes - nodesBefore);
    }
    return node;
  }

  private void enter(Location at, String path) {
    if (++depth > MAX_DEPTH) {
      issues.report(at, Excerpt.of(path), "maps and lists nest deeper than " + MAX_DEPTH
          + " levels here; a scenario needs far fewer");
      throw new Refused();
    }
  }

  /** Refuses tags beyond YAML's core schema: batchsim would not know what {@code !secret} asks for. */
  private void checkTag(Location at, String path) throws IOException {
    String tag = parser.getTypeId();
    if (tag == null || tag.isEmpty()
        || tag.startsWith(CORE_TAG) && CORE_TAGS.contains(tag.substring(CORE_TAG.length()))) {
      return;
    }
    String shown = tag.startsWith(CORE_TAG) ? "!!" + tag.substring(CORE_TAG.length()) : "!" + tag;
    issues.report(at, path, "unknown YAML tag '" + Excerpt.of(shown) + "'; batchsim reads plain YAML:"
        + " remove the tag (quote the value if it should be a string)");
  }

  private static void expect(JsonToken actual, JsonToken expected) {
    if (actual != expected) {
      throw new IllegalStateException("YAML parser returned " + actual + " where " + expected + " was due");
    }
  }

  private String text(JsonToken t) throws IOException {
    String s = parser.getText();
    return s == null || t == JsonToken.VALUE_NULL && s.equals("null") ? "" : s;
  }

  private static ScalarNode.Type scalarType(JsonToken t) {
    switch (t) {
      case VALUE_NUMBER_INT: return ScalarNode.Type.INT;
      case VALUE_NUMBER_FLOAT: return ScalarNode.Type.FLOAT;
      case VALUE_TRUE:
      case VALUE_FALSE: return ScalarNode.Type.BOOL;
      case VALUE_NULL: return ScalarNode.Type.NULL;
      default: return ScalarNode.Type.STRING;
    }
  }

  private Location tokenLocation() {
    JsonLocation l = parser.currentTokenLocation();
    return new Location(file, Math.max(1, l.getLineNr()), Math.max(1, l.getColumnNr()));
  }

  /**
   * Reports a syntax error at snakeyaml's problem mark, which is more precise than Jackson's location,
   * on one line (snakeyaml's own message spans several lines and quotes the source).
   */
  private void reportSyntaxError(StreamReadException e) {
    for (Throwable c = e; c != null; c = c.getCause()) {
      if (c instanceof MarkedYAMLException m && m.getProblemMark() != null) {
        Mark mark = m.getProblemMark();
        String message = "YAML syntax error: " + Excerpt.of(oneLine(m.getProblem()), 200);
        if (m.getContext() != null && m.getContextMark() != null) {
          message += " (" + oneLine(m.getContext()) + " at line " + (m.getContextMark().getLine() + 1)
              + ", column " + (m.getContextMark().getColumn() + 1) + ")";
        }
        issues.report(new Location(file, mark.getLine() + 1, mark.getColumn() + 1), "", message);
        return;
      }
    }
    JsonLocation l = e.getLocation();
    Location at = l == null ? new Location(file, 1, 1)
        : new Location(file, Math.max(1, l.getLineNr()), Math.max(1, l.getColumnNr()));
    issues.report(at, "", "YAML syntax error: " + Excerpt.of(oneLine(e.getOriginalMessage()), 200));
  }

  private static String oneLine(String s) {
    return s == null ? "" : s.strip().replaceAll("\\s*\\n\\s*", " ");
  }

  /** Unwinds the recursion once a refusal (alias budget, nesting depth) was reported. */
  private static final class Refused extends RuntimeException {
    Refused() {
      super(null, null, false, false);
    }
  }
}
