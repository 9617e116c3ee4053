package batchsim.core.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.core.metrics.Decision;
import batchsim.core.metrics.RunResult;
import batchsim.core.metrics.WorkloadRecord;
import batchsim.core.model.AdmissionCheckSpec;
import batchsim.core.model.ClusterQueueSpec;
import batchsim.core.model.FlavorFungibility;
import batchsim.core.model.FlavorQuotaSpec;
import batchsim.core.model.KueueConfig;
import batchsim.core.model.LocalQueueSpec;
import batchsim.core.model.LongDistribution;
import batchsim.core.model.PodSchedulingConfig;
import batchsim.core.model.PreemptionPolicy;
import batchsim.core.model.PreemptionSpec;
import batchsim.core.model.ProvisioningSpec;
import batchsim.core.model.QueueingStrategy;
import batchsim.core.model.QuotaSpec;
import batchsim.core.model.RequeuingTimestamp;
import batchsim.core.model.ResourceGroupSpec;
import batchsim.core.model.ScoringStrategy;
import batchsim.core.model.WaitForPodsReady;
import batchsim.core.model.NodePoolSpec;
import batchsim.core.model.ResourceFlavorSpec;
import batchsim.core.model.Resources;
import batchsim.core.model.SimulationSpec;
import batchsim.core.model.TimelineEvent;
import batchsim.core.model.TopologySpec;
import batchsim.core.model.WorkloadSpec;
import java.util.ArrayList;
import java.util.TreeMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Kueue's workload lifecycle across many cycles: conditions reset on every new reservation, preemption under
 * an admission check, waitForPodsReady (backoff from the eviction, deactivation, requeuing timestamp,
 * blockAdmission). Expectations follow Kueue @ ff69552e.
 */
class KueueLifecycleTest {
  private static final long MIN = 60_000;

  private static Specs queue(long gpuQuota, QueueingStrategy strategy, PreemptionSpec preemption, List<String> checks) {
    Specs s = new Specs().flavor("a100", "gpu");
    s.cqs.add(new ClusterQueueSpec("ml", null, List.of(new ResourceGroupSpec(List.of("nvidia.com/gpu"),
        List.of(new FlavorQuotaSpec("a100", Map.of("nvidia.com/gpu", QuotaSpec.nominal(gpuQuota)))))),
        strategy, preemption, FlavorFungibility.DEFAULT, 1.0, checks));
    s.lqs.add(new LocalQueueSpec("ml", "ml"));
    return s;
  }

  private static Map<String, WorkloadRecord> byId(RunResult r) {
    return r.workloads().stream().collect(Collectors.toMap(WorkloadRecord::id, Function.identity()));
  }

  private static List<Decision> log(RunResult r, String id, String condition) {
    return r.decisions().get(id).stream().filter(d -> d.condition().equals(condition)).toList();
  }

  private static KueueConfig waitForPodsReady(long graceMs, RequeuingTimestamp ts, WaitForPodsReady w) {
    return new KueueConfig(false, KueueConfig.DEFAULT_STRATEGIES, 0, 1_000, graceMs, true, true, ts, w, false);
  }

  // ------------------------------------------------------------------ defect 1

