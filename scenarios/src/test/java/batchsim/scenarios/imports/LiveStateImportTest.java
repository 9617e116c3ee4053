package batchsim.scenarios.imports;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.core.metrics.RunResult;
import batchsim.core.metrics.WorkloadRecord;
import batchsim.core.model.Eviction;
import batchsim.core.model.Reservation;
import batchsim.core.model.WorkloadSpec;
import batchsim.core.sim.Simulation;
import batchsim.scenarios.LoadedScenario;
import batchsim.scenarios.ScenarioLoader;
import batchsim.workloads.WorkloadList;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kueue's Workload objects as the run's starting state: the bundled snapshot of a small GPU cluster
 * (scenarios/examples/cluster-snapshot, as {@code kubectl get -A -o yaml} prints it) imported and run.
 */
class LiveStateImportTest {
  static final Path SNAPSHOT = Path.of("examples/cluster-snapshot");
  private static final long MIN = 60_000;

  @TempDir
  Path tmp;

  static List<Path> snapshotFiles() throws IOException {
    try (Stream<Path> s = Files.list(SNAPSHOT)) {
      return s.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
    }
  }

  private Map<String, WorkloadSpec> listed(LoadedScenario s) {
    return s.spec().workloadSources().stream().filter(w -> w instanceof WorkloadList)
        .flatMap(w -> ((WorkloadList) w).workloads().stream())
        .collect(Collectors.toMap(WorkloadSpec::id, Function.identity()));
  }

  private LoadedScenario imported(Instant snapshot) throws Exception {
    Path out = tmp.resolve("live.yaml");
    ScenarioImport.Result r = ScenarioImport.run(snapshotFiles(), out,
        new ScenarioImport.Options(null, null, null, 8, 50, null, List.of(), snapshot));
    assertEquals(List.of(), r.errors());
    Files.writeString(out, r.yaml());
    return ScenarioLoader.load(out);
  }

  @Test
  void workloadsBecomeTheRunsStartingState() throws Exception {
    LoadedScenario s = imported(Instant.parse("2026-11-26T09:30:00Z"));
    Map<String, WorkloadSpec> w = listed(s);
    assertEquals(List.of("ml/job-eval-c-1647a", "ml/job-stuck-f-0cc65", "ml/job-sweep-e-1c059", "ml/job-train-a-c5245",
        "ml/job-train-b-53e71"),
        w.keySet().stream().sorted().toList(), "the finished Workload is history; Jobs and Pods behind Workloads are "
            + "not templates");
    Reservation a = w.get("ml/job-train-a-c5245").reservation();
    assertNotNull(a);
    assertEquals(-42 * MIN, a.reservedAtMs(), "QuotaReserved's lastTransitionTime, relative to the snapshot");
    assertEquals(-40 * MIN, a.startedAtMs(), "PodsReady's");
    assertTrue(a.admitted());
    assertEquals(Map.of("cpu", "a100", "memory", "a100", "nvidia.com/gpu", "a100"), a.flavors().get(0));
    assertEquals(1, a.nodes().size());
    assertEquals(2, a.nodes().get(0).size(), "both pods of train-a run on one node");
    assertEquals(a.nodes().get(0).get(0), a.nodes().get(0).get(1));
    Reservation b = w.get("ml/job-train-b-53e71").reservation();
    assertTrue(!b.nodes().get(0).get(0).equals(b.nodes().get(0).get(1)), "train-b's pods run on two nodes");
    assertEquals(1000, w.get("ml/job-train-b-53e71").priority(), "spec.priority as Kueue resolved it");
    WorkloadSpec pending = w.get("ml/job-eval-c-1647a");
    assertNull(pending.reservation());
    assertEquals(-20 * MIN, pending.createdMs(), "a pending Workload keeps its creation time");
    assertEquals(-90 * MIN, w.get("ml/job-sweep-e-1c059").createdMs());
    assertEquals(new Eviction(-15 * MIN, "Preempted", "InClusterQueue", 0, Eviction.NO_REQUEUE_AT),
        w.get("ml/job-sweep-e-1c059").live());
    assertEquals(new Eviction(-2 * MIN, "PodsReadyTimeout", null, 1, 3 * MIN), w.get("ml/job-stuck-f-0cc65").live(),
        "status.requeueState: back in the queue 3 minutes after the snapshot");
    assertEquals(2, pending.podSets().get(0).count());
  }

