package batchsim.reports;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.core.metrics.MetricSamples;
import batchsim.core.metrics.QueueStats;
import batchsim.core.metrics.RunResult;
import batchsim.core.metrics.TimeSeries;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** Many queues, coinciding series, layout and the engine's words: what makes report.html readable. */
class ReadableChartsTest {
  private static final Pattern LEGEND = Pattern.compile("--c:(#[0-9a-fA-F]{6})\"></i>([^<]*)</button>");

  @Test
  void upToSevenSeriesAreDrawnEachInItsOwnColour() {
    Set<String> colours = new HashSet<>();
    for (int i = 0; i < Palette.SERIES.length; i++) {
      colours.add(Palette.color(i).toLowerCase());
    }
    assertEquals(Palette.SERIES.length, colours.size());
    assertFalse(colours.contains(Palette.REST.toLowerCase()));
    assertFalse(colours.contains(Palette.OVERALL.toLowerCase()));
    Palette.Selection all = Palette.top(new double[] {1, 5, 3, 2, 4, 6, 0});
    assertEquals(List.of(0, 1, 2, 3, 4, 5, 6), all.shown());
    assertTrue(all.rest().isEmpty());
  }

  @Test
  void beyondThePaletteTheMostRelevantAreKeptInTheirOrderAndTheRestAggregated() {
    double[] relevance = new double[30];
    for (int i = 0; i < 30; i++) {
      relevance[i] = i % 10 == 3 ? 100 + i : i % 7; // queues 3, 13, 23 dominate
    }
    Palette.Selection sel = Palette.top(relevance);
    assertEquals(Palette.SERIES.length, sel.shown().size());
    assertEquals(30 - Palette.SERIES.length, sel.rest().size());
    assertTrue(sel.shown().containsAll(List.of(3, 13, 23)));
    assertEquals(sel.shown().stream().sorted().toList(), sel.shown()); // legend order = series order
    assertEquals("rest: 23 queues", sel.restLabel("queue"));

    List<long[]> rows = List.of(new long[] {1, 2, 3, 4}, new long[] {0, 10, 20, 30});
    assertArrayEquals(new double[] {5, 30}, ReportCharts.sum(rows, List.of(1, 2)));
    assertArrayEquals(new double[] {4, 30}, ReportCharts.max(rows, List.of(0, 3)));

    List<Histogram> hs = List.of(hist(1, 2), hist(3), hist(4, 5, 6));
    Histogram merged = PercentileCharts.merged(hs, List.of(0, 2));
    assertEquals(5, merged.getTotalCount());
    assertEquals(6, merged.getMaxValue(), 0.01 * 6 + 1);
  }

  @Test
  void thirtyQueuesGiveEightDistinctLinesPerChartWithTheRestSummed() {
    RunResult r = manyQueues(30, RunResult.KUEUE);
    String html = HtmlReport.render(r, Fixtures.META, null);
    String pending = figure(html, "Pending workloads");
    List<String[]> legend = legend(pending);
    assertEquals(Palette.SERIES.length + 1, legend.size());
    Set<String> colours = new HashSet<>();
    legend.forEach(k -> colours.add(k[0]));
    assertEquals(legend.size(), colours.size());
    assertEquals("rest: 23 queues (sum)", legend.get(legend.size() - 1)[1]);
    assertEquals(Palette.REST, legend.get(legend.size() - 1)[0]);
    // queue qN has N pending in every sample: the seven largest are q23..q29, the rest sum to 0+...+22
    for (int q = 23; q < 30; q++) {
      assertTrue(pending.contains("data-name=\"q" + q + "\""), "q" + q);
    }
    assertFalse(pending.contains("data-name=\"q22\""));
    String waits = figure(html, "Time to reservation, by ClusterQueue");
    assertTrue(waits.contains("rest: 23 queues (n=" + (22 * 23 / 2) + ")"), waits);
    // lines are layered: the first drawn is widest, so a coinciding later line leaves it visible
    Matcher widths = Pattern.compile("style=\"stroke-width:([0-9.]+)\"").matcher(pending);
    double last = Double.MAX_VALUE;
    int n = 0;
    while (widths.find()) {
      double w = Double.parseDouble(widths.group(1));
      assertTrue(w < last, "widths decrease in draw order");
      last = w;
      n++;
    }
    assertEquals(8, n);
  }

  @Test
  void halfWidthChartsAreNeverStretchedToTheFullRow() throws IOException {
    String html = HtmlReport.render(Fixtures.resultWithSeries(), Fixtures.META, null);
    // the provisioning-free fixture has one flavor chart alone in its row of the utilization grid
    assertTrue(html.contains("<figure class=\"chart narrow\""));
    assertTrue(html.contains("<figure class=\"chart\" id=\"")); // the wide "All nodes" chart
    String css = resource("report.css");
    assertTrue(css.contains(".grid2 { display: grid; grid-template-columns: repeat(2, minmax(0, 1fr));"));
    assertFalse(css.contains("auto-fit"), "auto-fit stretches a lone item over the row");
    assertTrue(css.contains("figure.chart.narrow { max-width: 600px; }"));
    // wide tables scroll in their box with the name column kept
    assertTrue(css.contains(".table th:first-child, .table td:first-child { position: sticky; left: 0;"));
    String many = HtmlReport.render(manyQueues(30, RunResult.KUEUE), Fixtures.META, null);
    assertTrue(many.contains("<div class=\"table long\">"));
  }