  @Test
  void preemptedUnderProvisioningCheck_everyReservationResetsEvictedAndPreempted_andEveryPreemptionCompletes() {
    // One 8-GPU node; a low-priority job that runs for days and a high-priority job every 2 h that needs the
    // whole node. Each high job preempts the low one, which re-reserves quota (check pending) when the high
    // one finishes: Kueue's SetQuotaReservation turns Evicted and Preempted False on that reservation, so
    // the next high job can preempt it again.
    PreemptionSpec lowerPriority = new PreemptionSpec(PreemptionPolicy.LOWER_PRIORITY, PreemptionPolicy.NEVER,
        PreemptionPolicy.NEVER, null);
    Specs s = queue(8, QueueingStrategy.BEST_EFFORT_FIFO, lowerPriority, List.of("prov"));
    s.pool("gpu", 1, 64_000, 8);
    s.job("low", "ml", 0, 0, 1, 8, 100 * 60 * MIN);
    int highs = 12;
    for (int i = 0; i < highs; i++) {
      s.job("high-" + i, "ml", (i + 1) * 120 * MIN, 100, 1, 8, 30 * MIN);
    }
    ProvisioningSpec prov = new ProvisioningSpec(ProvisioningSpec.ATOMIC_SCALE_UP, LongDistribution.constant(MIN), 0,
        0, 0, 3, MIN, 30 * MIN, List.of(), "gpu");
    RunResult r = new Simulation(s.build().withProvisioning(List.of(new AdmissionCheckSpec("prov", prov)), List.of()))
        .explain(true).checked(true).run();

    Map<String, WorkloadRecord> w = byId(r);
    for (int i = 0; i < highs; i++) {
      assertEquals("FINISHED", w.get("high-" + i).state(), "high-" + i + " waited forever for its victim");
    }
    assertEquals(highs, w.get("low").preemptions());
    assertTrue(log(r, "high-0", "QuotaReserved").stream().anyMatch(d -> !d.status()
        && d.reason().equals("WaitingForPreemptedWorkloads") && d.message().endsWith(". Pending the preemption of 1 workload(s)")));
    assertEquals("FINISHED", w.get("low").state());

    List<Decision> evicted = log(r, "low", "Evicted");
    List<Decision> preempted = log(r, "low", "Preempted");
    assertEquals(2 * highs, evicted.size(), "True at each preemption, False at each new reservation");
    assertEquals(2 * highs, preempted.size());
    String message = "Preempted to accommodate a workload (UID: UNKNOWN, JobUID: UNKNOWN) due to prioritization in "
        + "the ClusterQueue; preemptor path: /ml; preemptee path: /ml";
    for (int i = 0; i < highs; i++) {
      Decision on = evicted.get(2 * i);
      Decision off = evicted.get(2 * i + 1);
      assertEquals(List.of(true, "Preempted", message), List.of(on.status(), on.reason(), on.message()));
      assertEquals(List.of(false, "QuotaReserved", "Previously: " + message),
          List.of(off.status(), off.reason(), off.message()));
      Decision p = preempted.get(2 * i + 1);
      assertEquals(List.of(false, "QuotaReserved", "Previously: " + message),
          List.of(p.status(), p.reason(), p.message()));
      assertEquals("InClusterQueue", preempted.get(2 * i).reason());
      // The reservation that resets them is the admission-check path: Admitted waits for the check.
      long reservedAt = off.timeMs();
      assertTrue(r.decisions().get("low").stream().anyMatch(d -> d.timeMs() == reservedAt
          && d.condition().equals("Admitted") && !d.status() && d.reason().equals("UnsatisfiedAdmissionChecks")
          && d.message().equals("The workload has not all checks ready")));
    }
  }

  @Test
  void tasUnderProvisioningCheck_readmittedAfterPreemption_getsItsFailedNodeReplaced() {
    // Two racks of four 8-GPU nodes, a TAS flavor, 24 GPUs of quota behind a ProvisioningRequest check. "low"
    // (3 pods, one rack) is preempted by "high" at 1 h and re-reserved (check pending, topology delayed) when
    // high finishes (1.5 h); at 2 h a node of each rack fails. Kueue's NeedsSecondPass wants it not Evicted: the reset
    // on reservation lets the node-failure second pass replace its lost pod inside its rack.
    List<NodePoolSpec> pools = new ArrayList<>();
    for (String rack : List.of("a", "b")) {
      pools.add(new NodePoolSpec("rack-" + rack, 4, new TreeMap<>(Map.of("pool", "gpu", TasSimulationTest.RACK, rack)),
          List.of(), Resources.wrap(new long[] {64_000, 1L << 40, 110, 8})));
    }
    ResourceFlavorSpec flavor = new ResourceFlavorSpec("gpu", new TreeMap<>(Map.of("pool", "gpu")), List.of(),
        List.of(), "racks");
    ClusterQueueSpec cq = new ClusterQueueSpec("team", null, List.of(new ResourceGroupSpec(List.of("nvidia.com/gpu"),
        List.of(new FlavorQuotaSpec("gpu", Map.of("nvidia.com/gpu", QuotaSpec.nominal(24)))))),
        QueueingStrategy.BEST_EFFORT_FIFO, new PreemptionSpec(PreemptionPolicy.LOWER_PRIORITY, PreemptionPolicy.NEVER,
            PreemptionPolicy.NEVER, null), FlavorFungibility.DEFAULT, 1.0, List.of("prov"));
    WorkloadSpec low = TasSimulationTest.rackJob("low", 0, 3);
    WorkloadSpec high = TasSimulationTest.rackJob("high", 60 * MIN, 3);
    high = new WorkloadSpec(high.id(), high.workloadClass(), high.localQueue(), high.createdMs(), 100, null,
        high.podSets(), 30 * MIN);
    List<TimelineEvent> failures = List.of(TasSimulationTest.fail(120 * MIN, "rack-a-0"),
        TasSimulationTest.fail(120 * MIN, "rack-b-0"));
    SimulationSpec spec = new SimulationSpec("tas-prov", 1, SimulationSpec.NO_HORIZON, Specs.RES, pools,
        List.of(flavor), List.of(), List.of(cq), List.of(new LocalQueueSpec("team", "team")), List.of(),
        KueueConfig.defaults(), PodSchedulingConfig.defaults(), List.of(Specs.listSource(List.of(low, high))), 0,
        failures, List.of(), List.of(), List.of(new TopologySpec("racks", List.of(TasSimulationTest.RACK,
            TopologySpec.HOSTNAME))));
    ProvisioningSpec prov = new ProvisioningSpec(ProvisioningSpec.ATOMIC_SCALE_UP, LongDistribution.constant(MIN), 0,
        0, 0, 3, MIN, 30 * MIN, List.of(), "rack-a");
    RunResult r = new Simulation(spec.withProvisioning(List.of(new AdmissionCheckSpec("prov", prov)), List.of()))
        .explain(true).checked(true).run();
    Map<String, WorkloadRecord> w = byId(r);
    assertEquals(1, w.get("low").preemptions());
    assertEquals(1, w.get("low").evictions(), "repaired, not evicted");
    assertEquals(1, r.tas().nodeRepairs(), "the second pass took the readmitted workload");
    assertEquals(0, r.tas().nodeFailureEvictions());
    assertEquals("FINISHED", w.get("low").state());
    assertEquals("FINISHED", w.get("high").state());
  }

