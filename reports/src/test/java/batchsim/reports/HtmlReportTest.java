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
    for (String id : List.of("workloads", "waits", "utilization", "quota", "queues", "evictions")) {
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
    int figures = count(html, "<figure class=\"chart\"");
    assertEquals(figures, count(html, "<svg "));
    assertTrue(html.contains("<body data-charts=\"" + figures + "\">"));
    assertEquals(11, figures); // 4 waits, 2 flavors, 2 quota (team-a cpu, team-b gpu), 2 queues, 1 evictions
    assertTrue(count(html, "<polyline ") >= 10);
    // team-a's cpu goes above its nominal: a borrowed band exists, and the nominal line is dashed
    assertTrue(html.contains("<path class=\"band\" data-s=\"1\""), "borrowed band");
    assertTrue(html.contains("class=\"ln dash\" data-s=\"2\" data-name=\"nominal\""));
    assertTrue(html.contains("<rect class=\"bar\""), "eviction bars");
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
    assertEquals(queues, count(html, "<details open><summary>q"));
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

  /** A spelled-out name for SimulationSpec.NO_HORIZON in these tests. */
  private static final class SimulationHorizon {
    static final long NONE = batchsim.core.model.SimulationSpec.NO_HORIZON;
  }
}
