package batchsim.reports;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import batchsim.core.metrics.CounterFamily;
import batchsim.core.metrics.GaugeFamily;
import batchsim.core.metrics.HistogramFamily;
import batchsim.core.metrics.MetricFamily;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The OpenMetrics file: families and Metrics together, timestamps increasing, cumulative buckets, # EOF. */
class OpenMetricsFileTest {
  /** 2026-01-01T00:00:00Z. */
  private static final long EPOCH = 1_767_225_600_000L;

  @TempDir
  Path tmp;

  private final CounterFamily admitted = new CounterFamily("kueue_admitted_workloads_total", "cluster_queue");
  private final GaugeFamily pending = new GaugeFamily("kueue_pending_workloads", "cluster_queue", "status");
  private final HistogramFamily wait = new HistogramFamily("kueue_admission_wait_time_seconds",
      new double[] {1, 2.5}, "cluster_queue");

  /** Kueue's gauge and counter whose OpenMetrics family names would clash. */
  private final GaugeFamily finished = new GaugeFamily("kueue_finished_workloads", "cluster_queue");
  private final CounterFamily finishedTotal = new CounterFamily("kueue_finished_workloads_total", "cluster_queue");

  private List<MetricFamily<?>> families() {
    return List.of(admitted, pending, wait, finished, finishedTotal);
  }

  private String write(OpenMetricsFile f) throws IOException {
    Path p = f.finish();
    try {
      return Files.readString(p, StandardCharsets.UTF_8);
    } finally {
      Files.delete(p);
    }
  }

  /** Three scrapes; a series appears late, a gauge series goes, label values need escaping. */
  private OpenMetricsFile scraped(long budget) {
    OpenMetricsFile f = OpenMetricsFile.open(tmp, "m.om", EPOCH, new TreeMap<>(), 1000, budget);
    pending.set(2, "b", "active");
    pending.set(1, "a\"x\\y\nz", "active");
    f.scrape(0, families());
    admitted.inc("b");
    wait.observe(0.5, "b");
    wait.observe(2, "b");
    pending.clear();
    pending.set(0, "b", "active");
    f.scrape(1_500, families());
    admitted.inc("b");
    admitted.inc("a");
    wait.observe(30, "b");
    f.scrape(3_000, families());
    return f;
  }

  @Test
  void writesFamiliesThenMetricsThenPointsInTimeOrder_withEscapingAndEof() throws IOException {
    String text = write(scraped(OpenMetricsFile.BUDGET_BYTES));
    assertEquals("""
        # TYPE kueue_admitted_workloads counter
        # HELP kueue_admitted_workloads The total number of admitted workloads per 'cluster_queue'
        kueue_admitted_workloads_total{cluster_queue="a"} 1 1767225603
        kueue_admitted_workloads_total{cluster_queue="b"} 1 1767225601.5
        kueue_admitted_workloads_total{cluster_queue="b"} 2 1767225603
        # TYPE kueue_pending_workloads gauge
        # HELP kueue_pending_workloads The number of pending workloads, per 'cluster_queue' and 'status'.\\n'status' \
        can have the following values:\\n- \\"active\\" means that the workloads are in the admission queue.\\n- \
        \\"inadmissible\\" means there was a failed admission attempt for these workloads and they won't be retried \
        until cluster conditions, which could make this workload admissible, change
        kueue_pending_workloads{cluster_queue="a\\"x\\\\y\\nz",status="active"} 1 1767225600
        kueue_pending_workloads{cluster_queue="b",status="active"} 2 1767225600
        kueue_pending_workloads{cluster_queue="b",status="active"} 0 1767225601.5
        kueue_pending_workloads{cluster_queue="b",status="active"} 0 1767225603
        # TYPE kueue_admission_wait_time_seconds histogram
        # UNIT kueue_admission_wait_time_seconds seconds
        # HELP kueue_admission_wait_time_seconds The time between a workload was created or requeued until \
        admission, per 'cluster_queue'
        kueue_admission_wait_time_seconds_bucket{cluster_queue="b",le="1.0"} 1 1767225601.5
        kueue_admission_wait_time_seconds_bucket{cluster_queue="b",le="2.5"} 2 1767225601.5
        kueue_admission_wait_time_seconds_bucket{cluster_queue="b",le="+Inf"} 2 1767225601.5
        kueue_admission_wait_time_seconds_count{cluster_queue="b"} 2 1767225601.5
        kueue_admission_wait_time_seconds_sum{cluster_queue="b"} 2.5 1767225601.5
        kueue_admission_wait_time_seconds_bucket{cluster_queue="b",le="1.0"} 1 1767225603
        kueue_admission_wait_time_seconds_bucket{cluster_queue="b",le="2.5"} 2 1767225603
        kueue_admission_wait_time_seconds_bucket{cluster_queue="b",le="+Inf"} 3 1767225603
        kueue_admission_wait_time_seconds_count{cluster_queue="b"} 3 1767225603
        kueue_admission_wait_time_seconds_sum{cluster_queue="b"} 32.5 1767225603
        # EOF
        """, text);
    try (var left = Files.list(tmp)) {
      assertEquals(List.of(), left.toList(), "the spools are gone");
    }
  }