  // ------------------------------------------------------------------ defect 4

  private static String story(RunResult r, String id) {
    return r.decisions().get(id).stream().map(d -> d.condition() + " " + d.status() + " " + d.reason() + ": "
        + d.message()).collect(Collectors.joining("\n"));
  }

  @Test
  void admissionCheckRetryThenRejection_useKueuesReasonsAndMessages() {
    Specs s = queue(8, QueueingStrategy.BEST_EFFORT_FIFO, PreemptionSpec.NEVER, List.of("prov"));
    s.pool("gpu", 1, 64_000, 8);
    s.job("j", "ml", 0, 0, 1, 8, 10 * MIN);
    ProvisioningSpec failing = new ProvisioningSpec(ProvisioningSpec.ATOMIC_SCALE_UP, LongDistribution.constant(MIN), 1.0,
        0, 0, 1, MIN, 30 * MIN, List.of(), "gpu");
    RunResult r = new Simulation(s.build().withProvisioning(List.of(new AdmissionCheckSpec("prov", failing)), List.of()))
        .explain(true).checked(true).run();
    String retry = "Evicted due to AdmissionCheck in Retry state: \"prov\" (Retrying after failure: Failed (attempt 1))";
    String rejected = "The workload is deactivated due to AdmissionCheck in Rejected state: \"prov\" (Failed after 1 "
        + "retries)";
    assertEquals(String.join("\n",
        "QuotaReserved true QuotaReserved: Quota reserved in ClusterQueue ml",
        "Admitted false UnsatisfiedAdmissionChecks: The workload has not all checks ready",
        "Evicted true AdmissionCheck: " + retry,
        "Requeued false AdmissionCheck: " + retry,
        "QuotaReserved false PendingEvaluation: " + retry,
        "Admitted false NoReservation: The workload has no reservation",
        "Requeued true BackoffFinished: The workload backoff was finished",
        "QuotaReserved true QuotaReserved: Quota reserved in ClusterQueue ml",
        "Evicted false QuotaReserved: Previously: " + retry,
        "Admitted false UnsatisfiedAdmissionChecks: The workload has not all checks ready",
        "Evicted true DeactivatedDueToAdmissionCheck: " + rejected,
        "Requeued false DeactivatedDueToAdmissionCheck: " + rejected,
        "QuotaReserved false PendingEvaluation: " + rejected,
        "Admitted false NoReservation: The workload has no reservation",
        "QuotaReserved false Deactivated: The workload is deactivated"), story(r, "j"));
    assertEquals("DEACTIVATED", byId(r).get("j").state());
  }

