package batchsim.scenarios.imports;

import batchsim.scenarios.RegularFiles;
import batchsim.scenarios.yaml.IssueSink;
import batchsim.scenarios.yaml.Location;
import batchsim.scenarios.yaml.MapNode;
import batchsim.scenarios.yaml.Node;
import batchsim.scenarios.yaml.YamlTreeReader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Reads Kubernetes objects as {@code kubectl} writes and accepts them: one object per YAML document,
 * several documents separated by {@code ---}, and {@code kind: List} (or {@code kind: XList}) with
 * {@code items}, which is what {@code kubectl get ... -o yaml} prints. JSON works too. An object with only
 * {@code metadata.generateName} gets a unique name, repeatable from import to import.
 */
public final class KubeObjects {
  private static final Pattern DOCUMENT_START = Pattern.compile("---(\\s.*)?");
  private static final Pattern DOCUMENT_END = Pattern.compile("\\.\\.\\.\\s*");
  /** The characters the API server draws generateName suffixes from (k8s.io/apiserver names.go). */
  private static final String SUFFIX_ALPHABET = "bcdfghjklmnpqrstvwxz2456789";

  private KubeObjects() {}

  /** One object; {@code namespace} is null when the object has none. */
  public record KubeObject(MapNode node, String apiVersion, String kind, String name, String namespace) {
    public Location location() {
      return node.location();
    }

    /** The API group of {@code apiVersion} ("" for the core group). */
    public String group() {
      int slash = apiVersion.indexOf('/');
      return slash < 0 ? "" : apiVersion.substring(0, slash);
    }

    public String version() {
      return apiVersion.substring(apiVersion.indexOf('/') + 1);
    }

    /** Its namespace, {@code default} when it has none (where Kubernetes creates it). */
    public String namespaceOrDefault() {
      return namespace == null ? "default" : namespace;
    }

    /** {@code Kind/name} (or {@code Kind/namespace/name}) for messages. */
    public String describe() {
      return kind + "/" + (namespace == null ? "" : namespace + "/") + name;
    }
  }

  public static List<KubeObject> read(Path file, String displayName, IssueSink problems) throws IOException {
    return parse(displayName, RegularFiles.readString(file), problems);
  }

  /** Every object in {@code text}; problems (YAML syntax, objects without kind) go to {@code problems}. */
  public static List<KubeObject> parse(String displayName, String text, IssueSink problems) {
    List<KubeObject> out = new ArrayList<>();
    String[] lines = text.startsWith("\uFEFF") ? text.substring(1).split("\n", -1) : text.split("\n", -1);
    int start = 0;
    for (int i = 0; i <= lines.length; i++) {
      boolean boundary = i == lines.length || DOCUMENT_START.matcher(lines[i]).matches()
          || DOCUMENT_END.matcher(lines[i]).matches();
      if (!boundary) {
        continue;
      }
      document(displayName, lines, start, i, problems, out);
      start = i;
    }
    return out;
  }

  /** Lines [from, to) as one document; line numbers are kept by padding with empty lines. */
  private static void document(String file, String[] lines, int from, int to, IssueSink problems,
      List<KubeObject> out) {
    StringBuilder sb = new StringBuilder();
    boolean content = false;
    for (int i = 0; i < to; i++) {
      if (i < from) {
        sb.append('\n');
        continue;
      }
      String line = lines[i];
      if (i == from && (DOCUMENT_START.matcher(line).matches() || DOCUMENT_END.matcher(line).matches())) {
        line = DOCUMENT_END.matcher(line).matches() ? "" : "   " + line.substring(3); // keep columns
      }
      String t = line.strip();
      content |= !t.isEmpty() && !t.startsWith("#");
      sb.append(line).append('\n');
    }
    if (!content) {
      return;
    }
    Node root = YamlTreeReader.read(file, sb.toString(), problems);
    if (root != null) {
      objects(root, problems, out);
    }
  }

  private static void objects(Node n, IssueSink problems, List<KubeObject> out) {
    if (!(n instanceof MapNode m)) {
      problems.report(n.location(), n.path(), "expected a Kubernetes object (a map with apiVersion and kind), got "
          + n.describe());
      return;
    }
    String kind = Tree.text(m, "kind");
    String apiVersion = Tree.text(m, "apiVersion");
    if (kind == null || apiVersion == null) {
      problems.report(m.location(), m.path(), "not a Kubernetes object: it has no " + (kind == null ? "kind" : "apiVersion"));
      return;
    }
    if (kind.endsWith("List") && Tree.get(m, "items") != null) {
      for (Node item : Tree.items(m, "items")) {
        objects(item, problems, out);
      }
      return;
    }
    String namespace = Tree.text(m, "metadata", "namespace");
    String name = Tree.text(m, "metadata", "name");
    String generate = Tree.text(m, "metadata", "generateName");
    if (name == null && generate != null) {
      name = generatedName(m, kind, namespace, generate, out);
    }
    if (name == null) {
      problems.report(m.location(), m.path(), kind + " has no metadata.name");
      return;
    }
    out.add(new KubeObject(m, apiVersion, kind, name, namespace));
  }

  /**
   * A name for an object with only {@code metadata.generateName}: the prefix and five characters of the API
   * server's alphabet, as {@code kubectl create} would get, but taken from a hash of the file's name and the
   * object's line and column so that importing the same files again gives the same names. A name another
   * object of the kind already has in this read is hashed again.
   */
  private static String generatedName(MapNode m, String kind, String namespace, String prefix, List<KubeObject> out) {
    String file = m.location().file();
    String seed = file.substring(Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\')) + 1) + ":"
        + m.location().line() + ":" + m.location().column();
    for (int attempt = 0; ; attempt++) {
      String name = prefix + suffix(seed + "#" + attempt);
      boolean taken = out.stream().anyMatch(o -> o.kind().equals(kind) && o.name().equals(name)
          && java.util.Objects.equals(o.namespace(), namespace));
      if (!taken) {
        return name;
      }
    }
  }

  /** Five characters of Kubernetes' name-suffix alphabet (no vowels, no look-alikes) from a hash of {@code seed}. */
  private static String suffix(String seed) {
    long h = 1125899906842597L;
    for (int i = 0; i < seed.length(); i++) {
      h = 31 * h + seed.charAt(i);
    }
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    h ^= h >>> 33;
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 5; i++) {
      sb.append(SUFFIX_ALPHABET.charAt((int) Math.floorMod(h, SUFFIX_ALPHABET.length())));
      h = Math.floorDiv(h, SUFFIX_ALPHABET.length());
    }
    return sb.toString();
  }
}
