package batchsim.scenarios.conformance.volcano;

import batchsim.scenarios.conformance.KeyCheck;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Reads a Volcano case file (volcano-cases.yaml): one YAML document whose {@code cases:} list holds the cases.
 * A case with {@code variants} yields one case per variant: the variant inherits every top-level key of its
 * case, a key it gives replaces the inherited one, and {@code add_podgroups} / {@code add_pods} append to the
 * inherited lists. A case without variants (or with an {@code expect} of its own) is run as it stands.
 */
public final class VolcanoCaseFile {
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  private VolcanoCaseFile() {}

  /** Whether the file is in this format: a YAML mapping with a top-level {@code cases:} key. */
  public static boolean isVolcanoFormat(Path file) {
    try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      JsonNode root = YAML.readTree(r);
      return root != null && root.isObject() && root.has("cases");
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  public static List<VolcanoCase> read(Path file) throws VolcanoCaseFileException {
    if (Files.isDirectory(file)) {
      throw new VolcanoCaseFileException(file + ": is a directory, not a case file");
    }
    try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      return parse(r, file.toString());
    } catch (java.nio.file.NoSuchFileException e) {
      throw new VolcanoCaseFileException(file + ": cannot read: no such file", e);
    } catch (IOException e) {
      throw new VolcanoCaseFileException(file + ": cannot read: " + e.getMessage(), e);
    }
  }

  public static List<VolcanoCase> parse(Reader in, String source) throws VolcanoCaseFileException {
    JsonNode root;
    String text;
    try {
      text = KeyCheck.text(in);
      root = YAML.readTree(text);
    } catch (IOException | RuntimeException e) {
      String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage().replaceAll("\\s+", " ");
      throw new VolcanoCaseFileException(source + ": not valid YAML: " + m, e);
    }
    if (root == null || !root.isObject() || !root.path("cases").isArray()) {
      throw new VolcanoCaseFileException(source + ": no 'cases:' list (not a Volcano case file)");
    }
    List<String> unknown = KeyCheck.problems(source, text, CaseKeys::unknownKeys);
    if (!unknown.isEmpty()) {
      throw new VolcanoCaseFileException(String.join("\n", unknown));
    }
    List<VolcanoCase> out = new ArrayList<>();
    int n = 0;
    for (JsonNode c : root.get("cases")) {
      n++;
      out.addAll(expand(c, n));
    }
    if (out.isEmpty()) {
      throw new VolcanoCaseFileException(source + ": no cases found");
    }
    return out;
  }

  private static List<VolcanoCase> expand(JsonNode c, int n) {
    List<VolcanoCase> out = new ArrayList<>();
    if (!c.isObject() || !c.hasNonNull("id")) {
      out.add(invalid("case#" + n, "a case must be a mapping with an id"));
      return out;
    }
    String id = c.get("id").asText();
    ObjectNode base = ((ObjectNode) c).deepCopy();
    JsonNode variants = base.remove("variants");
    if (variants == null || variants.isNull() || base.has("expect")) {
      out.add(new VolcanoCase(id, base));
    }
    if (variants == null || variants.isNull()) {
      return out;
    }
    if (!variants.isArray()) {
      out.add(invalid(id, "variants must be a list"));
      return out;
    }
    int k = 0;
    for (JsonNode v : variants) {
      k++;
      String vid = id + "/" + (v.hasNonNull("id") ? v.get("id").asText() : "v" + k);
      if (!v.isObject()) {
        out.add(invalid(vid, "a variant must be a mapping"));
        continue;
      }
      ObjectNode spec = base.deepCopy();
      spec.remove("why");
      for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext();) {
        Map.Entry<String, JsonNode> f = it.next();
        String key = f.getKey();
        if (key.equals("id")) {
          continue;
        }
        if (key.equals("add_podgroups") || key.equals("add_pods")) {
          String list = key.substring("add_".length());
          ArrayNode target = spec.has(list) && spec.get(list).isArray() ? (ArrayNode) spec.get(list)
              : spec.putArray(list);
          if (f.getValue().isArray()) {
            target.addAll((ArrayNode) f.getValue().deepCopy());
          } else {
            out.add(invalid(vid, key + " must be a list"));
          }
          continue;
        }
        spec.set(key, f.getValue().deepCopy());
      }
      spec.put("id", vid);
      out.add(new VolcanoCase(vid, spec));
    }
    return out;
  }

  private static VolcanoCase invalid(String id, String message) {
    ObjectNode spec = YAML.createObjectNode();
    spec.put("id", id);
    spec.put("invalid", message);
    return new VolcanoCase(id, spec);
  }
}
