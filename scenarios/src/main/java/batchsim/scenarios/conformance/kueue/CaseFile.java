package batchsim.scenarios.conformance.kueue;

import batchsim.scenarios.conformance.KeyCheck;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
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
 * Reads a conformance case file: a multi-document YAML stream whose documents are cases, plus one
 * {@code FIXTURES} document of named ClusterQueue lists. Each case yields one {@link ConformanceCase}, and
 * each of its {@code variants} one more, built by the merge rules of the file's header:
 *
 * <ul>
 *   <li>{@code {fixture: NAME}} anywhere stands for the fixture list, expanded before anything else;
 *   <li>a variant's {@code change} merges into the base: mappings key by key (recursively), scalars and
 *       lists replace; a list of named objects is patched through a mapping keyed by name or id, and
 *       {@code {replace_with: [...]}} replaces the whole list;
 *   <li>a variant's {@code expect} keys replace the base's, each whole; absent keys are inherited.
 * </ul>
 */
public final class CaseFile {
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  private CaseFile() {}

  /** Reads every case (and variant) of the file, in file order. */
  public static List<ConformanceCase> read(Path file) throws CaseFileException {
    if (Files.isDirectory(file)) {
      throw new CaseFileException(file + ": is a directory, not a case file");
    }
    try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      return parse(r, file.toString());
    } catch (IOException e) {
      throw new CaseFileException(file + ": cannot read: " + describe(e), e);
    }
  }

  /** Parses case documents from {@code in}; {@code source} names it in messages. */
  public static List<ConformanceCase> parse(Reader in, String source) throws CaseFileException {
    String text;
    try {
      text = KeyCheck.text(in);
    } catch (IOException e) {
      throw new CaseFileException(source + ": cannot read: " + describe(e), e);
    }
    List<JsonNode> docs = new ArrayList<>();
    try (MappingIterator<JsonNode> it = YAML.readerFor(JsonNode.class).readValues(text)) {
      while (it.hasNextValue()) {
        JsonNode d = it.nextValue();
        if (d != null && !d.isNull() && !d.isMissingNode()) {
          docs.add(d);
        }
      }
    } catch (IOException | RuntimeException e) {
      throw new CaseFileException(source + ": not valid YAML: " + describe(e), e);
    }
    List<String> unknown = KeyCheck.problems(source, text, CaseKeys::unknownKeys);
    if (!unknown.isEmpty()) {
      throw new CaseFileException(String.join("\n", unknown));
    }
    JsonNode fixtures = null;
    List<JsonNode> cases = new ArrayList<>();
    for (int i = 0; i < docs.size(); i++) {
      JsonNode d = docs.get(i);
      if (!d.isObject() || !d.hasNonNull("id")) {
        throw new CaseFileException(source + ": document " + (i + 1) + " is not a case (a mapping with an id)");
      }
      if ("FIXTURES".equals(d.get("id").asText()) || "fixtures".equals(d.path("kind").asText())) {
        fixtures = d.path("fixtures");
      } else {
        cases.add(d);
      }
    }
    if (cases.isEmpty()) {
      throw new CaseFileException(source + ": no cases found");
    }
    List<ConformanceCase> out = new ArrayList<>();
    for (JsonNode d : cases) {
      out.addAll(expand(d, fixtures));
    }
    return out;
  }

  private static String describe(Exception e) {
    if (e instanceof java.nio.file.NoSuchFileException) {
      return "no such file";
    }
    if (e instanceof java.nio.file.AccessDeniedException) {
      return "permission denied";
    }
    if (e.getCause() instanceof org.yaml.snakeyaml.error.MarkedYAMLException y && y.getProblemMark() != null) {
      return y.getProblem() + " at line " + (y.getProblemMark().getLine() + 1) + ", column "
          + (y.getProblemMark().getColumn() + 1);
    }
    if (e instanceof com.fasterxml.jackson.core.JsonProcessingException j) {
      String loc = j.getLocation() == null ? ""
          : " at line " + j.getLocation().getLineNr() + ", column " + j.getLocation().getColumnNr();
      return j.getOriginalMessage().replaceAll("\\s+", " ").trim() + loc;
    }
    String m = e.getMessage();
    return m == null ? e.getClass().getSimpleName() : m.replaceAll("\\s+", " ").trim();
  }

  /** The base case and its variants. A case that cannot even be expanded becomes a single invalid case. */
  private static List<ConformanceCase> expand(JsonNode doc, JsonNode fixtures) {
    String id = doc.get("id").asText();
    List<ConformanceCase> out = new ArrayList<>();
    ObjectNode base = (ObjectNode) doc.deepCopy();
    JsonNode variants = base.remove("variants");
    JsonNode baseExpect = base.path("expect");
    try {
      base = (ObjectNode) expandFixtures(base, fixtures);
    } catch (CaseException e) {
      out.add(invalid(id, testName(doc.path("kueue_test")), doc.path("kind").asText(), e.getMessage()));
      return out;
    }
    out.add(new ConformanceCase(id, testName(doc.path("kueue_test")), doc.path("kind").asText(), base, baseExpect));
    if (variants == null || variants.isNull()) {
      return out;
    }
    int n = 0;
    for (JsonNode v : variants) {
      n++;
      String vid = id + "/v" + n;
      String name = v.has("kueue_test") ? testName(v.get("kueue_test")) : testName(doc.path("kueue_test"));
      try {
        JsonNode change = expandFixtures(v.path("change").deepCopy(), fixtures);
        ObjectNode spec = (ObjectNode) merge(base.deepCopy(), change, "change");
        ObjectNode expect = baseExpect.isObject() ? ((ObjectNode) baseExpect).deepCopy() : YAML.createObjectNode();
        JsonNode ve = v.path("expect");
        for (Iterator<Map.Entry<String, JsonNode>> it = ve.fields(); it.hasNext();) {
          Map.Entry<String, JsonNode> f = it.next();
          expect.set(f.getKey(), f.getValue().deepCopy());
        }
        spec.set("expect", expect);
        if (v.has("caveat")) {
          spec.set("caveat", v.get("caveat"));
        }
        out.add(new ConformanceCase(vid, name, spec.path("kind").asText(), spec, expect));
      } catch (CaseException e) {
        out.add(invalid(vid, name, doc.path("kind").asText(), e.getMessage()));
      }
    }
    return out;
  }

  private static ConformanceCase invalid(String id, String name, String kind, String message) {
    ObjectNode spec = YAML.createObjectNode();
    spec.put("invalid", message);
    return new ConformanceCase(id, name, kind, spec, YAML.createObjectNode());
  }

  /** The test's name, or its function names when the case stands for whole test functions. */
  static String testName(JsonNode kt) {
    if (kt.isArray()) {
      List<String> names = new ArrayList<>();
      for (JsonNode t : kt) {
        names.add(testName(t));
      }
      return String.join(", ", names);
    }
    if (kt.hasNonNull("name")) {
      return kt.get("name").asText();
    }
    if (kt.hasNonNull("func")) {
      return kt.get("func").asText();
    }
    return "";
  }

  /** Replaces every {@code {fixture: NAME}} mapping by a copy of the fixture. */
  static JsonNode expandFixtures(JsonNode n, JsonNode fixtures) {
    if (n.isObject()) {
      if (n.size() == 1 && n.has("fixture")) {
        String name = n.get("fixture").asText();
        if (fixtures == null || !fixtures.has(name)) {
          throw CaseException.invalid("unknown fixture " + name);
        }
        return fixtures.get(name).deepCopy();
      }
      ObjectNode o = (ObjectNode) n;
      List<String> keys = new ArrayList<>();
      o.fieldNames().forEachRemaining(keys::add);
      for (String k : keys) {
        o.set(k, expandFixtures(o.get(k), fixtures));
      }
      return o;
    }
    if (n.isArray()) {
      ArrayNode a = (ArrayNode) n;
      for (int i = 0; i < a.size(); i++) {
        a.set(i, expandFixtures(a.get(i), fixtures));
      }
    }
    return n;
  }

  /** Merges {@code change} into {@code base} by the file's variant rules; returns the result. */
  static JsonNode merge(JsonNode base, JsonNode change, String path) {
    if (change == null || change.isMissingNode()) {
      return base;
    }
    if (base != null && base.isArray() && change.isObject()) {
      return patchList((ArrayNode) base, change, path);
    }
    if (base == null || !base.isObject() || !change.isObject()) {
      return change.deepCopy();
    }
    ObjectNode o = (ObjectNode) base;
    for (Iterator<Map.Entry<String, JsonNode>> it = change.fields(); it.hasNext();) {
      Map.Entry<String, JsonNode> f = it.next();
      JsonNode old = o.get(f.getKey());
      o.set(f.getKey(), old == null ? f.getValue().deepCopy() : merge(old, f.getValue(), path + "." + f.getKey()));
    }
    return o;
  }

  /** Patches a list of named objects through a mapping keyed by name or id, or replaces it whole. */
  private static JsonNode patchList(ArrayNode list, JsonNode change, String path) {
    if (change.has("replace_with")) {
      if (change.size() != 1) {
        throw CaseException.invalid(path + ": replace_with must be the only key");
      }
      return change.get("replace_with").deepCopy();
    }
    for (Iterator<Map.Entry<String, JsonNode>> it = change.fields(); it.hasNext();) {
      Map.Entry<String, JsonNode> f = it.next();
      int idx = -1;
      for (int i = 0; i < list.size(); i++) {
        JsonNode e = list.get(i);
        if (f.getKey().equals(e.path("name").asText(null)) || f.getKey().equals(e.path("id").asText(null))) {
          idx = i;
          break;
        }
      }
      if (idx < 0) {
        throw CaseException.invalid(path + ": no element named " + f.getKey() + " to patch");
      }
      list.set(idx, merge(list.get(idx), f.getValue(), path + "." + f.getKey()));
    }
    return list;
  }
}