  @Test
  void aSmallTranspositionBudget_readsTheSpoolPerGroup_withTheSameText() throws IOException {
    String whole = write(scraped(OpenMetricsFile.BUDGET_BYTES));
    for (MetricFamily<?> f : families()) {
      f.clear();
    }
    assertEquals(whole, write(scraped(1)), "one series per pass");
  }

  @Test
  void aLongRun_staysGroupedAndOrdered() throws IOException {
    OpenMetricsFile f = OpenMetricsFile.open(tmp, "m.om", EPOCH, new TreeMap<>(), 1_000_000, 4096);
    for (int t = 0; t < 500; t++) {
      for (int q = 0; q < 20; q++) {
        if ((t + q) % 7 == 0) {
          admitted.inc("q" + q);
          wait.observe((t * 31 + q) % 7, "q" + q);
        }
        pending.set((t * q) % 5, "q" + q, "active");
      }
      f.scrape(t * 60_000L, families());
    }
    checkStructure(write(f));
  }

  /** The rules a reader of OpenMetrics relies on, checked line by line. */
  static void checkStructure(String text) {
    assertTrue(text.endsWith("\n# EOF\n"), "ends with # EOF");
    Set<String> families = new LinkedHashSet<>();
    Set<String> metricsDone = new LinkedHashSet<>();
    String family = null;
    String metric = null;
    Map<String, Double> lastTime = new HashMap<>();
    Map<String, Double> bucket = new HashMap<>();
    for (String line : text.split("\n")) {
      if (line.equals("# EOF")) {
        break;
      }
      if (line.startsWith("# TYPE ")) {
        family = line.split(" ")[2];
        assertTrue(families.add(family), "family " + family + " comes once");
        continue;
      }
      if (line.startsWith("#")) {
        continue;
      }
      String name = line.substring(0, line.indexOf('{') < 0 ? line.indexOf(' ') : line.indexOf('{'));
      assertTrue(name.startsWith(family), name + " in family " + family);
      String labels = line.substring(name.length(), line.lastIndexOf(' ', line.lastIndexOf(' ') - 1));
      String metricKey = family + labels.replaceAll(",?le=\"[^\"]*\"", "").replace("{}", "");
      if (!metricKey.equals(metric)) {
        assertTrue(metricsDone.add(metricKey), "metric " + metricKey + " is not interleaved");
        metric = metricKey;
      }
      double ts = Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
      String series = name + labels;
      Double before = lastTime.put(series, ts);
      assertTrue(before == null || before < ts, "timestamps increase: " + line);
      if (name.endsWith("_bucket")) {
        double v = Double.parseDouble(line.split(" ")[1]);
        String point = metricKey + "@" + ts;
        Double prev = bucket.put(point, v);
        assertTrue(prev == null || prev <= v, "buckets are cumulative: " + line);
      }
    }
  }

  @Test
  void growingPastItsLimit_stopsSpooling_andSaysWhy() throws IOException {
    OpenMetricsFile f = OpenMetricsFile.open(tmp, "m.om", EPOCH, new TreeMap<>(), 5, OpenMetricsFile.BUDGET_BYTES);
    pending.set(1, "a", "active");
    for (int t = 0; t < 5; t++) {
      assertNull(f.overflow());
      f.scrape(t * 1000L, families());
    }
    f.scrape(10_000, families());
    assertNotNull(f.overflow());
    assertTrue(f.full(), "the run stops scraping");
    assertTrue(f.overflow().contains("grew past 5 samples after 6 scrapes"), f.overflow());
    f.scrape(11_000, families());
    assertEquals(6, f.lines(), "nothing more is spooled");
    f.discard();
    try (var left = Files.list(tmp)) {
      assertEquals(List.of(), left.toList());
    }
  }

