package batchsim.scenarios.eta;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.core.metrics.RunResult;
import batchsim.core.metrics.WorkloadRecord;
import batchsim.core.sim.Runs;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * {@code batchsim eta}'s answers against full runs of the same snapshot and seeds: stopping each replica once
 * the asked workloads started must not change when they got quota, were admitted and started.
 */
class EtaTest {
  static final Path SNAPSHOT = Path.of("examples/cluster-snapshot");
  static final Path FINETUNE = SNAPSHOT.resolve("new-jobs/finetune.yaml");
  static final Path PREEMPTION = Path.of("src/test/resources/imports/eta/preemption");

  @Test
  void answers_matchFullRunsOfTheSameSeeds_onTheBundledSnapshot() throws Exception {
    EtaSnapshot.Loaded loaded = EtaSnapshot.load(SNAPSHOT, List.of(FINETUNE), List.of("ml/job-eval-c-1647a"), false,
        null);
    Eta.Answer a = Eta.ask(loaded, 4, 11L);
    assertEquals(List.of("ml/finetune-llm", "ml/job-eval-c-1647a"), a.jobs().stream().map(j -> j.asked().id()).toList());
    for (Eta.Job j : a.jobs()) {
      for (Eta.ReplicaTimes r : j.replicas()) {
        WorkloadRecord full = fullRun(loaded, r.seed()).get(j.asked().id());
        assertEquals(full.quotaReservedMs(), r.reservedMs(), j.asked().id() + " seed " + r.seed());
        assertEquals(full.admittedMs(), r.admittedMs(), j.asked().id() + " seed " + r.seed());
        assertEquals(full.startedMs(), r.startedMs(), j.asked().id() + " seed " + r.seed());
        assertTrue(r.startedMs() > 0, "it waits: the ClusterQueue is full at t = 0");
      }
    }
    Eta.Job job = a.jobs().get(0);
    assertTrue(job.pendingAtSnapshot().get(0).what().startsWith("WaitingForQuota: couldn't assign flavors to pod set "
        + "main: insufficient unused quota for cpu in flavor a100"), job.pendingAtSnapshot().toString());
    assertEquals(4, job.pendingAtSnapshot().get(0).replicas());
    assertFalse(job.releasedBy().isEmpty(), "some finish let it in");
    assertTrue(job.preempts().isEmpty(), "priority 0 preempts nothing");
    // ml/job-train-b runs 4h (its annotation) since 2h59m before t = 0: its finish lets job-eval-c in, always
    Eta.Job eval = a.jobs().get(1);
    assertEquals(List.of(new Eta.Count("ml/job-train-b-53e71", 4)), eval.releasedBy());
    assertEquals(61 * 60_000 + 1_000, eval.reserved().p50(), "1h1m, plus Kueue's 1 s inadmissible requeue");
  }

  @Test
  void aJobThatPreempts_namesItsVictim_andMatchesFullRuns() throws Exception {
    EtaSnapshot.Loaded loaded = EtaSnapshot.load(PREEMPTION.resolve("snapshot.yaml"),
        List.of(PREEMPTION.resolve("urgent-job.yaml")), List.of(), false, null);
    assertTrue(loaded.notes().stream().anyMatch(n -> n.startsWith("dropped the scenario's 1 generated classes")),
        loaded.notes().toString());
    Eta.Answer a = Eta.ask(loaded, 3, null);
    Eta.Job j = a.jobs().get(0);
    assertEquals(List.of(new Eta.Count("ml/train-low-b", 3)), j.preempts());
    assertEquals(30_000, j.reserved().p50(), "the victim's 30 s grace period");
    for (Eta.ReplicaTimes r : j.replicas()) {
      assertEquals(fullRun(loaded, r.seed()).get("ml/urgent-eval").startedMs(), r.startedMs());
    }
    assertEquals(7, a.firstSeed(), "the scenario's seed");
  }

  @Test
  void arrivalsScenario_keepsTheScenariosClasses() throws Exception {
    EtaSnapshot.Loaded loaded = EtaSnapshot.load(PREEMPTION.resolve("snapshot.yaml"),
        List.of(PREEMPTION.resolve("urgent-job.yaml")), List.of(), true, null);
    assertTrue(loaded.arrivals());
    assertTrue(loaded.notes().stream().noneMatch(n -> n.startsWith("dropped")), loaded.notes().toString());
    assertEquals(1, loaded.scenario().spec().workloadSources().stream()
        .filter(w -> w instanceof batchsim.workloads.WorkloadClass).count(), "the background class");
    Eta.Job j = Eta.ask(loaded, 2, null).jobs().get(0);
    assertEquals(List.of(new Eta.Count("ml/train-low-b", 2)), j.preempts());
  }

  /** Against kubectl output, an asked job's runtime comes from its queue's finished Workloads, as in the import. */
  @Test
  void aJobWithoutARuntime_learnsItFromItsQueuesHistory_andResolvesItsPriorityClass() throws Exception {
    EtaSnapshot.Loaded loaded = EtaSnapshot.load(SNAPSHOT,
        List.of(Path.of("src/test/resources/imports/eta/quick-eval.yaml")), List.of(), false, null);
    assertTrue(loaded.notes().contains("asked-about jobs' runtimes: 1 from ml/main's history (n=7, median 1h10m, "
        + "p99 3h20m)"), loaded.notes().toString());
    var job = loaded.scenario().spec().workloadSources().stream()
        .flatMap(w -> ((batchsim.workloads.WorkloadList) w).workloads().stream())
        .filter(w -> w.id().equals("ml/quick-eval")).findFirst().orElseThrow();
    assertEquals(1000, job.priority(), "WorkloadPriorityClass high of the snapshot");
  }

  @Test
  void theSameQuestion_getsTheSameAnswer() throws Exception {
    EtaSnapshot.Loaded loaded = EtaSnapshot.load(SNAPSHOT, List.of(FINETUNE), List.of(), false, null);
    String first = EtaReport.json(Eta.ask(loaded, 3, null));
    assertEquals(first, EtaReport.json(Eta.ask(loaded, 3, null)));
    assertNotEquals(first, EtaReport.json(Eta.ask(loaded, 3, 5L)));
  }

  private static Map<String, WorkloadRecord> fullRun(EtaSnapshot.Loaded loaded, long seed) {
    RunResult r = Runs.run(loaded.scenario().spec().withSeed(seed), null, false);
    return r.workloads().stream().collect(Collectors.toMap(WorkloadRecord::id, Function.identity()));
  }
}