  @Test
  void volcanoRunsAreLabelledInVolcanosWords() {
    String volcano = HtmlReport.render(manyQueues(3, RunResult.VOLCANO), Fixtures.META, null);
    String kueue = HtmlReport.render(manyQueues(3, RunResult.KUEUE), Fixtures.META, null);
    assertFalse(volcano.contains("ClusterQueue"), "no Kueue words under Volcano");
    assertFalse(volcano.contains("quota reserved"));
    assertFalse(volcano.contains("nominal"));
    assertTrue(volcano.contains("<th>Queue</th>"));
    assertTrue(volcano.contains("Time to gang bound, by Queue"));
    assertFalse(volcano.contains("Time to reservation"));
    assertTrue(volcano.contains("<h3>Inqueue PodGroups</h3>"));
    assertTrue(volcano.contains("Usage vs deserved"));
    assertTrue(kueue.contains("<th>ClusterQueue</th>"));
    assertTrue(kueue.contains("Quota usage"));
    assertFalse(kueue.contains("PodGroup"));
  }

  @Test
  void withManyQueuesOnlyTheSevenWithTheHighestPeakUsageAreOpen() {
    RunResult base = manyQueues(10, RunResult.KUEUE);
    List<String> columns = new ArrayList<>(base.timeSeries().columns());
    List<batchsim.core.metrics.QueueUsageStat> usage = new ArrayList<>();
    for (int q = 0; q < 10; q++) {
      columns.add("used:q" + q + ":f:cpu");
      usage.add(new batchsim.core.metrics.QueueUsageStat("q" + q, "f", "cpu", 1000, 500, 0.5, 0,
          100L * (q + 1))); // q9 peaks highest
    }
    List<long[]> rows = new ArrayList<>();
    for (long[] row : base.timeSeries().rows()) {
      long[] wide = java.util.Arrays.copyOf(row, columns.size());
      for (int q = 0; q < 10; q++) {
        wide[row.length + q] = 100L * (q + 1);
      }
      rows.add(wide);
    }
    RunResult r = new RunResult(base.scenarioName(), base.seed(), base.horizonMs(), base.endTimeMs(),
        base.events(), base.resources(), List.of(), base.overall(), base.queues(), base.utilization(), usage, 0,
        new TimeSeries(columns, base.timeSeries().timesMs(), rows), null, List.of(), List.of(), List.of(),
        null, null, null, MetricSamples.EMPTY, RunResult.KUEUE);
    String html = HtmlReport.render(r, Fixtures.META, null);
    for (int q = 0; q < 10; q++) {
      String open = (q >= 3 ? "<details open><summary>" : "<details><summary>") + "q" + q + " ";
      assertTrue(html.contains(open), open);
    }
    assertTrue(html.contains("peak 100.0% of nominal"));
    assertTrue(html.contains("3 more ClusterQueues with a lower peak against nominal are collapsed"));
  }

  /** {@code n} queues q0..q(n-1); qN has N workloads waiting N ms, and N pending in every sample. */
  static RunResult manyQueues(int n, String engine) {
    RunResult base = Fixtures.resultWithSeries();
    List<QueueStats> queues = new ArrayList<>();
    List<String> columns = new ArrayList<>();
    for (int q = 0; q < n; q++) {
      long[] waits = new long[q];
      java.util.Arrays.fill(waits, q + 1L);
      queues.add(new QueueStats("q" + q, hist(waits), hist(waits), hist(), q, q, q, 0, 0, 0, 0, 0));
    }
    for (String kind : List.of("pending", "holding", "inqueue")) {
      for (int q = 0; q < n; q++) {
        columns.add(kind + ":q" + q);
      }
    }
    List<Long> times = new ArrayList<>();
    List<long[]> rows = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      times.add(i * 60_000L);
      long[] row = new long[columns.size()];
      for (int j = 0; j < row.length; j++) {
        row[j] = j % n;
      }
      rows.add(row);
    }
    TimeSeries ts = new TimeSeries(columns, times, rows);
    return new RunResult("many", 1, base.horizonMs(), 600_000, 1, base.resources(), List.of(),
        base.overall(), queues, base.utilization(), List.of(), 0, ts, null, List.of(), List.of(), List.of(),
        null, null, null, MetricSamples.EMPTY, engine);
  }

  private static Histogram hist(long... values) {
    Histogram h = new Histogram(3);
    for (long v : values) {
      h.recordValue(v);
    }
    return h;
  }

  private static String figure(String html, String title) {
    int at = html.indexOf("<h3>" + title + "</h3>");
    assertTrue(at > 0, title);
    return html.substring(at, html.indexOf("</figure>", at));
  }

  private static List<String[]> legend(String figure) {
    List<String[]> out = new ArrayList<>();
    Matcher m = LEGEND.matcher(figure);
    while (m.find()) {
      out.add(new String[] {m.group(1), m.group(2)});
    }
    return out;
  }

  private static String resource(String name) throws IOException {
    try (InputStream in = HtmlReport.class.getResourceAsStream(name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
