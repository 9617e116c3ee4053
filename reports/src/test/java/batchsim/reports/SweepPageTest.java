package batchsim.reports;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SweepPageTest {
  private static final List<SweepPage.Metric> METRICS = List.of(
      new SweepPage.Metric("p95(wait)", SweepPage.Scale.DURATION_MS),
      new SweepPage.Metric("utilization(cpu)", SweepPage.Scale.RATIO),
      new SweepPage.Metric("count(preemptions)", SweepPage.Scale.NUMBER));

  /** gpu ∈ {48, 64, 96} × fairSharing ∈ {off, on} × 2 replicas. */
  private static SweepPage.Sweep sweep() {
    List<SweepPage.Run> runs = new ArrayList<>();
    List<List<String>> table = new ArrayList<>();
    for (String gpu : List.of("48", "64", "96")) {
      for (String fs : List.of("off", "on")) {
        table.add(List.of(gpu, fs, "2", "1h", "50%", "3"));
        for (int seed = 42; seed <= 43; seed++) {
          String name = "gpu=" + gpu + ",fairSharing=" + fs + ",seed=" + seed;
          double v = Integer.parseInt(gpu) + seed;
          runs.add(new SweepPage.Run(name, List.of(gpu, fs), new double[] {v * 60_000, v / 200,
              seed == 42 ? Double.NaN : v}, "cells/" + name));
        }
      }
    }
    return new SweepPage.Sweep("sweep <demo>", "12 runs", List.of("gpu", "fairSharing"), METRICS, runs,
        List.of("gpu", "fairSharing", "runs", "p95(wait)", "utilization(cpu)", "count(preemptions)"),
        table, 2);
  }

  @Test
  void everyMetricIsDrawnAgainstEverySweptParameterWithItsReplicas() {
    byte[] a = SweepPage.render(sweep());
    assertArrayEquals(a, SweepPage.render(sweep()), "deterministic");
    String html = new String(a, StandardCharsets.UTF_8);
    int figures = count(html, "<figure class=\"chart");
    assertEquals(METRICS.size() * 2, figures);
    assertTrue(html.contains("<body data-charts=\"" + figures + "\">"));
    for (SweepPage.Metric m : METRICS) {
      int at = html.indexOf("<h3 class=\"sub\">" + m.name() + "</h3>");
      assertTrue(at > 0, m.name());
      String block = html.substring(at, html.indexOf("</div>\n<h3", at) > 0 ? html.indexOf("</div>\n<h3", at)
          : html.indexOf("</section>", at));
      assertTrue(block.contains("<h3>against gpu</h3>"), m.name() + " against gpu");
      assertTrue(block.contains("<h3>against fairSharing</h3>"), m.name() + " against fairSharing");
    }
    // against gpu: a line per fairSharing level, x labels are gpu's levels in matrix order
    assertTrue(html.contains("data-name=\"fairSharing=off\"") && html.contains("data-name=\"fairSharing=on\""));
    assertTrue(html.contains("data-xc=\"48|64|96\"") && html.contains("data-xc=\"off|on\""));
    // every replica with a value is a dot in each of its metric's two charts (count has one per pair)
    assertEquals(2 * (12 + 12 + 6), count(html, "<circle class=\"dot\""));
    assertTrue(html.contains("<title>gpu=48,fairSharing=off,seed=43: 1h31m</title>"), "replica tooltip");
    // replica spread: a range bar wherever two replicas differ (the count metric has one replica each)
    assertEquals(2 * (6 + 6), count(html, "<line class=\"range\""));
    // the comparison table and every run linked to its report
    assertTrue(html.contains("<th>fairSharing</th>"));
    assertTrue(html.contains("<a href=\"cells/gpu=96,fairSharing=on,seed=43/report.html\">"));
    assertTrue(html.contains("sweep &lt;demo&gt;"));
    assertFalse(html.contains("://"));
  }

  @Test
  void aSweepOfReplicasOnlyHasNoChartsButItsTable() {
    SweepPage.Sweep s = sweep();
    List<SweepPage.Run> runs = new ArrayList<>();
    s.runs().forEach(r -> runs.add(new SweepPage.Run(r.name(), List.of(), r.values(), r.dir())));
    String html = new String(SweepPage.render(new SweepPage.Sweep("t", "i", List.of(), METRICS, runs,
        List.of("configuration", "runs"), List.of(List.of("base", "12")), 1)), StandardCharsets.UTF_8);
    assertTrue(html.contains("<body data-charts=\"0\">"));
    assertTrue(html.contains("Nothing is swept"));
    assertTrue(html.contains("<td>base</td>"));
  }

  private static int count(String s, String needle) {
    int n = 0;
    for (int i = s.indexOf(needle); i >= 0; i = s.indexOf(needle, i + 1)) {
      n++;
    }
    return n;
  }
}
