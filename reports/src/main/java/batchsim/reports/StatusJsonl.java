package batchsim.reports;

import batchsim.core.world.StatusRecord;
import batchsim.core.world.StatusSink;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedWriter;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * {@code status.jsonl}: the status record streamed as the run goes, one JSON object per line and per change,
 * in virtual-time order: {@code {"time": ms, "kind", "namespace" (namespaced kinds), "name", "spec" (Workload),
 * "status"}}.
 */
public final class StatusJsonl implements StatusSink, Closeable {
  public static final String FILE = "status.jsonl";
  private static final ObjectMapper MAPPER = new ObjectMapper(
      new JsonFactory().disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET));

  private final BufferedWriter out;

  public StatusJsonl(Path file) throws IOException {
    this.out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
  }

  @Override
  public void accept(StatusRecord r) {
    Map<String, Object> line = new java.util.LinkedHashMap<>();
    line.put("time", r.timeMs());
    line.put("kind", r.kind());
    if (r.namespace() != null) {
      line.put("namespace", r.namespace());
    }
    line.put("name", r.name());
    if (r.spec() != null) {
      line.put("spec", r.spec());
    }
    line.put("status", r.status());
    try {
      MAPPER.writeValue(out, line);
      out.write('\n');
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() throws IOException {
    out.close();
  }
}
