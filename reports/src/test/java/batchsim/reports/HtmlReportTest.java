package batchsim.reports;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.core.metrics.QueueUsageStat;
import batchsim.core.metrics.RunResult;
import batchsim.core.metrics.TimeSeries;
import batchsim.core.metrics.WorkloadRecord;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TimeZone;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HtmlReportTest {
  private static final Pattern POLYLINE = Pattern.compile("<polyline [^>]*points=\"([^\"]*)\"");

  @TempDir Path tmp;

  private static String render(RunResult r) {
    return HtmlReport.render(r, Fixtures.META, "ab".repeat(32));
  }

  private static int count(String s, String needle) {
    int n = 0;
    for (int i = s.indexOf(needle); i >= 0; i = s.indexOf(needle, i + 1)) {
      n++;
    }
    return n;
  }

  @Test
  void writeAllWritesTheReport() throws IOException {
    Reports.writeAll(Fixtures.resultWithSeries(), Fixtures.META, tmp);
    String html = Files.readString(tmp.resolve(Reports.REPORT_HTML), StandardCharsets.UTF_8);
    assertTrue(html.startsWith("<!DOCTYPE html>\n<html lang=\"en\">\n"), html.substring(0, 40));
    assertTrue(html.endsWith("</html>\n"));
    assertTrue(Files.size(tmp.resolve(Reports.WAITS_HLOG)) > 0);
  }

  @Test
  void headerSectionsAndTables() {
    String html = render(Fixtures.resultWithSeries());
    assertTrue(html.contains("<title>demo · batchsim report</title>"));
    assertTrue(html.contains("<h1>demo</h1>"));
    assertTrue(html.contains("<code>examples/demo.yaml</code>"));
    assertTrue(html.contains(Fixtures.META.scenarioHash()));
    assertTrue(html.contains("<dt>Seed</dt><dd>42</dd>"));
    assertTrue(html.contains("<dt>Simulated span</dt><dd>2h <span class=\"muted\">(horizon 3h)"));
    assertTrue(html.contains("<dt>Events</dt><dd>123,456</dd>"));
    assertTrue(html.contains("batchsim 0.1.0-test"));
    assertTrue(html.contains("10 <span class=\"muted\">every 1m</span>"), "samples");
    assertTrue(html.contains("arrivals went to unknown LocalQueues"));
    for (String id : List.of("workloads", "waits", "utilization", "quota", "queues", "preemption")) {
      assertTrue(html.contains("<section id=\"" + id + "\">"), id);
    }
    // counts, wait percentiles, utilization and quota rows
    assertTrue(html.contains("<tr><td>team-a</td><td class=\"n\">10</td><td class=\"n\">9</td>"));
    assertTrue(html.contains("<td>All queues</td><td class=\"n\">12</td>"));
    assertTrue(html.contains("<td class=\"n\">500ms</td><td class=\"n\">900ms</td>"), "rsv p50, p90");
    assertTrue(html.contains("19.3%"));
    assertTrue(html.contains("<td>priority 100</td>"));
    assertTrue(html.contains("<td>train</td>"));
  }

  @Test
  void chartsAreDrawn() {
    String html = render(Fixtures.resultWithSeries());
    for (String title : List.of("Time to reservation, by ClusterQueue",
        "Time to start, by ClusterQueue", "Time to reservation, by priority",
        "Time to reservation, by workload class", "Flavor default", "Pending workloads",
        "Workloads holding quota", "Evictions over time")) {
      assertTrue(html.contains("<h3>" + title + "</h3>"), title);
    }
    int figures = count(html, "<figure class=\"chart");
    assertEquals(figures, count(html, "<svg "));
    assertTrue(html.contains("<body data-charts=\"" + figures + "\">"));
    assertEquals(11, figures); // 4 waits, 2 flavors, 2 quota (team-a cpu, team-b gpu), 2 queues, 1 evictions
    assertTrue(count(html, "<polyline ") >= 10);
    // team-a's cpu goes above its nominal: a borrowed band exists, and the nominal line is dashed
    assertTrue(html.contains("<path class=\"band\" data-s=\"1\""), "borrowed band");
    assertTrue(html.contains("class=\"ln dash\" data-s=\"2\" data-name=\"nominal\""));
    assertTrue(html.contains("<rect class=\"bar\""), "eviction bars");
    // evictions are placed by the cumulative columns (2m buckets): 1 other eviction in (1m, 2m], 2
    // preemptions in (6m, 7m]
    assertTrue(html.contains("<title>0s–2m: 0 preemptions, 1 other evictions</title>"), "bucket 0-2m");
    assertTrue(html.contains("<title>6m–8m: 2 preemptions, 0 other evictions</title>"), "bucket 6m-8m");
    assertEquals(2, count(html, "<rect class=\"bar\""));
    assertTrue(html.contains("<script>") && html.contains("data-rendered"));
    assertFalse(html.contains("No time series"));
    assertTrue(html.contains("allocated ÷ capacity at each sample (÷ mean capacity where capacity was "
        + "not sampled)"), "cpu capacity is sampled, memory capacity is not");
  }

  @Test
  void selfContained() {
    String html = render(Fixtures.resultWithSeries());
    assertFalse(html.contains("://"), "no URLs: nothing is fetched");
    assertFalse(html.contains("<link"));
    assertFalse(html.contains("<script src"));
    assertFalse(html.contains("<img"));
  }

  @Test
  void withoutTimeSeriesThePageSaysSo() {
    String html = render(Fixtures.result(10_800_000));
    assertEquals(3, count(html, "<b>No time series.</b>"));
    assertFalse(html.contains("<h3>Pending workloads</h3>"));
    assertFalse(html.contains("<h3>Flavor default</h3>"));
    assertTrue(html.contains("<h3>Time to reservation, by ClusterQueue</h3>"));
    assertFalse(html.contains("timeseries.csv"), "no link to a file that was not written");
  }

  @Test
  void namesAreEscaped() {
    String evil = "<img src=x onerror=alert(1)>&\"'";
    RunResult r = Fixtures.result(10_800_000, evil, Fixtures.series(evil, 10));
    String html = HtmlReport.render(r, new RunMetadata("<b>f.yaml</b>", null, "<i>v</i>"), null);
    assertFalse(html.contains("<img"), "raw markup from a name");
    assertFalse(html.contains("<b>f.yaml"));
    assertFalse(html.contains("<i>v</i>"));
    assertTrue(html.contains("&lt;img src=x onerror=alert(1)&gt;&amp;&quot;&#39;"));
    assertTrue(html.contains("data-name=\"&lt;img src=x onerror=alert(1)&gt;&amp;&quot;&#39;\""));
    assertTrue(html.contains("&lt;b&gt;f.yaml&lt;/b&gt;"));
  }

  @Test
  void byteIdenticalAcrossWritesLocalesAndTimeZones() throws IOException {
    Path a = Files.createDirectory(tmp.resolve("a"));
    Path b = Files.createDirectory(tmp.resolve("b"));
    Reports.writeAll(Fixtures.resultWithSeries(), Fixtures.META, a);
    Locale locale = Locale.getDefault();
    TimeZone zone = TimeZone.getDefault();
    try {
      Locale.setDefault(Locale.GERMANY); // decimal commas would show up in coordinates
      TimeZone.setDefault(TimeZone.getTimeZone("Asia/Kolkata"));
      Reports.writeAll(Fixtures.resultWithSeries(), Fixtures.META, b);
    } finally {
      Locale.setDefault(locale);
      TimeZone.setDefault(zone);
    }
    for (String f : List.of(Reports.REPORT_HTML, Reports.WAITS_HLOG)) {
      assertArrayEquals(Files.readAllBytes(a.resolve(f)), Files.readAllBytes(b.resolve(f)), f);
    }
  }

  @Test
  void longSeriesAreBoundedAndKeepTheirPeaks() {
    int samples = 200_000;
    TimeSeries ts = Fixtures.series("team-a", samples);
    // one spike in pending:team-a that a naive stride would miss
    ts.rows().get(123_457)[0] = 1_000;
    RunResult r = Fixtures.result(SimulationHorizon.NONE, "team-a", ts);
    String html = render(r);
    Matcher m = POLYLINE.matcher(html);
    int lines = 0;
    while (m.find()) {
      lines++;
      int points = m.group(1).split(" ").length;
      assertTrue(points <= Downsample.MAX_POINTS, "points " + points);
    }
    assertTrue(lines > 5);
    assertTrue(html.contains("<h3>Pending workloads</h3>"));
    // the spike sets the pending axis: 1,000 workloads
    assertTrue(html.contains(">1,000</text>"), "peak survived into the axis and line");
    assertTrue(html.length() < 1_000_000, "page size " + html.length());
  }

  @Test
  void manyQueuesShareThePagePointBudget() {
    int queues = 200;
    int samples = 3_000;
    List<String> columns = new ArrayList<>();
    List<QueueUsageStat> usage = new ArrayList<>();
    for (int q = 0; q < queues; q++) {
      columns.add("pending:q" + q);
      columns.add("holding:q" + q);
      columns.add("used:q" + q + ":default:cpu");
      usage.add(new QueueUsageStat("q" + q, "default", "cpu", 5_000, 1, 1, 1, 9_000));
    }
    java.util.SplittableRandom rnd = new java.util.SplittableRandom(1);
    List<Long> times = new ArrayList<>();
    List<long[]> rows = new ArrayList<>();
    for (int i = 0; i < samples; i++) {
      times.add(i * 1_000L);
      long[] row = new long[columns.size()];
      for (int j = 0; j < row.length; j++) {
        row[j] = rnd.nextInt(10_000); // noise: the worst case for downsampling
      }
      rows.add(row);
    }
    RunResult base = Fixtures.result(10_800_000);
    RunResult r = new RunResult("many", 1, base.horizonMs(), samples * 1_000L, 1, base.resources(),
        base.workloads(), base.overall(), base.queues(), base.utilization(), usage, 0,
        new TimeSeries(columns, times, rows));
    String html = render(r);
    int perLine = ReportCharts.PAGE_POINTS / (queues * 5);
    Matcher m = POLYLINE.matcher(html);
    while (m.find()) {
      int points = m.group(1).split(" ").length;
      assertTrue(points <= Math.max(perLine, 201), "points " + points); // 201: percentile curves
    }
    assertEquals(Palette.SERIES.length, count(html, "<details open><summary>q")); // the rest collapsed
    assertEquals(queues, count(html, "<details open><summary>q") + count(html, "<details><summary>q"));
    assertTrue(html.length() < 8_000_000, "page size " + html.length());
  }

  @Test
  void manyPrioritiesAndClassesAreCapped() {
    RunResult base = Fixtures.result(10_800_000);
    List<WorkloadRecord> many = new ArrayList<>();
    for (int i = 0; i < 5_000; i++) {
      many.add(new WorkloadRecord("w" + i, "class-" + (i % 1_000), "lq-a", "team-a", i % 700,
          i, i + 10 + i % 97, i + 10, i + 10, i + 20, WorkloadRecord.NEVER, i % 3, i % 2,
          "Running", "", ""));
    }
    RunResult r = new RunResult(base.scenarioName(), base.seed(), base.horizonMs(),
        base.endTimeMs(), base.events(), base.resources(), many, base.overall(), base.queues(),
        base.utilization(), base.queueUsage(), 0, TimeSeries.EMPTY);
    String html = render(r);
    assertTrue(html.contains("690 smaller groups with 4,920 workloads are not shown."), "priorities");
    assertTrue(html.contains("990 smaller groups with 4,950 workloads are not shown."), "classes");
    assertTrue(count(html, "<td>priority ") <= HtmlReport.GROUP_LIMIT);
  }

  private static final List<String> OPTIONAL = List.of("preemption", "fairsharing", "nodes", "topology",
      "provisioning", "serving");

  @Test
  void optionalSectionsAppearOnlyWithTheirData() {
    String rich = render(Fixtures.resultWithEverything());
    for (String id : OPTIONAL) {
      assertTrue(rich.contains("<section id=\"" + id + "\">"), id);
      assertTrue(rich.contains("<a href=\"#" + id + "\">"), "toc link " + id);
    }
    // no samples, no preemption statistics: none of them
    String bare = render(Fixtures.result(10_800_000));
    for (String id : OPTIONAL) {
      assertFalse(bare.contains("<section id=\"" + id + "\">"), id);
      assertFalse(bare.contains("<a href=\"#" + id + "\">"), "toc link " + id);
    }
    // samples with evictions but zero shares, steady nodes and no TAS, provisioning or serving
    String plain = render(Fixtures.resultWithSeries());
    assertTrue(plain.contains("<section id=\"preemption\">"));
    assertFalse(plain.contains("<h3 class=\"sub\">By ClusterQueue</h3>\n<div class=\"table\"><table>\n"
        + "<thead><tr><th>ClusterQueue</th><th>Preemption reasons</th>"), "no stats, no table");
    for (String id : OPTIONAL.subList(1, OPTIONAL.size())) {
      assertFalse(plain.contains("<section id=\"" + id + "\">"), id);
    }
  }

  @Test
  void preemptionTableAndTimeline() {
    String html = render(Fixtures.resultWithEverything());
    String sec = section(html, "preemption");
    assertTrue(sec.contains("<h3>Evictions over time</h3>"));
    assertEquals(2, count(sec, "<rect class=\"bar\""));
    assertTrue(sec.contains("<th>ClusterQueue</th><th>Preemption reasons</th><th class=\"n\">Evictions</th>"
        + "<th class=\"n\">PodsReadyTimeout</th><th class=\"n\">Preempted</th><th class=\"n\">Requeues"
        + "</th><th class=\"n\">Readmit p50</th><th class=\"n\">Readmit p95</th><th class=\"n\">Lost "
        + "core-h</th><th class=\"n\">Lost GPU-h</th></tr>"), "reason and lost-resource columns");
    assertFalse(sec.contains("GiB-h"), "memory is left out");
    assertTrue(sec.contains("<tr><td>team-a</td><td>InClusterQueue 1 · InCohortReclamation 1</td>"
        + "<td class=\"n\">3</td><td class=\"n\">1</td><td class=\"n\">2</td><td class=\"n\">3</td>"
        + "<td class=\"n\">4m00s</td><td class=\"n\">6m00s</td><td class=\"n\">3.00</td>"
        + "<td class=\"n\">1.50</td></tr>"), "team-a row");
    assertFalse(sec.contains("<td>team-b</td>"), "queues without evictions are left out");
    assertTrue(sec.contains("<td>All queues</td>"));
  }

  @Test
  void fairSharingChart() {
    String sec = section(render(Fixtures.resultWithEverything()), "fairsharing");
    assertTrue(sec.contains("<h3>Fair-sharing share, by ClusterQueue</h3>"));
    assertTrue(sec.contains("data-name=\"team-a\"") && sec.contains("data-name=\"team-b\""));
    assertTrue(sec.contains("infinite shares (weight 0) drawn at the top"));
    assertTrue(sec.contains(">1,000</text>"), "the infinite share is capped at 1,000 per mille");
  }

  @Test
  void nodesChartsAndTable() {
    String sec = section(render(Fixtures.resultWithEverything()), "nodes");
    assertTrue(sec.contains("<h3>Nodes present</h3>") && sec.contains("<h3>Failed nodes</h3>"));
    assertTrue(sec.contains("data-name=\"gpu\""));
    assertTrue(sec.contains("<tr><td>cpu</td><td class=\"n\">6</td><td class=\"n\">12.0</td>"
        + "<td class=\"n\">3</td><td class=\"n\">0.1</td><td class=\"n\">7</td></tr>"), "cpu pool");
    // failures without samples: the table, and a notice instead of the charts
    RunResult e = Fixtures.resultWithEverything();
    RunResult noSamples = new RunResult(e.scenarioName(), e.seed(), e.horizonMs(), e.endTimeMs(),
        e.events(), e.resources(), e.workloads(), e.overall(), e.queues(), e.utilization(),
        e.queueUsage(), 0, TimeSeries.EMPTY, e.preemptionOverall(), e.preemption(), e.pools(),
        List.of(), null, null, null);
    String bare = section(render(noSamples), "nodes");
    assertTrue(bare.contains("<b>No time series.</b>"));
    assertTrue(bare.contains("<td>gpu</td>"));
    assertFalse(bare.contains("<figure"));
  }

  @Test
  void topologyFiguresAndCharts() {
    String sec = section(render(Fixtures.resultWithEverything()), "topology");
    assertTrue(sec.contains("<h3>Node repairs</h3><div class=\"v\">4</div>"));
    assertTrue(sec.contains("<h3>NodeFailures evictions</h3><div class=\"v\">2</div>"));
    assertTrue(sec.contains("<tr><td>TAS</td><td class=\"n\">3</td><td class=\"n\">2.0s</td>"), "TAS row");
    assertTrue(sec.contains("<tr><td>non-TAS</td><td class=\"n\">1</td>"));
    assertTrue(sec.contains("<h3>Free domains · tas-gpu</h3>"));
    assertTrue(sec.contains("<h3>Largest fit · tas-gpu</h3>"));
    assertTrue(sec.contains("data-name=\"block\"") && sec.contains("data-name=\"rack\""));
    assertFalse(sec.contains("data-name=\"b0\""), "per-domain usage is not drawn");
  }

  @Test
  void provisioningTableAndCurves() {
    String sec = section(render(Fixtures.resultWithEverything()), "provisioning");
    assertTrue(sec.contains("<tr><td class=\"n\">7</td><td class=\"n\">1m30s</td>"), "requests, p50");
    assertTrue(sec.contains("<h3>Provisioning</h3>"));
    assertTrue(sec.contains("data-name=\"request → Provisioned (n=3)\""));
    assertTrue(sec.contains("data-name=\"check wait (n=2)\""));
  }

  @Test
  void servingTable() {
    String sec = section(render(Fixtures.resultWithEverything()), "serving");
    assertTrue(sec.contains("<tr><td>llm-&lt;a&gt;</td><td class=\"n\">12</td><td class=\"n\">11</td>"
        + "<td class=\"n\">13</td><td class=\"n\">2</td><td class=\"n\">1</td></tr>"));
  }

  @Test
  void everythingIsDeterministicAndCounted() throws IOException {
    String a = render(Fixtures.resultWithEverything());
    Locale locale = Locale.getDefault();
    try {
      Locale.setDefault(Locale.GERMANY);
      assertEquals(a, render(Fixtures.resultWithEverything()));
    } finally {
      Locale.setDefault(locale);
    }
    int figures = count(a, "<figure class=\"chart");
    assertEquals(figures, count(a, "<svg "));
    assertTrue(a.contains("<body data-charts=\"" + figures + "\">"));
    assertEquals(11 + 1 + 2 + 2 + 1, figures); // + shares, nodes, TAS free/fit, provisioning
    assertFalse(a.contains("://"));
  }

  /** The text of one section, from its opening tag to its end. */
  private static String section(String html, String id) {
    int from = html.indexOf("<section id=\"" + id + "\">");
    assertTrue(from >= 0, "section " + id);
    return html.substring(from, html.indexOf("</section>\n<section", from) < 0
        ? html.indexOf("</main>", from) : html.indexOf("</section>\n<section", from));
  }

  /** A spelled-out name for SimulationSpec.NO_HORIZON in these tests. */
  private static final class SimulationHorizon {
    static final long NONE = batchsim.core.model.SimulationSpec.NO_HORIZON;
  }
}
