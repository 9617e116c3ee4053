package batchsim.reports;

import batchsim.core.sim.EngineSource;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * summary.json's {@code provenance} object, written and read back. The object is whole on its own (seed,
 * scenario and version too), so it can be copied out of the summary; the summary's older fields
 * ({@code tool}, {@code scenario}, {@code seed}) stay where they were for existing readers.
 */
public final class ProvenanceJson {
  static final String FIELD = "provenance";

  private ProvenanceJson() {}

  /** Writes the {@code provenance} field; nothing when {@code meta} has no provenance. */
  static void write(JsonGenerator g, RunMetadata meta, long seed) throws IOException {
    Provenance p = meta.provenance();
    if (p == null) {
      return;
    }
    g.writeObjectFieldStart(FIELD);
    g.writeObjectFieldStart("engine");
    g.writeStringField("name", p.engine().name());
    g.writeStringField("project", p.engine().project());
    g.writeStringField("commit", p.engine().commit());
    g.writeStringField("version", p.engine().version());
    g.writeEndObject();
    g.writeArrayFieldStart("overrides");
    for (String o : p.overrides()) {
      g.writeString(o);
    }
    g.writeEndArray();
    if (p.cell() != null) {
      g.writeObjectFieldStart("sweep_cell");
      g.writeStringField("name", p.cell().name());
      g.writeObjectFieldStart("levels");
      for (var e : p.cell().levels().entrySet()) {
        g.writeStringField(e.getKey(), e.getValue());
      }
      g.writeEndObject();
      g.writeEndObject();
    }
    g.writeNumberField("seed", seed);
    g.writeObjectFieldStart("scenario");
    g.writeStringField("file", meta.scenarioFile());
    g.writeStringField("sha256", meta.scenarioHash());
    g.writeEndObject();
    g.writeArrayFieldStart("inputs");
    for (Provenance.Input i : p.inputs()) {
      g.writeStartObject();
      g.writeStringField("path", i.path());
      g.writeStringField("sha256", i.sha256());
      g.writeEndObject();
    }
    g.writeEndArray();
    g.writeObjectFieldStart("batchsim");
    g.writeStringField("version", p.build().version());
    g.writeStringField("commit", p.build().commit());
    g.writeFieldName("dirty");
    if (p.build().dirty() == null) {
      g.writeNull();
    } else {
      g.writeBoolean(p.build().dirty());
    }
    g.writeEndObject();
    g.writeEndObject();
  }

  /**
   * The provenance lines ({@link Provenance#lines}) of a stored summary.json; a summary written before
   * provenance existed gives its seed, scenario and version.
   */
  public static List<Provenance.Line> lines(JsonNode summary) {
    JsonNode p = summary.path(FIELD);
    RunMetadata meta = new RunMetadata(text(summary.path("scenario").path("file")),
        text(summary.path("scenario").path("sha256")), text(summary.path("tool").path("version")),
        p.isObject() ? read(p) : null);
    return Provenance.lines(meta, summary.path("seed").asLong());
  }

  private static Provenance read(JsonNode p) {
    JsonNode e = p.path("engine");
    EngineSource engine = new EngineSource(text(e.path("name")), text(e.path("project")), text(e.path("commit")),
        text(e.path("version")));
    List<String> overrides = new ArrayList<>();
    p.path("overrides").forEach(o -> overrides.add(o.asText()));
    Provenance.Cell cell = null;
    if (p.path("sweep_cell").isObject()) {
      Map<String, String> levels = new LinkedHashMap<>();
      p.path("sweep_cell").path("levels").fields().forEachRemaining(f -> levels.put(f.getKey(), f.getValue().asText()));
      cell = new Provenance.Cell(text(p.path("sweep_cell").path("name")), levels);
    }
    List<Provenance.Input> inputs = new ArrayList<>();
    p.path("inputs").forEach(i -> inputs.add(new Provenance.Input(text(i.path("path")), text(i.path("sha256")))));
    JsonNode b = p.path("batchsim");
    Boolean dirty = b.path("dirty").isBoolean() ? b.path("dirty").asBoolean() : null;
    return new Provenance(engine, overrides, cell, inputs,
        new Provenance.Build(text(b.path("version")), text(b.path("commit")), dirty));
  }

  private static String text(JsonNode n) {
    return n.isValueNode() && !n.isNull() ? n.asText() : null;
  }
}
