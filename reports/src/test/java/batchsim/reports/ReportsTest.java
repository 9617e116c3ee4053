package batchsim.reports;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.core.model.SimulationSpec;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportsTest {
  @TempDir Path tmp;

  private JsonNode writeAndParse(long horizonMs) throws IOException {
    Reports.writeAll(Fixtures.result(horizonMs), Fixtures.META, tmp);
    return new ObjectMapper().readTree(tmp.resolve(Reports.SUMMARY_JSON).toFile());
  }

  @Test
  void summaryHeaderAndCounts() throws IOException {
    JsonNode s = writeAndParse(10_800_000);
    assertEquals("batchsim", s.at("/tool/name").asText());
    assertEquals("0.1.0-test", s.at("/tool/version").asText());
    assertEquals("demo", s.at("/scenario/name").asText());
    assertEquals("examples/demo.yaml", s.at("/scenario/file").asText());
    assertEquals(Fixtures.META.scenarioHash(), s.at("/scenario/sha256").asText());
    assertEquals(42, s.get("seed").asLong());
    assertEquals(10_800_000, s.get("horizon_ms").asLong());
    assertEquals(7_200_000, s.get("end_time_ms").asLong());
    assertEquals(123_456, s.get("events").asLong());
    assertEquals(12, s.at("/counts/arrived").asLong());
    assertEquals(3, s.at("/counts/pending_at_end").asLong());
    assertEquals(5, s.at("/counts/running_at_end").asLong());
    assertEquals(1, s.at("/counts/unknown_queue_arrivals").asLong());
  }

  @Test
  void keyOrderIsFixed() throws IOException {
    JsonNode s = writeAndParse(10_800_000);
    assertEquals(List.of("tool", "scenario", "seed", "horizon_ms", "end_time_ms", "events", "counts",
        "queues", "overall", "utilization", "queue_usage", "node_pools", "digest"), names(s));
    assertEquals(List.of("name", "arrived", "admitted", "finished", "evicted", "preempted",
        "pending_at_end", "admitted_at_end", "running_at_end", "time_to_reservation_ms",
        "time_to_start_ms", "completion_ms"), names(s.at("/queues/0")));
    assertEquals(List.of("count", "mean", "p50", "p90", "p95", "p99", "max"),
        names(s.at("/queues/0/time_to_reservation_ms")));
  }

  @Test
  void noHorizonIsNull() throws IOException {
    JsonNode s = writeAndParse(SimulationSpec.NO_HORIZON);
    assertTrue(s.get("horizon_ms").isNull());
  }

  @Test
  void percentilesAndEmptyHistograms() throws IOException {
    JsonNode s = writeAndParse(10_800_000);
    JsonNode a = s.at("/queues/0");
    assertEquals("team-a", a.get("name").asText());
    JsonNode ttr = a.get("time_to_reservation_ms");
    assertEquals(10, ttr.get("count").asLong());
    assertEquals(550.0, ttr.get("mean").asDouble());
    assertEquals(500, ttr.get("p50").asLong());
    assertEquals(900, ttr.get("p90").asLong());
    assertEquals(1000, ttr.get("p95").asLong());
    assertEquals(1000, ttr.get("p99").asLong());
    assertEquals(1000, ttr.get("max").asLong());
    assertTrue(ttr.get("p50").isIntegralNumber());

    JsonNode b = s.at("/queues/1/time_to_start_ms");
    assertEquals(0, b.get("count").asLong());
    for (String k : List.of("mean", "p50", "p90", "p95", "p99", "max")) {
      assertTrue(b.get(k).isNull(), k);
    }
    assertEquals("*", s.at("/overall/name").asText());
    assertEquals(3, s.at("/overall/time_to_start_ms/count").asLong());
  }

  @Test
  void doublesAreRoundedAndNonFiniteIsNull() throws IOException {
    JsonNode s = writeAndParse(10_800_000);
    JsonNode cpu = s.at("/utilization/0");
    assertEquals("default", cpu.get("flavor").asText());
    assertEquals("cpu", cpu.get("resource").asText());
    assertEquals("12345.678901", cpu.get("mean_allocated").decimalValue().toPlainString());
    assertEquals("0.192901", cpu.get("utilization").decimalValue().toPlainString());
    assertEquals(64_000, cpu.get("mean_capacity").asLong());
    assertEquals(40_000, cpu.get("peak_allocated").asLong());
    assertTrue(s.at("/utilization/2/utilization").isNull());
    JsonNode u = s.at("/queue_usage/0");
    assertEquals("team-a", u.get("cluster_queue").asText());
    assertEquals(32_000, u.get("nominal").asLong());
    assertEquals("0.500008", u.get("usage_over_nominal").decimalValue().toPlainString());
    assertEquals(0, u.get("mean_borrowed").asLong());
    assertTrue(s.at("/queue_usage/1/usage_over_nominal").isNull());
  }

  @Test
  void summaryFormatting() throws IOException {
    writeAndParse(10_800_000);
    String text = Files.readString(tmp.resolve(Reports.SUMMARY_JSON), StandardCharsets.UTF_8);
    assertTrue(text.startsWith("{\n  \"tool\": {\n    \"name\": \"batchsim\","), text);
    assertTrue(text.endsWith("}\n"));
    assertFalse(text.contains("\r"));
    assertFalse(text.contains("E+") || text.contains("E-"), "no exponent notation");
  }

  @Test
  void digestIsSha256OfCsvBytes() throws Exception {
    JsonNode s = writeAndParse(10_800_000);
    byte[] csv = Files.readAllBytes(tmp.resolve(Reports.WORKLOADS_CSV));
    String expected = Formats.hex(MessageDigest.getInstance("SHA-256").digest(csv));
    assertEquals(expected, s.get("digest").asText());
    assertTrue(expected.matches("[0-9a-f]{64}"));
  }

  @Test
  void csvRowsQuotingAndEmptyCells() throws IOException {
    Reports.writeAll(Fixtures.result(10_800_000), Fixtures.META, tmp);
    String csv = Files.readString(tmp.resolve(Reports.WORKLOADS_CSV), StandardCharsets.UTF_8);
    assertEquals(WorkloadsCsv.HEADER + "\n"
        + "wl-1,train,lq-a,team-a,100,0,100,150,150,2000,7000,100,1,0,Finished,"
        + "\"cpu=default,gpu=h100\",\n"
        + "wl-2,batch,lq-a,team-a,0,10,210,210,210,,,200,0,1,Admitted,cpu=default,"
        + "\"said \"\"hi\"\", then\nleft\"\n"
        + "wl-3,batch,lq-x,,-5,20,,,,,,,0,0,Pending,,LocalQueue lq-x not found\n", csv);
  }

  @Test
  void writingTwiceIsByteIdentical() throws IOException {
    Path a = Files.createDirectory(tmp.resolve("a"));
    Path b = Files.createDirectory(tmp.resolve("b"));
    Reports.writeAll(Fixtures.result(10_800_000), Fixtures.META, a);
    Reports.writeAll(Fixtures.result(10_800_000), Fixtures.META, b);
    for (String f : List.of(Reports.SUMMARY_JSON, Reports.WORKLOADS_CSV)) {
      assertArrayEquals(Files.readAllBytes(a.resolve(f)), Files.readAllBytes(b.resolve(f)), f);
    }
  }

  @Test
  void nullMetadataIsWrittenAsNull() throws IOException {
    Reports.writeAll(Fixtures.result(10_800_000), new RunMetadata(null, null, null), tmp);
    JsonNode s = new ObjectMapper().readTree(tmp.resolve(Reports.SUMMARY_JSON).toFile());
    assertTrue(s.at("/scenario/sha256").isNull());
    assertTrue(s.at("/tool/version").isNull());
  }

  private static List<String> names(JsonNode n) {
    List<String> out = new ArrayList<>();
    for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
      out.add(it.next());
    }
    return out;
  }
}
