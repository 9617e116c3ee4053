package batchsim.scenarios.cli;

import static batchsim.scenarios.cli.Cli.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.scenarios.cli.Cli.Result;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Elastic jobs from the scenario side: the gate and Kueue's refusals, located; slices in the outputs. */
class ElasticWorkloadsTest {
  static final String EXAMPLE = "examples/elastic-workloads.yaml";

  @TempDir
  Path tmp;

  @Test
  void gateOff_refusesThePatternAndTheAction_atTheirFields() {
    Result r = run("run", EXAMPLE, "--set", "kueue.featureGates.ElasticJobsViaWorkloadSlices=false", "--out",
        tmp.resolve("out").toString());
    assertEquals(2, r.exit(), r.err());
    List<String> lines = r.errLines();
    assertTrue(lines.stream().anyMatch(l -> l.startsWith(EXAMPLE + ":65:9: workloads.classes[0].scaling: scaling a "
        + "running job needs Kueue's feature gate ElasticJobsViaWorkloadSlices")), r.err());
    assertTrue(lines.stream().anyMatch(l -> l.startsWith(EXAMPLE + ":76:29: events[0].scaleWorkload:")), r.err());
    assertFalse(Files.exists(tmp.resolve("out")), "nothing written");
  }

  @Test
  void aClassWithMinCount_cannotScale() throws IOException {
    Path f = tmp.resolve("s.yaml");
    Files.writeString(f, """
        name: s
        horizon: 1h
        cluster: {nodePools: [{name: n, count: 1, allocatable: {cpu: 8}}]}
        resourceFlavors: [{name: f}]
        clusterQueues:
          - name: cq
            resourceGroups: [{coveredResources: [cpu], flavors: [{name: f, resources: [{name: cpu, nominalQuota: 8}]}]}]
        localQueues: [{namespace: ns, name: q, clusterQueue: cq}]
        workloads:
          classes:
            - name: c
              queue: ns/q
              arrival: {every: 10m}
              runtime: 5m
              podSets: [{count: 4, minCount: 2, requests: {cpu: 1}}]
              scaling: [{after: 1m, pods: 2}]
        """);
    Result r = run("validate", f.toString());
    assertEquals(2, r.exit(), r.err());
    assertTrue(r.err().contains(":16:16: workloads.classes[0].scaling: the class's pod set has minCount (partial "
        + "admission)"), r.err());
  }

  @Test
  void theExample_recordsReplacedSlices_andTheirReplacements() throws IOException {
    Path out = tmp.resolve("out");
    Result r = run("run", EXAMPLE, "--check", "--explain", "--out", out.toString());
    assertEquals(0, r.exit(), r.err());
    List<String> rows = Files.readAllLines(out.resolve("workloads.csv"));
    String replaced = rows.stream().filter(l -> l.startsWith("train-1,")).findFirst().orElseThrow();
    assertTrue(replaced.endsWith(",FINISHED,cpu=a100;memory=a100;nvidia.com/gpu=a100,WorkloadSliceReplaced: "
        + "Replaced to accommodate a workload (train-1-slice-2) due to workload slice aggregation"), replaced);
    assertTrue(rows.stream().anyMatch(l -> l.startsWith("train-1-slice-2,train,ml/train,shared,")), "the new slice");
    assertTrue(Files.readString(out.resolve("decisions.csv"))
        .contains("train-1,2920881,Finished,True,WorkloadSliceReplaced,"), "the old slice's Finished condition");
  }

  private static final String RES = "src/test/resources/elastic/";

  /** The workloads.csv row of {@code id}, split. */
  private static String[] row(Path out, String id) throws IOException {
    return Files.readAllLines(out.resolve("workloads.csv")).stream().filter(l -> l.startsWith(id + ","))
        .findFirst().orElseThrow().split(",", -1);
  }

