package batchsim.core.metrics;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import org.junit.jupiter.api.Test;

class KueueMetricsTest {
  private static final KueueMetrics.LocalQueueRef LQ = new KueueMetrics.LocalQueueRef("lq-a", "ns");

  @Test
  void buckets_areKueueGenerateExponentialBucketsAndPrometheusDefaults() {
    // metrics.go: generateExponentialBuckets(n) = append([]float64{1}, prometheus.ExponentialBuckets(2.5, 2, n-1)...)
    assertArrayEquals(new double[] {1, 2.5, 5, 10, 20, 40, 80, 160, 320, 640, 1280, 2560, 5120, 10240},
        Buckets.kueueExponential(14));
    assertArrayEquals(new double[] {1, 2.5, 5, 10, 20, 40, 80, 160, 320, 640, 1280, 2560, 5120, 10240, 20480, 40960},
        Buckets.kueueExponential(16));
    assertArrayEquals(new double[] {.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10}, Buckets.PROMETHEUS_DEFAULT);
    KueueMetrics m = new KueueMetrics();
    assertArrayEquals(Buckets.kueueExponential(16), m.admissionWaitTime.bounds());
    assertArrayEquals(Buckets.kueueExponential(14), m.localQueueAdmissionWaitTime.bounds());
    assertArrayEquals(Buckets.kueueExponential(14), m.quotaReservedWaitTime.bounds());
    assertArrayEquals(Buckets.kueueExponential(14), m.localQueueQuotaReservedWaitTime.bounds());
    assertArrayEquals(Buckets.kueueExponential(14), m.admissionChecksWaitTime.bounds());
    assertArrayEquals(Buckets.kueueExponential(14), m.localQueueAdmissionChecksWaitTime.bounds());
    assertArrayEquals(Buckets.PROMETHEUS_DEFAULT, m.admissionAttemptDuration.bounds());
    assertArrayEquals(Buckets.kueueExponential(14), m.podsReadyToEvictedTime.bounds());
    assertArrayEquals(Buckets.kueueExponential(14), m.workloadEvictionLatency.bounds());
  }

  @Test
  void families_haveKueueNamesAndLabelNamesInKueueOrder() {
    // Label names as InitMetricVectors declares them at ff69552e (no custom labels configured).
    Map<String, List<String>> expected = new HashMap<>();
    String cq = "cluster_queue";
    String rr = "replica_role";
    String pc = "priority_class";
    expected.put("kueue_admission_attempts_total", List.of("result", rr));
    expected.put("kueue_admission_attempt_duration_seconds", List.of("result", rr));
    expected.put("kueue_admission_cycle_preemption_skips", List.of(cq, rr));
    expected.put("kueue_pending_workloads", List.of(cq, "status", rr));
    expected.put("kueue_local_queue_pending_workloads", List.of("name", "namespace", "status", rr));
    expected.put("kueue_finished_workloads", List.of(cq, rr));
    expected.put("kueue_local_queue_finished_workloads", List.of("name", "namespace", rr));
    expected.put("kueue_quota_reserved_workloads_total", List.of(cq, pc, rr));
    expected.put("kueue_local_queue_quota_reserved_workloads_total", List.of("name", "namespace", pc, rr));
    expected.put("kueue_quota_reserved_wait_time_seconds", List.of(cq, pc, rr));
    expected.put("kueue_local_queue_quota_reserved_wait_time_seconds", List.of("name", "namespace", pc, rr));
    expected.put("kueue_admitted_workloads_total", List.of(cq, pc, rr));
    expected.put("kueue_local_queue_admitted_workloads_total", List.of("name", "namespace", pc, rr));
    expected.put("kueue_admission_wait_time_seconds", List.of(cq, pc, rr));
    expected.put("kueue_local_queue_admission_wait_time_seconds", List.of("name", "namespace", pc, rr));
    expected.put("kueue_admission_checks_wait_time_seconds", List.of(cq, pc, rr));
    expected.put("kueue_local_queue_admission_checks_wait_time_seconds", List.of("name", "namespace", pc, rr));
    expected.put("kueue_evicted_workloads_total", List.of(cq, "reason", "underlying_cause", pc, rr));
    expected.put("kueue_local_queue_evicted_workloads_total",
        List.of("name", "namespace", "reason", "underlying_cause", pc, rr));
    expected.put("kueue_evicted_workloads_once_total", List.of(cq, "reason", "underlying_cause", pc, rr));
    expected.put("kueue_preempted_workloads_total", List.of("preempting_cluster_queue", "reason", rr));
    expected.put("kueue_finished_workloads_total", List.of(cq, pc, rr));
    expected.put("kueue_local_queue_finished_workloads_total", List.of("name", "namespace", pc, rr));
    expected.put("kueue_reserving_active_workloads", List.of(cq, rr));
    expected.put("kueue_local_queue_reserving_active_workloads", List.of("name", "namespace", rr));
    expected.put("kueue_admitted_active_workloads", List.of(cq, rr));
    expected.put("kueue_local_queue_admitted_active_workloads", List.of("name", "namespace", rr));
    expected.put("kueue_cluster_queue_status", List.of(cq, "status", rr));
    for (String n : List.of("resource_reservation", "resource_usage", "nominal_quota", "borrowing_limit",
        "lending_limit")) {
      expected.put("kueue_cluster_queue_" + n, List.of("cohort", cq, "flavor", "resource", rr));
    }
    expected.put("kueue_local_queue_resource_reservation", List.of("name", "namespace", "flavor", "resource", rr));
    expected.put("kueue_local_queue_resource_usage", List.of("name", "namespace", "flavor", "resource", rr));
    expected.put("kueue_cluster_queue_weighted_share", List.of(cq, "cohort", rr));
    expected.put("kueue_cohort_weighted_share", List.of("cohort", rr));
    expected.put("kueue_cluster_queue_info", List.of(cq, "parent_cohort", "root_cohort", rr));
    expected.put("kueue_cohort_info", List.of("cohort", "parent_cohort", "root_cohort", rr));
    expected.put("kueue_cohort_subtree_quota", List.of("cohort", "flavor", "resource", rr));
    expected.put("kueue_cohort_subtree_resource_reservations", List.of("cohort", "flavor", "resource", rr));
    expected.put("kueue_cohort_subtree_admitted_active_workloads", List.of("cohort", rr));
    expected.put("kueue_cohort_subtree_admitted_workloads_total", List.of("cohort", pc, rr));
    expected.put("kueue_pods_ready_to_evicted_time_seconds", List.of(cq, "reason", "underlying_cause", rr));
    expected.put("kueue_workload_eviction_latency_seconds", List.of(cq, "reason", rr));
    expected.put("kueue_ready_wait_time_seconds", List.of(cq, pc, rr));
    expected.put("kueue_admitted_until_ready_wait_time_seconds", List.of(cq, pc, rr));
    expected.put("kueue_local_queue_ready_wait_time_seconds", List.of("name", "namespace", pc, rr));
    expected.put("kueue_local_queue_admitted_until_ready_wait_time_seconds", List.of("name", "namespace", pc, rr));
    expected.put("kueue_local_queue_admission_fair_sharing_usage", List.of("name", "namespace", cq, rr));
    Map<String, List<String>> actual = new HashMap<>();
    for (MetricFamily<?> f : new KueueMetrics().families()) {
      actual.put(f.name(), f.labelNames());
    }
    assertEquals(expected, actual);
  }