  @Test
  void withoutANodeListEachFlavorGetsNodesThatFitItsPodsAndQuota() throws Exception {
    Path out = tmp.resolve("no-nodes.yaml");
    ScenarioImport.Result r = ScenarioImport.run(List.of(SNAPSHOT.resolve("kueue.yaml"), SNAPSHOT.resolve("workloads.yaml")),
        out, ScenarioImport.Options.DEFAULT);
    assertEquals(List.of(), r.errors());
    LoadedScenario s = ScenarioLoader.parse(out.toString(), r.yaml());
    var pool = s.spec().nodePools().get(0);
    assertEquals("a100", pool.name());
    assertEquals(Map.of("node.kubernetes.io/instance-type", "a2-highgpu-8g"), pool.labels(), "the flavor's node labels");
    assertEquals(8, pool.allocatable().get(s.spec().resources().require("nvidia.com/gpu")));
    assertEquals(88_000, pool.allocatable().get(s.spec().resources().require("cpu")), "the largest pod's 88 cpu");
    assertEquals(7, pool.count(), "5000Gi of memory quota in 768Gi nodes");
    RunResult run = new Simulation(s.spec()).checked(true).run();
    assertEquals(run.overall().arrived(), run.overall().finished(), "the generated nodes run every workload");
  }

  /** The bundled example is this import's output (paths as given from the repository's root). */
  @Test
  void theBundledLiveClusterExampleIsWhatImportMakesOfTheSnapshot() throws Exception {
    Path example = Path.of("examples/live-cluster.yaml");
    ScenarioImport.Result r = ScenarioImport.run(snapshotFiles(), example,
        new ScenarioImport.Options("live-cluster", null, null, 8, 50));
    assertEquals(List.of(), r.errors());
    assertEquals(Files.readString(example).replace("scenarios/examples/", "examples/"), r.yaml(), "regenerate it: "
        + "bin/batchsim import scenarios/examples/cluster-snapshot/*.yaml --name live-cluster -o "
        + "scenarios/examples/live-cluster.yaml --force");
  }

  /** Without its Pods, an admitted Workload's v1beta2 topology assignment (slices) says where its pods run. */
  @Test
  void aTopologyAssignmentPlacesPodsWhoseNodesAreNotExported() throws Exception {
    Path out = tmp.resolve("tas.yaml");
    ScenarioImport.Result r = ScenarioImport.run(List.of(Path.of("src/test/resources/imports/live/tas-workload.yaml")),
        out, ScenarioImport.Options.DEFAULT);
    assertEquals(List.of(), r.errors());
    LoadedScenario s = ScenarioLoader.parse(out.toString(), r.yaml());
    Reservation w = listed(s).get("ml/job-rack-train-4a2f1").reservation();
    String a = w.nodes().get(0).get(0);
    assertEquals(List.of(a, a, w.nodes().get(0).get(2)), w.nodes().get(0), "2 pods on node-a, 1 on node-b");
    assertTrue(r.yaml().contains("node-a=" + a), "the comment maps node-a to " + a);
    RunResult run = new Simulation(s.spec()).checked(true).run();
    assertEquals(1, run.overall().finished());
  }

  @Test
  void aMalformedTimeIsOneLocatedError() throws Exception {
    Path bad = tmp.resolve("workloads.yaml");
    Files.writeString(bad, Files.readString(SNAPSHOT.resolve("workloads.yaml"))
        .replaceFirst("creationTimestamp: '2026-11-26T08:45:00Z'", "creationTimestamp: 'yesterday'"));
    ScenarioImport.Result r = ScenarioImport.run(List.of(SNAPSHOT.resolve("kueue.yaml"), bad), tmp.resolve("o.yaml"),
        ScenarioImport.Options.DEFAULT);
    assertEquals(List.of(bad + ":8:24: items[0].metadata.creationTimestamp: expected an RFC 3339 time such as "
        + "2026-11-26T09:30:00Z, got 'yesterday'"), r.errors());
  }

  @Test
  void theSnapshotTimeIsTheLatestTimeTheObjectsRecord() throws Exception {
    // the nodes' kubelet heartbeats are the latest: one minute before 09:30
    Map<String, WorkloadSpec> w = listed(imported(null));
    assertEquals(-19 * MIN, w.get("ml/job-eval-c-1647a").createdMs());
  }

  @Test
  void theImportedClusterRunsOnFromWhereItWas() throws Exception {
    LoadedScenario s = imported(Instant.parse("2026-11-26T09:30:00Z"));
    RunResult r = new Simulation(s.spec()).checked(true).run();
    Map<String, WorkloadRecord> rec = r.workloads().stream()
        .collect(Collectors.toMap(WorkloadRecord::id, Function.identity()));
    WorkloadRecord a = rec.get("ml/job-train-a-c5245");
    assertEquals(-40 * MIN, a.startedMs());
    assertTrue(a.finishedMs() >= 0);
    // 24 of 32 GPUs are held at the start: eval-c (16 GPUs) waits for a restored workload to finish
    WorkloadRecord eval = rec.get("ml/job-eval-c-1647a");
    long firstFinish = Math.min(a.finishedMs(), rec.get("ml/job-train-b-53e71").finishedMs());
    assertTrue(eval.quotaReservedMs() >= firstFinish, eval + " vs " + firstFinish);
    assertTrue(rec.get("ml/job-stuck-f-0cc65").quotaReservedMs() >= 3 * MIN, "it waits out its backoff");
    assertEquals(5, r.overall().arrived());
    assertEquals(5, r.overall().finished());
  }
}
