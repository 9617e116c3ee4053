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
}