  @Test
  void aReplacementAdmittedWhileTheOldSliceIsEvicted_leavesItsQuotaAndFinishToTheEviction() throws IOException {
    Path out = tmp.resolve("out");
    // --check: the world's books and Kueue's agree on who holds quota; expect: one finish, usage 4 then 3
    Result r = run("run", RES + "evict-adopt.yaml", "--check", "--out", out.toString());
    assertEquals(0, r.exit(), r.err() + r.out());
    List<String> series = Files.readAllLines(out.resolve("timeseries.csv"));
    int col = List.of(series.get(0).split(",")).indexOf("holding:default");
    String at8m = series.stream().filter(l -> l.startsWith("480000,")).findFirst().orElseThrow();
    assertEquals("2", at8m.split(",")[col], "h and a-slice-2 hold quota once a's eviction is over");
    assertEquals("420000", row(out, "a")[10], "a finishes when its pods are gone");
  }

  @Test
  void movingAJobWhoseReplacementWaits_isRefused_asKueueRefusesAQueueChangeOfARunningJob() {
    Result r = run("run", RES + "chain.yaml", "--out", tmp.resolve("out").toString());
    assertEquals(2, r.exit(), r.err());
    assertTrue(r.err().contains("chain.yaml:31:5: events[1]: at 2m: workload a: metadata.labels[kueue.x-k8s.io/"
        + "queue-name]: Invalid value: \"q2\": field is immutable (its job runs on it while a-slice-2 waits"), r.err());
  }

  @Test
  void aPriorityChange_appliesToTheWaitingReplacement_andToTheSliceItWaitsBehind() throws IOException {
    Path f = tmp.resolve("p.yaml");
    Files.writeString(f, Files.readString(Path.of(RES + "chain.yaml")).replace(
        "moveWorkload: {workload: ns/a, localQueue: ns/q2}", "setWorkloadPriority: {workload: ns/a, priority: 5}"));
    Path out = tmp.resolve("out");
    Result r = run("run", f.toString(), "--check", "--out", out.toString());
    assertEquals(0, r.exit(), r.err());
    assertEquals("RUNNING", row(out, "a")[14]);
    assertEquals("5", row(out, "a")[4], "Kueue syncWorkloadSlicePriority: the slice holding quota too");
    assertEquals("PENDING", row(out, "a-slice-2")[14]);
    assertEquals("5", row(out, "a-slice-2")[4]);
  }

  @Test
  void aRunningJobsPods_runOnAsTheNewSlices_soItEndsWhenItWouldHave() throws IOException {
    Path out = tmp.resolve("out");
    Result r = run("run", RES + "pods-run-on.yaml", "--check", "--out", out.toString());
    assertEquals(0, r.exit(), r.err());
    assertEquals("3600000", row(out, "a-slice-2")[10], "1h: its 2 pods ran on, though only 1 of 2 added pods fit");
    assertEquals("7200000", row(out, "f")[10]);
  }

  @Test
  void theGate_isReadAsABoolean_inAnySpellingYamlAccepts() {
    Result r = run("run", EXAMPLE, "--set", "kueue.featureGates.ElasticJobsViaWorkloadSlices=False", "--out",
        tmp.resolve("out").toString());
    assertEquals(2, r.exit(), r.err());
    assertTrue(r.err().contains(":65:9: workloads.classes[0].scaling: scaling a running job needs Kueue's feature gate"),
        r.err());
  }

  @Test
  void aScalingPatternUnderVolcano_isRefusedAtItsField() throws IOException {
    Path f = tmp.resolve("v.yaml");
    Files.writeString(f, """
        name: v
        horizon: 1h
        scheduler: volcano
        cluster: {nodePools: [{name: n, count: 1, allocatable: {cpu: 8}}]}
        resourceFlavors: [{name: f}]
        clusterQueues:
          - name: cq
            resourceGroups: [{coveredResources: [cpu], flavors: [{name: f, resources: [{name: cpu, nominalQuota: 8}]}]}]
        localQueues: [{namespace: ns, name: q, clusterQueue: cq}]
        volcano: {queues: [{name: cq}]}
        workloads:
          classes:
            - {name: c, queue: ns/q, arrival: {every: 10m}, runtime: 5m, podSets: [{count: 1, requests: {cpu: 1}}],
               scaling: [{after: 1m, pods: 2}]}
        """);
    Result r = run("run", f.toString(), "--out", tmp.resolve("out").toString());
    assertEquals(2, r.exit(), r.err());
    assertTrue(r.err().contains(":14:17: workloads.classes[0].scaling: scaling is Kueue's elastic jobs"), r.err());
    assertFalse(Files.exists(tmp.resolve("out")), "nothing written");
  }
}
