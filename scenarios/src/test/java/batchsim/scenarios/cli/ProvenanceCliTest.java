package batchsim.scenarios.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Provenance: every output that has a header says where its result came from, and nothing else changes. */
class ProvenanceCliTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String BASE = """
      name: prov
      cluster:
        nodePools: [{name: n, count: 4, allocatable: {cpu: 1, nvidia.com/gpu: 8}}]
      resourceFlavors: [{name: f}]
      clusterQueues:
        - name: cq
          resourceGroups:
            - coveredResources: [cpu, nvidia.com/gpu]
              flavors: [{name: f, resources: [{name: cpu, nominalQuota: 4}, {name: nvidia.com/gpu, nominalQuota: 32}]}]
      localQueues: [{namespace: hpc, name: main, clusterQueue: cq}]
      """;
  private static final String MAIN = """
      include: common/base.yaml
      seed: 5
      workloads:
        traces:
          - {format: swf, path: traces/small.swf, queue: hpc/main}
      """;

  @TempDir
  Path tmp;

  Path scenario;

  @BeforeEach
  void files() throws Exception {
    Path dir = tmp.resolve("scn");
    Files.createDirectories(dir.resolve("common"));
    Files.createDirectories(dir.resolve("traces"));
    Files.writeString(dir.resolve("common/base.yaml"), BASE);
    Files.writeString(dir.resolve("main.yaml"), MAIN);
    Files.copy(Path.of("src/test/resources/traces/small.swf"), dir.resolve("traces/small.swf"));
    scenario = dir.resolve("main.yaml");
  }

  private Path run(String out, String... more) {
    List<String> args = new ArrayList<>(List.of("run", scenario.toString(), "-q", "--out", tmp.resolve(out).toString()));
    args.addAll(List.of(more));
    Cli.Result r = Cli.run(args.toArray(String[]::new));
    assertEquals(0, r.exit(), r.err());
    return tmp.resolve(out);
  }

  private static JsonNode summary(Path dir) throws Exception {
    return JSON.readTree(dir.resolve("summary.json").toFile());
  }

  private static String sha256(Path file) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
  }

  @Test
  void summary_namesEngine_overridesInOrder_seed_andEveryInputWithItsChecksum() throws Exception {
    JsonNode s = summary(run("a", "--set", "clusterQueues.cq.quota.f.cpu=3", "--set", "seed=9"));
    JsonNode p = s.path("provenance");
    assertEquals("kueue", p.path("engine").path("name").asText());
    assertEquals("ff69552e", p.path("engine").path("commit").asText());
    assertEquals("[\"clusterQueues.cq.quota.f.cpu=3\",\"seed=9\"]", p.path("overrides").toString());
    assertEquals(9, p.path("seed").asLong());
    assertEquals(s.path("seed"), p.path("seed"));
    assertEquals(s.path("scenario").path("sha256"), p.path("scenario").path("sha256"));
    assertEquals(scenario.toString(), p.path("scenario").path("file").asText(), "the path as the user gave it");
    List<String> paths = new ArrayList<>();
    for (JsonNode i : p.path("inputs")) {
      paths.add(i.path("path").asText());
      assertEquals(sha256(scenario.getParent().resolve(i.path("path").asText())), i.path("sha256").asText(),
          i.toString());
    }
    assertEquals(List.of("main.yaml", "common/base.yaml", "traces/small.swf"), paths,
        "read order, relative to the scenario's directory");
    assertEquals(s.path("tool").path("version"), p.path("batchsim").path("version"));
    assertFalse(p.path("batchsim").path("commit").asText().isEmpty());
    assertFalse(p.has("sweep_cell"));
  }

  @Test
  void sameScenarioAndSeed_byteIdentical_andInputPathsDoNotDependOnWhereTheScenarioLives() throws Exception {
    Path a = run("a");
    Path b = run("b");
    for (String f : List.of("summary.json", "report.html", "waits.hlog", "workloads.csv")) {
      assertArrayEquals(Files.readAllBytes(a.resolve(f)), Files.readAllBytes(b.resolve(f)), f);
    }
    Path moved = tmp.resolve("elsewhere/deeper");
    Files.createDirectories(moved.getParent());
    Files.move(scenario.getParent(), moved);
    scenario = moved.resolve("main.yaml");
    JsonNode c = summary(run("c"));
    assertEquals(summary(a).path("provenance").path("inputs"), c.path("provenance").path("inputs"));
    assertArrayEquals(Files.readAllBytes(a.resolve("workloads.csv")), Files.readAllBytes(tmp.resolve("c/workloads.csv")));
  }

  @Test
  void runsDifferingInOneSet_areToldApart_andCompareSaysHow() throws Exception {
    Path a = run("a", "--set", "clusterQueues.cq.quota.f.cpu=4");
    Path b = run("b", "--set", "clusterQueues.cq.quota.f.cpu=2");
    JsonNode pa = summary(a).path("provenance");
    JsonNode pb = summary(b).path("provenance");
    assertNotEquals(pa.path("overrides"), pb.path("overrides"));
    assertNotEquals(pa.path("scenario").path("sha256"), pb.path("scenario").path("sha256"));
    assertEquals(pa.path("inputs"), pb.path("inputs"), "the same files were read");
    Cli.Result r = Cli.run("compare", a.toString(), b.toString(), "--out", tmp.resolve("cmp").toString());
    assertEquals(0, r.exit(), r.err());
    List<String> lines = r.out().lines().toList();
    assertEquals("  Provenance differs:", lines.get(1));
    assertEquals("    overrides: --set clusterQueues.cq.quota.f.cpu=4 → --set clusterQueues.cq.quota.f.cpu=2",
        lines.get(2));
    assertTrue(lines.get(3).startsWith("    scenario sha256: "), lines.get(3));
    assertTrue(lines.get(4).startsWith("  SCOPE"), lines.get(4));
    assertTrue(Files.readString(tmp.resolve("cmp/compare.html")).contains("<li>overrides: --set"));
    Cli.Result same = Cli.run("compare", a.toString(), a.toString(), "--out", tmp.resolve("cmp2").toString());
    assertFalse(same.out().contains("Provenance differs"), same.out());
  }

  @Test
  void hlog_startsWithProvenanceComments_andHistogramLogReaderStillReadsEveryInterval() throws Exception {
    Path a = run("a", "--set", "seed=3");
    List<String> lines = Files.readAllLines(a.resolve("waits.hlog"));
    assertTrue(lines.get(0).startsWith("#[Histogram log format version"), lines.get(0));
    assertEquals("#[batchsim provenance] engine: Kueue ff69552e (v0.20.0-devel)", lines.get(1));
    assertEquals("#[batchsim provenance] overrides: --set seed=3", lines.get(2));
    assertTrue(lines.contains("#[batchsim provenance] input: traces/small.swf sha256:"
        + sha256(scenario.getParent().resolve("traces/small.swf"))), lines.toString());
    List<String> tags = new ArrayList<>();
    try (InputStream in = Files.newInputStream(a.resolve("waits.hlog"))) {
      HistogramLogReader reader = new HistogramLogReader(in);
      for (EncodableHistogram h = reader.nextIntervalHistogram(); h != null; h = reader.nextIntervalHistogram()) {
        tags.add(h.getTag());
      }
      assertEquals(0.0, reader.getStartTimeSec(), "the StartTime line is still read");
    }
    assertEquals(List.of("rsv.cq", "rsv.*", "start.cq", "start.*"), tags);
  }

  @Test
  void reportHeader_andJUnitProperties_sayWhereTheResultCameFrom() throws Exception {
    Path junit = tmp.resolve("j.xml");
    Path a = run("a", "--set", "seed=3", "--junit", junit.toString());
    String html = Files.readString(a.resolve("report.html"));
    assertTrue(html.contains("<dt>Engine</dt><dd>Kueue ff69552e (v0.20.0-devel)"), html);
    assertTrue(html.contains("<dt>Overrides</dt><dd><code>--set seed=3</code></dd>"), html);
    assertTrue(html.contains("<details class=\"inputs\"><summary>Input files (3) and their SHA-256</summary>"), html);
    assertTrue(html.contains("<dt>Tool</dt><dd>batchsim "), html);
    String xml = Files.readString(junit);
    assertTrue(xml.contains("<property name=\"engine\" value=\"Kueue ff69552e (v0.20.0-devel)\"/>"), xml);
    assertTrue(xml.contains("<property name=\"overrides\" value=\"--set seed=3\"/>"), xml);
    assertTrue(xml.contains("<property name=\"input\" value=\"common/base.yaml sha256:"), xml);
  }

  @Test
  void volcano_isNamedWithTheVolcanoVersionModelled() throws Exception {
    JsonNode p = summary(run("v", "--set", "scheduler=volcano", "--set", "volcano={queues: [{name: cq}]}"))
        .path("provenance");
    assertEquals("volcano", p.path("engine").path("name").asText());
    assertEquals("ed72c7c8", p.path("engine").path("commit").asText());
  }

  @Test
  void sweepCells_recordTheSweepsSets_andTheirCell() throws Exception {
    Path out = tmp.resolve("sweep");
    Cli.Result r = Cli.run("sweep", "src/test/resources/sweep/small.yaml", "-q", "--replicas", "1", "--parallel", "1",
        "--set", "seed=11", "--out", out.toString());
    assertEquals(0, r.exit(), r.err());
    JsonNode p = summary(out.resolve("cells/nodePools.gpu.count=2,quota=high,seed=11")).path("provenance");
    assertEquals("[\"seed=11\"]", p.path("overrides").toString());
    assertEquals("nodePools.gpu.count=2,quota=high,seed=11", p.path("sweep_cell").path("name").asText());
    assertEquals("{\"nodePools.gpu.count\":\"2\",\"quota\":\"high\"}", p.path("sweep_cell").path("levels").toString());
    assertEquals(List.of("small.yaml", "../include/base.yaml"),
        List.of(p.path("inputs").get(0).path("path").asText(), p.path("inputs").get(1).path("path").asText()));
    assertTrue(Files.readString(out.resolve("sweep.html")).contains("<li>overrides: --set seed=11</li>"));
  }
}