  @Test
  void stoppedAndRestartedClusterQueue_useKueuesReasonsAndMessages() {
    Specs s = queue(8, QueueingStrategy.BEST_EFFORT_FIFO, PreemptionSpec.NEVER, List.of());
    s.pool("gpu", 1, 64_000, 8);
    s.job("j", "ml", 0, 0, 1, 8, 60 * MIN);
    s.job("late", "ml", 15 * MIN, 0, 1, 8, 10 * MIN);
    s.timeline.add(batchsim.core.model.TimelineEvent.once(10 * MIN,
        new batchsim.core.model.ClusterAction.StopQueue("ml", null, batchsim.core.model.ClusterAction.StopPolicy.HOLD_AND_DRAIN)));
    s.timeline.add(batchsim.core.model.TimelineEvent.once(20 * MIN,
        new batchsim.core.model.ClusterAction.StopQueue("ml", null, batchsim.core.model.ClusterAction.StopPolicy.NONE)));
    RunResult r = new Simulation(s.build()).explain(true).checked(true).run();
    String j = story(r, "j");
    assertTrue(j.contains("PodsReady true Started: All pods reached readiness and the workload is running"), j);
    assertTrue(j.contains("Evicted true ClusterQueueStopped: The ClusterQueue is stopped\n"
        + "Requeued false ClusterQueueStopped: The ClusterQueue is stopped\n"
        + "QuotaReserved false PendingEvaluation: The ClusterQueue is stopped"), j);
    assertTrue(j.contains("Requeued true ClusterQueueRestarted: The ClusterQueue was restarted after being stopped"), j);
    assertTrue(j.contains("Evicted false QuotaReserved: Previously: The ClusterQueue is stopped"), j);
    assertTrue(j.endsWith("Finished true Succeeded: Job finished successfully"), j);
    assertTrue(story(r, "late").startsWith("QuotaReserved false Suspended: ClusterQueue ml is inactive"),
        story(r, "late"));
  }

  // ------------------------------------------------------------------ defect 3

  /** One 8-GPU node, quota 16: a job of two 8-GPU pods reserves quota but only one pod ever runs. */
  private static Specs neverReady(QueueingStrategy strategy) {
    Specs s = queue(16, strategy, PreemptionSpec.NEVER, List.of());
    s.pool("gpu", 1, 64_000, 8);
    s.job("stuck", "ml", 0, 0, 2, 8, 10 * MIN);
    return s;
  }

  @Test
  void podsReadyTimeout_backoffCountsFromTheEviction_thenTheLimitDeactivates() {
    Specs s = neverReady(QueueingStrategy.BEST_EFFORT_FIFO);
    // 30 s for the pods to terminate; backoff 60 s doubling; two requeues allowed.
    s.kueue = waitForPodsReady(30_000, RequeuingTimestamp.EVICTION,
        new WaitForPodsReady(true, 5 * MIN, 5 * MIN, MIN, 60 * MIN, 2, false));
    RunResult r = new Simulation(s.build()).explain(true).checked(true).run();
    WorkloadRecord stuck = byId(r).get("stuck");
    // Timeouts at 5 m (requeueAt 6 m), 11 m (requeueAt 11 m + 2 m = 13 m), 18 m: count+1 > 2 deactivates.
    assertEquals("DEACTIVATED", stuck.state(), "stays in workloads.csv, inactive");
    assertEquals(3, stuck.evictions());
    assertEquals(13 * MIN, stuck.quotaReservedMs(), "backoff from the eviction, not from the pods' end");
    List<Decision> evicted = log(r, "stuck", "Evicted").stream().filter(Decision::status).toList();
    assertEquals(List.of("PodsReadyTimeout", "PodsReadyTimeout", "DeactivatedDueToRequeuingLimitExceeded"),
        evicted.stream().map(Decision::reason).toList());
    assertEquals("Exceeded the PodsReady timeout default/stuck", evicted.get(0).message());
    assertEquals("The workload is deactivated due to exceeding the maximum number of re-queuing retries",
        evicted.get(2).message());
    List<Decision> requeued = log(r, "stuck", "Requeued");
    assertEquals(List.of("PodsReadyTimeout/false", "BackoffFinished/true", "PodsReadyTimeout/false",
        "BackoffFinished/true", "DeactivatedDueToRequeuingLimitExceeded/false"),
        requeued.stream().map(d -> d.reason() + "/" + d.status()).toList());
    assertEquals(List.of(6 * MIN, 13 * MIN), requeued.stream().filter(Decision::status).map(Decision::timeMs).toList());
    Decision last = r.decisions().get("stuck").get(r.decisions().get("stuck").size() - 1);
    assertEquals(List.of("QuotaReserved", "Deactivated", "The workload is deactivated"),
        List.of(last.condition(), last.reason(), last.message()));
    // Kueue's metrics: the timeouts never saw ready pods (WaitForStart); the limit deactivates with its cause.
    var m = r.metricSamples().end();
    String ml = "{cluster_queue=\"ml\",priority_class=\"\",";
    assertEquals(2.0, m.get("kueue_evicted_workloads_total" + ml
        + "reason=\"PodsReadyTimeout\",replica_role=\"standalone\",underlying_cause=\"WaitForStart\"}"));
    assertEquals(1.0, m.get("kueue_evicted_workloads_once_total" + ml
        + "reason=\"PodsReadyTimeout\",replica_role=\"standalone\",underlying_cause=\"WaitForStart\"}"));
    assertEquals(1.0, m.get("kueue_evicted_workloads_total" + ml
        + "reason=\"Deactivated\",replica_role=\"standalone\",underlying_cause=\"RequeuingLimitExceeded\"}"));
    assertEquals(60.0, m.get("kueue_workload_eviction_latency_seconds_sum{cluster_queue=\"ml\","
        + "reason=\"PodsReadyTimeout\",replica_role=\"standalone\"}"), "30 s termination, twice");
    assertTrue(m.keySet().stream().noneMatch(k -> k.startsWith("kueue_pods_ready_to_evicted_time_seconds")),
        "pods never ready");
  }

