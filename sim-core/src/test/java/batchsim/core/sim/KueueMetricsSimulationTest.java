package batchsim.core.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.core.metrics.MetricSample;
import batchsim.core.metrics.PreemptionStats;
import batchsim.core.metrics.RunResult;
import batchsim.core.metrics.TimeSeries;
import batchsim.core.model.KueueConfig;
import batchsim.core.model.PreemptionPolicy;
import batchsim.core.model.PreemptionSpec;
import batchsim.core.model.QuotaSpec;
import batchsim.core.volcano.VolcanoConfig;
import batchsim.core.volcano.VolcanoQueueSpec;
import batchsim.core.volcano.VolcanoSetup;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Kueue's metric model over many cycles: counters equal the run's own counts, gauges equal its samples. */
class KueueMetricsSimulationTest {
  private static final long NO = QuotaSpec.UNLIMITED;
  private static final String RR = "replica_role=\"standalone\"";

  /** Two teams in a cohort, reclaiming and preempting lower priorities, with jobs arriving for two hours. */
  private static Specs contended() {
    PreemptionSpec p = new PreemptionSpec(PreemptionPolicy.LOWER_PRIORITY, PreemptionPolicy.ANY,
        PreemptionPolicy.NEVER, null);
    Specs s = new Specs().pool("gpu", 2, 64_000, 8).flavor("a100", "gpu")
        .gpuQueue("team-a", "org", "a100", 8, NO, NO, p)
        .gpuQueue("team-b", "org", "a100", 8, NO, NO, p);
    for (int i = 0; i < 120; i++) {
      s.job("j" + i, i % 3 == 0 ? "team-b" : "team-a", i * 60_000L, (i * 7) % 4, 1 + i % 2, 4, 300_000 + (i % 5) * 60_000L);
    }
    s.kueue = new KueueConfig(false, KueueConfig.DEFAULT_STRATEGIES, 0, 1_000, 5_000, true, true);
    s.sampleInterval = 60_000;
    s.horizon = 4 * 3_600_000L;
    return s;
  }

  private static double sum(Map<String, Double> m, String family, String... having) {
    double t = 0;
    for (Map.Entry<String, Double> e : m.entrySet()) {
      if (e.getKey().startsWith(family + "{") && List.of(having).stream().allMatch(e.getKey()::contains)) {
        t += e.getValue();
      }
    }
    return t;
  }

  @Test
  void counters_equalTheRunsOwnCountsAcrossPreemptionsAndRequeues() {
    RunResult r = new Simulation(contended().build()).checked(true).run();
    SortedMap<String, Double> end = r.metricSamples().end();
    PreemptionStats p = r.preemptionOverall();
    long preemptions = p.preemptionsByReason().values().stream().mapToLong(Long::longValue).sum();
    assertTrue(preemptions > 5 && p.requeues() > 5, "the story preempts and requeues: " + p);

    assertEquals(r.overall().admitted(), sum(end, "kueue_quota_reserved_workloads_total"));
    assertEquals(r.overall().admitted(), sum(end, "kueue_admitted_workloads_total"), "no checks: admitted at reservation");
    assertEquals(r.overall().admitted(), sum(end, "kueue_local_queue_admitted_workloads_total"));
    assertEquals(r.overall().admitted(), sum(end, "kueue_admission_wait_time_seconds_count"));
    assertEquals(r.overall().finished(), sum(end, "kueue_finished_workloads_total"));
    assertEquals(r.overall().finished(), sum(end, "kueue_finished_workloads"), "gauge: finished workloads kept");
    assertEquals(r.overall().evicted(), sum(end, "kueue_evicted_workloads_total"));
    assertEquals((double) p.evictionsByReason().get("Preempted"),
        sum(end, "kueue_evicted_workloads_total", "reason=\"Preempted\"", "underlying_cause=\"\""));
    assertEquals(preemptions, sum(end, "kueue_preempted_workloads_total"));
    for (Map.Entry<String, Long> e : p.preemptionsByReason().entrySet()) {
      assertEquals((double) e.getValue(), sum(end, "kueue_preempted_workloads_total", "reason=\"" + e.getKey() + "\""), e.getKey());
    }
    assertEquals(0, sum(end, "kueue_admission_checks_wait_time_seconds_count"), "no admission checks");
    double success = sum(end, "kueue_admission_attempts_total", "result=\"success\"");
    double inadmissible = sum(end, "kueue_admission_attempts_total", "result=\"inadmissible\"");
    assertTrue(success > 0 && success <= r.overall().admitted(), "a successful cycle admits at least one: " + success);
    assertTrue(inadmissible > 0, "cycles that admitted nothing");
    assertEquals(success + inadmissible, sum(end, "kueue_admission_attempt_duration_seconds_count"));
    assertEquals(success + inadmissible,
        sum(end, "kueue_admission_attempt_duration_seconds_bucket", "le=\"0.005\""), "0 s of virtual time each");
    // Preempted workloads requeue without backoff: every workload waiting at the end is active or parked.
    assertEquals(r.overall().pendingAtEnd(), sum(end, "kueue_pending_workloads"));
    assertTrue(sum(end, "kueue_pending_workloads", "status=\"inadmissible\"") > 0, "parked workloads at the end");
  }