  @Test
  void runInfo_isAnInfoMetricFirst_atEveryScrape() throws IOException {
    OpenMetricsFile f = OpenMetricsFile.open(tmp, "m.om", EPOCH, new TreeMap<>(Map.of("engine", "kueue")), 100, 1 << 20);
    f.scrape(0, families());
    f.scrape(60_000, families());
    assertEquals("""
        # TYPE batchsim_run info
        # HELP batchsim_run The batchsim run these metrics come from.
        batchsim_run_info{engine="kueue"} 1 1767225600
        batchsim_run_info{engine="kueue"} 1 1767225660
        # EOF
        """, write(f));
  }

  @Test
  void numbersAndTimestamps() {
    assertEquals("3", OpenMetricsText.number(3));
    assertEquals("0", OpenMetricsText.number(-0.0));
    assertEquals("2.5", OpenMetricsText.number(2.5));
    assertEquals("1.0e-4", OpenMetricsText.number(1e-4));
    assertEquals("+Inf", OpenMetricsText.number(Double.POSITIVE_INFINITY));
    assertEquals("NaN", OpenMetricsText.number(Double.NaN));
    assertEquals("1767225600.001", OpenMetricsText.timestamp(EPOCH + 1));
    assertEquals("-1.5", OpenMetricsText.timestamp(-1500));
    assertEquals("40960.0", OpenMetricsText.le(40960));
    assertEquals("0.005", OpenMetricsText.le(0.005));
  }

  /** promtool (Debian package prometheus) reads the file: strict OpenMetrics, and its text-format lint. */
  @Test
  void promtool_acceptsTheFile() throws Exception {
    String promtool = onPath("promtool");
    assumeTrue(promtool != null, "promtool is not on PATH (Debian: apt-get install prometheus); "
        + "bin/check-metrics runs it in CI");
    OpenMetricsFile f = OpenMetricsFile.open(tmp, "m.om", EPOCH, new TreeMap<>(Map.of("engine", "kueue",
        "overrides", "a.b=\"x\"")), 1_000_000, 1 << 20);
    for (int t = 0; t < 200; t++) {
      admitted.inc("q" + t % 3);
      wait.observe(t % 4, "q" + t % 3);
      pending.set(t % 5, "q" + t % 2, "active");
      finished.set(t, "q0");
      finishedTotal.inc("q0");
      f.scrape(t * 30_000L, families());
    }
    Path file = tmp.resolve("metrics.om");
    Files.writeString(file, write(f));
    // OpenMetrics wants family names unique: the counter beside the gauge keeps its whole name, type unknown
    List<String> types = Files.readAllLines(file).stream().filter(l -> l.startsWith("# TYPE ")).toList();
    assertTrue(types.contains("# TYPE kueue_finished_workloads gauge")
        && types.contains("# TYPE kueue_finished_workloads_total unknown")
        && types.contains("# TYPE kueue_admitted_workloads counter"), types.toString());
    assertEquals(types.size(), types.stream().map(l -> l.split(" ")[2]).distinct().count(), "family names unique");
    Process blocks = new ProcessBuilder(promtool, "tsdb", "create-blocks-from", "openmetrics", file.toString(),
        tmp.resolve("tsdb").toString()).redirectErrorStream(true).start();
    String out = new String(blocks.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(blocks.waitFor(120, TimeUnit.SECONDS));
    assertEquals(0, blocks.exitValue(), out);
    // promtool 2.42's lint reads the classic text format: the file converted as bin/check-metrics converts it
    Path text = tmp.resolve("metrics.prom");
    Process convert = new ProcessBuilder("bash", Path.of("..", "bin", "openmetrics-to-text").toString(),
        file.toString()).redirectOutput(text.toFile()).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    assertTrue(convert.waitFor(60, TimeUnit.SECONDS));
    assertEquals(0, convert.exitValue());
    Process lint = new ProcessBuilder(promtool, "check", "metrics").redirectInput(text.toFile())
        .redirectErrorStream(true).start();
    String problems = new String(lint.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(lint.waitFor(60, TimeUnit.SECONDS));
    assertEquals(0, lint.exitValue(), problems);
  }

  private static String onPath(String tool) {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      Path p = Path.of(dir, tool);
      if (Files.isExecutable(p)) {
        return p.toString();
      }
    }
    return null;
  }
}
