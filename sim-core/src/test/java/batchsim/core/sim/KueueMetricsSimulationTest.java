package batchsim.core.sim;

import static org.junit.jupiter.api.Assertions.assertNull;

import batchsim.core.model.WaitForPodsReady;

import batchsim.core.model.ScoringStrategy;

import batchsim.core.model.PodSchedulingConfig;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.core.metrics.MetricSample;
import batchsim.core.metrics.PreemptionStats;
import batchsim.core.metrics.RunResult;
import batchsim.core.metrics.TimeSeries;
import batchsim.core.model.AdmissionCheckSpec;
import batchsim.core.model.ClusterAction;
import batchsim.core.model.ClusterAction.StopPolicy;
import batchsim.core.model.AutoscalingSpec;
import batchsim.core.model.ClusterQueueSpec;
import batchsim.core.model.FlavorFungibility;
import batchsim.core.model.FlavorQuotaSpec;
import batchsim.core.model.KueueConfig;
import batchsim.core.model.LocalQueueSpec;
import batchsim.core.model.LongDistribution;
import batchsim.core.model.PreemptionPolicy;
import batchsim.core.model.PreemptionSpec;
import batchsim.core.model.ProvisioningSpec;
import batchsim.core.model.QueueingStrategy;
import batchsim.core.model.QuotaSpec;
import batchsim.core.model.ResourceGroupSpec;
import batchsim.core.model.TimelineEvent;
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
    assertEquals(r.overall().admitted(), sum(end, "kueue_cohort_subtree_admitted_workloads_total", "cohort=\"org\""));
    assertEquals(1.0, end.get("kueue_cluster_queue_info{cluster_queue=\"team-b\",parent_cohort=\"org\","
        + RR + ",root_cohort=\"org\"}"));
    assertEquals(1.0, end.get("kueue_cohort_info{cohort=\"org\",parent_cohort=\"\"," + RR + ",root_cohort=\"org\"}"));
    // Every requeue follows the eviction by at most the 5 s termination grace period.
    assertEquals(p.requeues(), sum(end, "kueue_workload_eviction_latency_seconds_count"));
    assertEquals(p.requeues(), sum(end, "kueue_workload_eviction_latency_seconds_bucket", "le=\"5\""));
    double ready = sum(end, "kueue_pods_ready_to_evicted_time_seconds_count");
    assertTrue(ready > 0 && ready <= r.overall().evicted(), "running victims: " + ready);
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
        String lq = "name=\"" + cq + "\",namespace=\"default\"";
        assertEquals(sum(m, "kueue_cluster_queue_resource_reservation", q),
            sum(m, "kueue_local_queue_resource_reservation", lq), "its only LocalQueue");
        assertEquals(sum(m, "kueue_cluster_queue_resource_usage", q), sum(m, "kueue_local_queue_resource_usage", lq));
        assertEquals(sum(m, "kueue_pending_workloads", q), sum(m, "kueue_local_queue_pending_workloads", lq));
        sawPending |= pending > 0;
      }
    }
    assertTrue(sawPending, "some sample sees a queue");
    for (MetricSample sample : samples) {
      Map<String, Double> m = sample.values();
      String org = "cohort=\"org\"";
      assertEquals(16.0, m.get("kueue_cohort_subtree_quota{" + org + ",flavor=\"a100\"," + RR + ",resource=\"nvidia.com/gpu\"}"));
      assertEquals(sum(m, "kueue_cluster_queue_resource_reservation"), sum(m, "kueue_cohort_subtree_resource_reservations", org));
      assertEquals(sum(m, "kueue_admitted_active_workloads"), sum(m, "kueue_cohort_subtree_admitted_active_workloads", org));
    }
    // At 30 min: quota as declared, unlimited borrowing reported as +Inf.
    Map<String, Double> at30 = samples.get(30).values();
    String fr = "{cluster_queue=\"team-a\",cohort=\"org\",flavor=\"a100\",replica_role=\"standalone\",resource=\"nvidia.com/gpu\"}";
    assertEquals(8.0, at30.get("kueue_cluster_queue_nominal_quota" + fr));
    assertEquals(Double.POSITIVE_INFINITY, at30.get("kueue_cluster_queue_borrowing_limit" + fr));
  }

  @Test
  void stoppedClusterQueue_reportsPendingStatusAndEveryPendingWorkloadInadmissible() {
    // team-a (8 GPUs) runs one 8-GPU job for an hour with 3 queued behind it; HoldAndDrain at 10 min evicts
    // the runner, which requeues: from then on 4 pending, all counted inadmissible, status pending.
    Specs s = new Specs().pool("gpu", 2, 64_000, 8).flavor("a100", "gpu")
        .gpuQueue("team-a", null, "a100", 8, NO, NO, PreemptionSpec.NEVER);
    for (int i = 0; i < 4; i++) {
      s.job("j" + i, "team-a", i * 1_000L, 0, 1, 8, 3_600_000);
    }
    s.timeline.add(TimelineEvent.once(600_000, new ClusterAction.StopQueue("team-a", null, StopPolicy.HOLD_AND_DRAIN)));
    s.sampleInterval = 300_000;
    s.horizon = 1_800_000;
    RunResult r = new Simulation(s.build()).checked(true).run();
    String q = "cluster_queue=\"team-a\",";
    Map<String, Double> at5 = r.metricSamples().samples().get(1).values();
    assertEquals(300_000, r.metricSamples().samples().get(1).timeMs());
    assertEquals(1.0, at5.get("kueue_cluster_queue_status{" + q + RR + ",status=\"active\"}"));
    assertEquals(3.0, sum(at5, "kueue_pending_workloads", q));
    assertEquals(1.0, at5.get("kueue_admitted_active_workloads{" + q + RR + "}"));
    Map<String, Double> at15 = r.metricSamples().samples().get(3).values();
    assertEquals(1.0, at15.get("kueue_cluster_queue_status{" + q + RR + ",status=\"pending\"}"));
    assertEquals(0.0, at15.get("kueue_cluster_queue_status{" + q + RR + ",status=\"active\"}"));
    assertEquals(0.0, at15.get("kueue_pending_workloads{" + q + RR + ",status=\"active\"}"));
    assertEquals(4.0, at15.get("kueue_pending_workloads{" + q + RR + ",status=\"inadmissible\"}"));
    assertEquals(0.0, at15.get("kueue_reserving_active_workloads{" + q + RR + "}"));
    assertEquals(1.0, sum(at15, "kueue_evicted_workloads_total", "reason=\"ClusterQueueStopped\""));
  }

  /** One GPU queue "ml" on an empty autoscaled pool whose admission waits for the ProvisioningRequest check. */
  private static RunResult provisioned(long delayMs, double failure, WorkloadSpecs job) {
    Specs s = new Specs().pool("gpu", 0, 64_000, 8).flavor("a100", "gpu");
    s.cqs.add(new ClusterQueueSpec("ml", null, List.of(new ResourceGroupSpec(List.of("nvidia.com/gpu"),
        List.of(new FlavorQuotaSpec("a100", Map.of("nvidia.com/gpu", QuotaSpec.nominal(32)))))),
        QueueingStrategy.BEST_EFFORT_FIFO, PreemptionSpec.NEVER, FlavorFungibility.DEFAULT, 1.0, List.of("prov")));
    s.lqs.add(new LocalQueueSpec("ml", "ml"));
    job.add(s);
    ProvisioningSpec prov = new ProvisioningSpec(ProvisioningSpec.ATOMIC_SCALE_UP, LongDistribution.constant(delayMs),
        failure, 0, 0, 2, 60_000, 1_800_000, List.of(), "gpu");
    return new Simulation(s.build().withProvisioning(List.of(new AdmissionCheckSpec("prov", prov)),
        List.of(new AutoscalingSpec("gpu", 0, 4, 600_000)))).checked(true).run();
  }

  private interface WorkloadSpecs {
    void add(Specs s);
  }

  @Test
  void admissionChecks_reservationThenAdmissionAfterTheCheck() {
    RunResult r = provisioned(360_000, 0, s -> s.job("j1", "ml", 0, 0, 2, 8, 3_600_000));
    Map<String, Double> end = r.metricSamples().end();
    String labels = "{cluster_queue=\"ml\",priority_class=\"\"," + RR + "}";
    assertEquals(1.0, end.get("kueue_quota_reserved_workloads_total" + labels));
    assertEquals(0.0, end.get("kueue_quota_reserved_wait_time_seconds_sum" + labels), "reserved at once");
    assertEquals(1.0, end.get("kueue_admitted_workloads_total" + labels));
    assertEquals(360.0, end.get("kueue_admission_wait_time_seconds_sum" + labels), "created → Admitted");
    assertEquals(360.0, end.get("kueue_admission_checks_wait_time_seconds_sum" + labels), "QuotaReserved → Admitted");
    assertEquals(0.0, end.get("kueue_admission_checks_wait_time_seconds_bucket{cluster_queue=\"ml\","
        + "priority_class=\"\"," + RR + ",le=\"320\"}"));
    assertEquals(1.0, end.get("kueue_admission_checks_wait_time_seconds_bucket{cluster_queue=\"ml\","
        + "priority_class=\"\"," + RR + ",le=\"640\"}"));
  }

  @Test
  void admissionChecks_retryThenRejection_countAsAdmissionCheckAndDeactivatedEvictions() {
    RunResult r = provisioned(60_000, 1.0, s -> s.job("j1", "ml", 0, 0, 1, 8, 60_000));
    Map<String, Double> end = r.metricSamples().end();
    String cq = "cluster_queue=\"ml\"";
    assertEquals("DEACTIVATED", r.workloads().get(0).state());
    assertEquals(3.0, sum(end, "kueue_quota_reserved_workloads_total", cq));
    assertEquals(0.0, sum(end, "kueue_admitted_workloads_total", cq));
    // Retry evicts with reason AdmissionCheck; Rejected deactivates: reason Deactivated, cause AdmissionCheck.
    assertEquals(2.0, sum(end, "kueue_evicted_workloads_total", "reason=\"AdmissionCheck\"", "underlying_cause=\"\""));
    assertEquals(1.0, sum(end, "kueue_evicted_workloads_total", "reason=\"Deactivated\"",
        "underlying_cause=\"AdmissionCheck\""));
    assertEquals(1.0, sum(end, "kueue_evicted_workloads_once_total", "reason=\"AdmissionCheck\""));
    assertEquals(1.0, sum(end, "kueue_evicted_workloads_once_total", "reason=\"Deactivated\""));
    assertEquals(0.0, sum(end, "kueue_preempted_workloads_total"));
  }

  @Test
  void podsReady_reportsTheWaitsUntilReady_onlyForAFirstStartAndOnlyWithWaitForPodsReady() {
    // 3 one-pod jobs of 8 GPUs on one 8-GPU node, 2 min of pod start-up: each waits for the one before.
    Specs s = new Specs().pool("gpu", 1, 64_000, 8).flavor("a100", "gpu")
        .gpuQueue("team-a", null, "a100", 8, NO, NO, PreemptionSpec.NEVER);
    for (int i = 0; i < 3; i++) {
      s.job("j" + i, "team-a", 0, 0, 1, 8, 600_000);
    }
    s.podScheduling = new PodSchedulingConfig(ScoringStrategy.LEAST_ALLOCATED, 120_000);
    s.kueue = KueueConfig.defaults(); // waitForPodsReady on (Kueue v1beta2 default)
    RunResult r = new Simulation(s.build()).checked(true).run();
    Map<String, Double> end = r.metricSamples().end();
    String q = "{cluster_queue=\"team-a\",priority_class=\"\"," + RR + "}";
    assertEquals(3, end.get("kueue_ready_wait_time_seconds_count" + q));
    assertEquals(3 * 120, end.get("kueue_admitted_until_ready_wait_time_seconds_sum" + q), "admitted → ready: start-up");
    // created at 0, never requeued: queued → ready is each workload's time to start (the later ones wait for the
    // one before: its 2 min start-up, 10 min run and Kueue's 1 s batch before parked workloads return)
    double toStart = r.workloads().stream().mapToLong(w -> w.startedMs() - w.createdMs()).sum() / 1000.0;
    assertTrue(toStart > 2 * 720, "the jobs queued behind each other");
    assertEquals(toStart, end.get("kueue_ready_wait_time_seconds_sum" + q));

    s.kueue = KueueConfig.defaults().withWaitForPodsReady(WaitForPodsReady.DISABLED);
    Map<String, Double> off = new Simulation(s.build()).run().metricSamples().end();
    assertNull(off.get("kueue_ready_wait_time_seconds_count" + q), "Kueue reports it only with waitForPodsReady");
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
