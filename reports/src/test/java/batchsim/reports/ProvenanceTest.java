package batchsim.reports;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.core.metrics.RunResult;
import batchsim.core.sim.EngineSource;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ProvenanceTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  static final RunMetadata META = new RunMetadata("examples/demo.yaml", "ab".repeat(32), "0.1.0-test",
      new Provenance(EngineSource.VOLCANO, List.of("a.b=1", "c=<x>"), new Provenance.Cell("gpu=4,seed=1",
          Map.of("gpu", "4")), List.of(new Provenance.Input("demo.yaml", "cd".repeat(32)),
          new Provenance.Input("../traces/t.swf", "ef".repeat(32))),
          new Provenance.Build("0.1.0-test", "0123456789abcdef0123456789abcdef01234567", true)));

  private static JsonNode summary(RunResult r, RunMetadata meta) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    SummaryJson.write(r, meta, "sha256:00", out);
    return JSON.readTree(out.toString(StandardCharsets.UTF_8));
  }

  @Test
  void summaryJson_provenanceReadsBackAsTheSameLines() throws Exception {
    RunResult r = Fixtures.result(10_800_000);
    JsonNode s = summary(r, META);
    assertEquals(Provenance.lines(META, r.seed()), ProvenanceJson.lines(s));
    assertEquals("volcano", s.path("provenance").path("engine").path("name").asText());
    assertTrue(s.path("provenance").path("batchsim").path("dirty").asBoolean());
    assertEquals("[\"a.b=1\",\"c=<x>\"]", s.path("provenance").path("overrides").toString());
  }

  @Test
  void withoutProvenance_theSummaryHasNoBlock_andItsLinesAreWhatTheOldFieldsSay() throws Exception {
    RunResult r = Fixtures.result(10_800_000);
    JsonNode s = summary(r, Fixtures.META);
    assertFalse(s.has("provenance"));
    assertEquals(List.of("seed: " + r.seed(), "scenario: examples/demo.yaml",
        "scenario sha256: " + "0123456789abcdef".repeat(4), "batchsim: 0.1.0-test"),
        ProvenanceJson.lines(s).stream().map(Provenance.Line::toString).toList());
  }

  @Test
  void lines_inAFixedOrder_oneInputPerLine() {
    assertEquals(List.of("engine: Volcano ed72c7c8 (v1.16.0-alpha.1-42)", "overrides: --set a.b=1 --set c=<x>",
        "sweep cell: gpu=4,seed=1", "seed: 7", "scenario: examples/demo.yaml", "scenario sha256: " + "ab".repeat(32),
        "input: demo.yaml sha256:" + "cd".repeat(32), "input: ../traces/t.swf sha256:" + "ef".repeat(32),
        "batchsim: 0.1.0-test (commit 0123456789abcdef0123456789abcdef01234567, dirty)"),
        Provenance.lines(META, 7).stream().map(Provenance.Line::toString).toList());
  }

  @Test
  void reportHeader_escapesOverrides_andFoldsTheInputsAway() {
    String html = HtmlReport.render(Fixtures.result(10_800_000), META, "sha256:00");
    assertTrue(html.contains("<dt>Overrides</dt><dd><code>--set a.b=1</code> <code>--set c=&lt;x&gt;</code></dd>"), html);
    assertTrue(html.contains("<dt>Sweep cell</dt>"), html);
    assertTrue(html.contains("<code title=\"0123456789abcdef0123456789abcdef01234567\">0123456789ab</code> (dirty)"), html);
    assertTrue(html.contains("<tr><td><code>../traces/t.swf</code></td>"), html);
  }

  @Test
  void aValueWithLineBreaks_staysOneLine() {
    Provenance.Line l = new Provenance.Line("overrides", "--set volcano=a: 1\nb: 2\r\tc");
    assertEquals("overrides: --set volcano=a: 1\\nb: 2\\u000d\\u0009c", l.toString());
    assertFalse(l.toString().contains("\n"));
  }
}