  @Test
  void snapshot_namesSeriesInPrometheusTextFormAndExpandsHistograms() {
    KueueMetrics m = new KueueMetrics();
    m.gaugeRefresher(() -> m.pendingWorkloads.set(3, "cq-a", "inadmissible", KueueMetrics.STANDALONE));
    m.admissionAttempt(true, 0);
    m.admitted("cq-a", LQ, "", 3.0, null);
    m.admitted("cq-a", LQ, "", 30.0, null);
    SortedMap<String, Double> s = m.snapshot();
    assertEquals(3.0, s.get("kueue_pending_workloads{cluster_queue=\"cq-a\",replica_role=\"standalone\",status=\"inadmissible\"}"));
    assertEquals(1.0, s.get("kueue_admission_attempts_total{replica_role=\"standalone\",result=\"success\"}"));
    assertEquals(1.0, s.get("kueue_admission_attempt_duration_seconds_bucket{replica_role=\"standalone\",result=\"success\",le=\"0.005\"}"));
    String labels = "cluster_queue=\"cq-a\",priority_class=\"\",replica_role=\"standalone\"";
    assertEquals(2.0, s.get("kueue_admitted_workloads_total{" + labels + "}"));
    assertEquals(0.0, s.get("kueue_admission_wait_time_seconds_bucket{" + labels + ",le=\"2.5\"}"));
    assertEquals(1.0, s.get("kueue_admission_wait_time_seconds_bucket{" + labels + ",le=\"5\"}"));
    assertEquals(2.0, s.get("kueue_admission_wait_time_seconds_bucket{" + labels + ",le=\"40\"}"));
    assertEquals(2.0, s.get("kueue_admission_wait_time_seconds_bucket{" + labels + ",le=\"40960\"}"));
    assertEquals(2.0, s.get("kueue_admission_wait_time_seconds_bucket{" + labels + ",le=\"+Inf\"}"));
    assertEquals(33.0, s.get("kueue_admission_wait_time_seconds_sum{" + labels + "}"));
    assertEquals(2.0, s.get("kueue_admission_wait_time_seconds_count{" + labels + "}"));
    assertEquals(2.0, s.get("kueue_local_queue_admitted_workloads_total{name=\"lq-a\",namespace=\"ns\","
        + "priority_class=\"\",replica_role=\"standalone\"}"));
    assertTrue(s.keySet().stream().noneMatch(k -> k.startsWith("kueue_admission_checks_wait_time_seconds")),
        "no admission checks: not observed");
  }

  @Test
  void evicted_countsOnceTotalOnlyForTheFirstEvictionOfAKind() {
    KueueMetrics m = new KueueMetrics();
    m.evicted("cq-a", LQ, "Preempted", "", "high", true, 12.0);
    m.evicted("cq-a", LQ, "Preempted", "", "high", false, null);
    m.preempted("cq-b", "InCohortReclamation");
    assertEquals(2, m.evictedWorkloadsTotal.value("cq-a", "Preempted", "", "high", "standalone"));
    assertEquals(1, m.evictedWorkloadsOnceTotal.value("cq-a", "Preempted", "", "high", "standalone"));
    assertEquals(1, m.preemptedWorkloadsTotal.value("cq-b", "InCohortReclamation", "standalone"));
    assertEquals(1, m.podsReadyToEvictedTime.count("cq-a", "Preempted", "", "standalone"), "only when pods were ready");
  }

  @Test
  void labelValues_areEscaped() {
    GaugeFamily g = new GaugeFamily("x", "l");
    g.set(1, "a\"b\\c\nd");
    SortedMap<String, Double> out = new java.util.TreeMap<>();
    g.writeTo(out);
    assertEquals(List.of("x{l=\"a\\\"b\\\\c\\nd\"}"), List.copyOf(out.keySet()));
  }
}
