package batchsim.core.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.core.metrics.MetricFamily;
import batchsim.core.metrics.MetricSample;
import batchsim.core.metrics.RunResult;
import batchsim.core.model.KueueConfig;
import batchsim.core.model.PreemptionPolicy;
import batchsim.core.model.PreemptionSpec;
import batchsim.core.model.QuotaSpec;
import batchsim.core.model.SimulationSpec;
import batchsim.core.world.MetricsSink;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Scraping the metric model for --metrics changes nothing in the run and reads what its samples read. */
class MetricScrapesTest {
  private static final long NO = QuotaSpec.UNLIMITED;

  private static SimulationSpec contended(long horizon) {
    PreemptionSpec p = new PreemptionSpec(PreemptionPolicy.LOWER_PRIORITY, PreemptionPolicy.ANY,
        PreemptionPolicy.NEVER, null);
    Specs s = new Specs().pool("gpu", 2, 64_000, 8).flavor("a100", "gpu")
        .gpuQueue("team-a", "org", "a100", 8, NO, NO, p)
        .gpuQueue("team-b", "org", "a100", 8, NO, NO, p);
    for (int i = 0; i < 60; i++) {
      s.job("j" + i, i % 3 == 0 ? "team-b" : "team-a", i * 60_000L, (i * 7) % 4, 1 + i % 2, 4, 300_000 + (i % 5) * 60_000L);
    }
    s.kueue = new KueueConfig(false, KueueConfig.DEFAULT_STRATEGIES, 0, 1_000, 5_000, true, true);
    s.sampleInterval = 60_000;
    s.horizon = horizon;
    return s.build();
  }

  /** Every scrape as the snapshot's text names would have it (scalars, and histograms' _count). */
  private static final class Recorded {
    final List<Long> times = new ArrayList<>();
    final List<SortedMap<String, Double>> values = new ArrayList<>();

    void scrape(long t, List<MetricFamily<?>> families) {
      SortedMap<String, Double> m = new TreeMap<>();
      for (MetricFamily<?> f : families) {
        f.read(new MetricFamily.SeriesReader() {
          @Override
          public void scalar(List<String> labelValues, double value) {
            m.put(name(f.name(), f.labelText(labelValues)), value);
          }

          @Override
          public void histogram(List<String> labelValues, long[] buckets, long count, double sum) {
            m.put(name(f.name() + "_count", f.labelText(labelValues)), (double) count);
          }
        });
      }
      times.add(t);
      values.add(m);
    }

    static String name(String n, String labels) {
      return labels.isEmpty() ? n : n + "{" + labels + "}";
    }
  }

  private static void assertSameRun(RunResult a, RunResult b) {
    assertEquals(a.events(), b.events(), "events");
    assertEquals(a.endTimeMs(), b.endTimeMs());
    assertEquals(a.timeSeries().timesMs(), b.timeSeries().timesMs());
    for (int i = 0; i < a.timeSeries().timesMs().size(); i++) {
      assertEquals(java.util.Arrays.toString(a.timeSeries().rows().get(i)),
          java.util.Arrays.toString(b.timeSeries().rows().get(i)), "sample row " + i);
    }
    assertEquals(a.metricSamples(), b.metricSamples());
    assertEquals(a.workloads(), b.workloads());
    assertEquals(a.overall().admitted(), b.overall().admitted());
    assertEquals(a.overall().evicted(), b.overall().evicted());
    assertEquals(a.overall().timeToStart().getMean(), b.overall().timeToStart().getMean());
  }

  @Test
  void scrapesChangeNothing_andAtTheSampleIntervalReadWhatTheSamplesRead() {
    RunResult plain = new Simulation(contended(3 * 3_600_000L)).checked(true).run();
    Recorded same = new Recorded();
    RunResult scraped = new Simulation(contended(3 * 3_600_000L)).checked(true).scrapeMetrics(60_000, same::scrape)
        .run();
    assertSameRun(plain, scraped);
    List<MetricSample> samples = plain.metricSamples().samples();
    assertEquals(samples.size(), same.times.size(), "the end is a sample time too (3 h)");
    for (int i = 0; i < samples.size(); i++) {
      assertEquals(samples.get(i).timeMs(), same.times.get(i));
      SortedMap<String, Double> expected = new TreeMap<>(samples.get(i).values());
      expected.keySet().removeIf(k -> k.contains("_bucket{") || k.contains("_sum"));
      assertEquals(expected, same.values.get(i), "scrape at " + same.times.get(i));
    }

    Recorded odd = new Recorded();
    RunResult oddRun = new Simulation(contended(3 * 3_600_000L + 500)).checked(true).scrapeMetrics(7_000, odd::scrape)
        .run();
    assertSameRun(new Simulation(contended(3 * 3_600_000L + 500)).run(), oddRun);
    long end = 3 * 3_600_000L + 500;
    assertEquals(0L, odd.times.get(0));
    assertEquals(end, odd.times.get(odd.times.size() - 1), "the end of the run is scraped");
    assertEquals(end / 7_000 + 2, odd.times.size(), "every 7 s, then the end");
    SortedMap<String, Double> last = odd.values.get(odd.values.size() - 1);
    assertEquals(new TreeMap<>(oddRun.metricSamples().end()).tailMap("kueue_admitted_workloads_total")
        .headMap("kueue_admitted_workloads_total~"), last.tailMap("kueue_admitted_workloads_total")
        .headMap("kueue_admitted_workloads_total~"));
    assertTrue(last.keySet().stream().anyMatch(k -> k.startsWith("kueue_preempted_workloads_total")),
        "the run preempts: " + last.keySet());
  }

  @Test
  void aFullSink_isNoLongerScraped_andTheRunGoesOn() {
    List<Long> times = new ArrayList<>();
    MetricsSink fills = new MetricsSink() {
      @Override
      public void scrape(long t, List<MetricFamily<?>> families) {
        times.add(t);
      }

      @Override
      public boolean full() {
        return times.size() == 3;
      }
    };
    RunResult r = new Simulation(contended(3_600_000L)).scrapeMetrics(1_000, fills).run();
    assertEquals(List.of(0L, 1_000L, 2_000L), times);
    assertEquals(new Simulation(contended(3_600_000L)).run().events(), r.events());
  }

  @Test
  void everyKueueFamilyHasKueuesHelp() {
    for (MetricFamily<?> f : new batchsim.core.metrics.KueueMetrics().families()) {
      assertTrue(f.help().length() > 20, f.name() + ": " + f.help());
    }
    assertTrue(new batchsim.core.metrics.KueueMetrics().pendingWorkloads.help()
        .startsWith("The number of pending workloads, per 'cluster_queue' and 'status'.\n'status' can have"));
  }
}