  /** The stuck job is evicted at 5 m; "next" (created at 1 m) waits in the StrictFIFO heap with it. */
  private static String firstAfterTimeout(RequeuingTimestamp ts) {
    Specs s = neverReady(QueueingStrategy.STRICT_FIFO);
    s.job("next", "ml", MIN, 0, 2, 8, 10 * MIN);
    s.kueue = waitForPodsReady(0, ts, new WaitForPodsReady(true, 5 * MIN, 5 * MIN, 0, 60 * MIN, -1, false));
    s.horizon = 7 * MIN;
    RunResult r = new Simulation(s.build()).checked(true).run();
    return r.workloads().stream().filter(w -> w.quotaReservedMs() == 5 * MIN).map(WorkloadRecord::id)
        .findFirst().orElse("none");
  }

  @Test
  void requeuingTimestamp_evictionPutsTheRequeuedJobBehind_creationKeepsItsPlace() {
    assertEquals("next", firstAfterTimeout(RequeuingTimestamp.EVICTION));
    assertEquals("stuck", firstAfterTimeout(RequeuingTimestamp.CREATION));
  }

  @Test
  void blockAdmission_admitsOneWorkloadAtATime_untilThePodsOfTheAdmittedAreReady() {
    Specs s = queue(64, QueueingStrategy.BEST_EFFORT_FIFO, PreemptionSpec.NEVER, List.of());
    s.pool("gpu", 8, 64_000, 8);
    for (int i = 0; i < 6; i++) {
      s.job("j" + i, "ml", 0, 0, 1, 8, 60 * MIN);
    }
    s.podScheduling = new PodSchedulingConfig(ScoringStrategy.LEAST_ALLOCATED, 2 * MIN);
    s.kueue = waitForPodsReady(0, RequeuingTimestamp.EVICTION,
        new WaitForPodsReady(true, 30 * MIN, 30 * MIN, MIN, 60 * MIN, -1, true));
    RunResult r = new Simulation(s.build()).explain(true).checked(true).run();
    Map<String, WorkloadRecord> w = byId(r);
    for (int i = 0; i < 6; i++) {
      assertEquals(2 * MIN * i, w.get("j" + i).quotaReservedMs(), "j" + i + ": one admission per pod start-up");
    }
    assertTrue(log(r, "j1", "QuotaReserved").stream().anyMatch(d -> !d.status()
        && d.reason().equals("WaitingForPodsReady")
        && d.message().equals("waiting for all admitted workloads to be in PodsReady condition")));

    s.kueue = waitForPodsReady(0, RequeuingTimestamp.EVICTION,
        new WaitForPodsReady(true, 30 * MIN, 30 * MIN, MIN, 60 * MIN, -1, false));
    RunResult free = new Simulation(s.build()).checked(true).run();
    assertTrue(free.workloads().stream().allMatch(x -> x.quotaReservedMs() == 0), "without blockAdmission");
  }
}
