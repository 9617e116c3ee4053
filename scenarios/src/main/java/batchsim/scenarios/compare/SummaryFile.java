package batchsim.scenarios.compare;

import batchsim.reports.Provenance;
import batchsim.reports.ProvenanceJson;
import batchsim.reports.Reports;
import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * A {@link ResultView} of a stored summary.json, read with Jackson; nothing is simulated again. Fields
 * this reader does not know are ignored, so summaries of newer versions still compare.
 */
public final class SummaryFile implements ResultView {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final String scenarioName;
  private final long seed;
  private final long endTimeMs;
  private final Map<String, JsonNode> queues = new LinkedHashMap<>();
  private final JsonNode overall;
  private final List<Utilization> utilization = new ArrayList<>();
  private final List<PoolHours> pools = new ArrayList<>();
  private final List<Provenance.Line> provenance;

  private SummaryFile(JsonNode root) {
    scenarioName = root.path("scenario").path("name").asText("");
    seed = root.path("seed").asLong();
    endTimeMs = root.path("end_time_ms").asLong();
    for (JsonNode q : root.path("queues")) {
      queues.put(q.path("name").asText(), q);
    }
    overall = root.path("overall");
    provenance = ProvenanceJson.lines(root);
    for (JsonNode u : root.path("utilization")) {
      utilization.add(new Utilization(u.path("flavor").asText(), u.path("resource").asText(),
          number(u.path("utilization")), number(u.path("mean_allocated")), number(u.path("mean_capacity"))));
    }
    for (JsonNode p : root.path("node_pools")) {
      JsonNode hours = p.path("node_hours");
      if (hours.isNumber()) {
        pools.add(new PoolHours(p.has("pool") ? p.path("pool").asText() : p.path("name").asText(), hours.asDouble()));
      }
    }
  }

  /**
   * Reads {@code path}: a summary.json, or a run directory holding one.
   *
   * @throws IOException when the file cannot be read or is not a batchsim summary (the message says which)
   */
  public static SummaryFile read(Path path) throws IOException {
    Path file = Files.isDirectory(path) ? path.resolve(Reports.SUMMARY_JSON) : path;
    if (!Files.isRegularFile(file)) {
      throw new IOException(file + ": no such file");
    }
    JsonNode root;
    try {
      root = JSON.readTree(file.toFile());
    } catch (JacksonException e) {
      throw new IOException(file + ": not valid JSON: " + e.getOriginalMessage());
    }
    if (root == null || !root.isObject() || !root.path("overall").isObject() || !root.path("queues").isArray()) {
      throw new IOException(file + ": not a batchsim summary.json (no 'overall' and 'queues')");
    }
    return new SummaryFile(root);
  }

  /** Where the result came from ({@link Provenance#lines}). */
  public List<Provenance.Line> provenance() {
    return provenance;
  }

  private static double number(JsonNode n) {
    return n.isNumber() ? n.asDouble() : Double.NaN;
  }

  @Override
  public String scenarioName() {
    return scenarioName;
  }

  @Override
  public long seed() {
    return seed;
  }

  @Override
  public long endTimeMs() {
    return endTimeMs;
  }

  @Override
  public List<String> queues() {
    return List.copyOf(queues.keySet());
  }

  @Override
  public OptionalDouble latency(String queue, Series series, Stat stat) {
    JsonNode q = queue(queue);
    JsonNode v = q == null ? null : q.path(series.jsonKey()).path(stat.word());
    return v != null && v.isNumber() ? OptionalDouble.of(v.asDouble()) : OptionalDouble.empty();
  }

  @Override
  public OptionalLong count(String queue, Counter counter) {
    JsonNode q = queue(queue);
    JsonNode v = q == null ? null : q.path(counter.jsonKey());
    return v != null && v.isNumber() ? OptionalLong.of(v.asLong()) : OptionalLong.empty();
  }

  @Override
  public List<Utilization> utilization() {
    return List.copyOf(utilization);
  }

  @Override
  public List<PoolHours> pools() {
    return List.copyOf(pools);
  }

  private JsonNode queue(String name) {
    return OVERALL.equals(name) ? overall : queues.get(name);
  }
}