  @Test
  void gauges_equalTheEnginesStateAtEverySampleTime() {
    RunResult r = new Simulation(contended().build()).checked(true).run();
    TimeSeries ts = r.timeSeries();
    List<MetricSample> samples = r.metricSamples().samples();
    assertEquals(ts.timesMs(), samples.stream().map(MetricSample::timeMs).toList(), "one snapshot per sample");
    boolean sawPending = false;
    for (int i = 0; i < samples.size(); i++) {
      Map<String, Double> m = samples.get(i).values();
      for (String cq : List.of("team-a", "team-b")) {
        String q = "cluster_queue=\"" + cq + "\"";
        double pending = sum(m, "kueue_pending_workloads", q);
        assertEquals(ts.rows().get(i)[ts.columns().indexOf("pending:" + cq)], pending, cq + " at " + ts.timesMs().get(i));
        assertEquals(ts.rows().get(i)[ts.columns().indexOf("holding:" + cq)],
            sum(m, "kueue_reserving_active_workloads", q), cq + " at " + ts.timesMs().get(i));
        assertEquals(ts.rows().get(i)[ts.columns().indexOf("used:" + cq + ":a100:nvidia.com/gpu")],
            sum(m, "kueue_cluster_queue_resource_reservation", q), cq + " at " + ts.timesMs().get(i));
        assertEquals(1.0, m.get("kueue_cluster_queue_status{" + q + "," + RR + ",status=\"active\"}"));
        sawPending |= pending > 0;
      }
    }
    assertTrue(sawPending, "some sample sees a queue");
    // At 30 min: quota as declared, unlimited borrowing reported as +Inf.
    Map<String, Double> at30 = samples.get(30).values();
    String fr = "{cluster_queue=\"team-a\",cohort=\"org\",flavor=\"a100\",replica_role=\"standalone\",resource=\"nvidia.com/gpu\"}";
    assertEquals(8.0, at30.get("kueue_cluster_queue_nominal_quota" + fr));
    assertEquals(Double.POSITIVE_INFINITY, at30.get("kueue_cluster_queue_borrowing_limit" + fr));
  }

  @Test
  void volcano_hasNoKueueMetricModel() {
    VolcanoSetup v = new VolcanoSetup(VolcanoConfig.capacity(false),
        List.of(VolcanoQueueSpec.of("team-a"), VolcanoQueueSpec.of("team-b")),
        new TreeMap<>(Map.of("team-a", "team-a", "team-b", "team-b")), 0);
    RunResult r = Runs.run(contended().build(), v, true);
    assertTrue(r.timeSeries().timesMs().size() > 1, "sampled");
    assertTrue(r.metricSamples().end().isEmpty());
    assertTrue(r.metricSamples().samples().stream().allMatch(m -> m.values().isEmpty()));
  }
}
