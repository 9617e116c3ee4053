package batchsim.scenarios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** validate refuses what sweep refuses; a run that can never finish its work says so. */
class SemanticCliTest {
  @TempDir
  Path tmp;

  /** One 8-cpu node, 4 cpu of quota; cases set the pod's cpu (line 9). */
  private static final String BASE = """
      name: t
      horizon: 1h
      cluster: {nodePools: [{name: p, count: 1, allocatable: {cpu: 8}}]}
      resourceFlavors: [{name: f}]
      clusterQueues: [{name: cq, resourceGroups: [{coveredResources: [cpu], flavors: [{name: f,
        resources: [{name: cpu, nominalQuota: 4}]}]}]}]
      localQueues: [{name: lq, clusterQueue: cq}]
      workloads:
        classes: [{name: w, queue: lq, arrival: {every: 10m}, count: 2, runtime: 5m, podSets: [{requests: {cpu: CPU}}]}]
      """;

  private Path write(String name, String text) throws Exception {
    Path f = tmp.resolve(name);
    Files.writeString(f, text);
    return f;
  }

  @Test
  void validate_refusesAMatrixValueThatSweepRefuses() throws Exception {
    Path f = write("m.yaml", BASE.replace("CPU", "1") + "matrix:\n  nodePools.p.count: [1, -1]\n");
    Cli.Result v = Cli.run("validate", f.toString());
    Cli.Result s = Cli.run("sweep", f.toString(), "-q", "--out", tmp.resolve("sweep").toString());
    assertEquals(2, v.exit());
    assertEquals(List.of(f + ":11:26: cluster.nodePools[0].count: must be >= 0, got -1 (in sweep cell "
        + "nodePools.p.count=-1)"), v.errLines());
    assertEquals(2, s.exit());
    assertEquals(v.errLines(), s.errLines());
    assertFalse(Files.exists(tmp.resolve("sweep")));
  }

  @Test
  void validate_acceptsAGoodMatrix() throws Exception {
    Path f = write("m.yaml", BASE.replace("CPU", "1") + "matrix:\n  nodePools.p.count: [1, 2]\n");
    Cli.Result v = Cli.run("validate", f.toString());
    assertEquals(0, v.exit(), v.err());
  }

  @Test
  void run_thatStalls_saysWhyOnce_andKeepsItsOutputs() throws Exception {
    Path f = write("s.yaml", BASE.replace("CPU", "6"));
    Cli.Result r = Cli.run("run", f.toString(), "-q", "--out", tmp.resolve("out").toString());
    assertEquals(0, r.exit(), r.err());
    assertEquals(1, r.errLines().size(), r.err());
    String line = r.errLines().get(0);
    assertTrue(line.startsWith("batchsim: warning: at 20m"), line);
    assertTrue(line.contains("nothing can change any more: 2 workloads pending (first: w-1: couldn't assign flavors "
        + "to pod set main: insufficient quota for cpu in flavor f"), line);
    assertTrue(Files.exists(tmp.resolve("out/summary.json")));
  }

  @Test
  void run_thatStallsUnderVolcano_saysWhy() throws Exception {
    Path f = write("v.yaml", BASE.replace("CPU", "6")
        + "scheduler: volcano\nvolcano:\n  queues: [{name: cq, weight: 1, capability: {cpu: 4}}]\n");
    Cli.Result r = Cli.run("run", f.toString(), "-q", "--out", tmp.resolve("out").toString());
    assertEquals(0, r.exit(), r.err());
    assertEquals(1, r.errLines().size(), r.err());
    assertTrue(r.errLines().get(0).contains("nothing can change any more: 2 workloads pending (first: w-1: "
        + "Unschedulable: queue resource quota insufficient in cq"), r.err());
  }

  @Test
  void run_thatFinishes_saysNothing() throws Exception {
    Path f = write("ok.yaml", BASE.replace("CPU", "2"));
    Cli.Result r = Cli.run("run", f.toString(), "-q", "--out", tmp.resolve("out").toString());
    assertEquals(0, r.exit(), r.err());
    assertEquals("", r.err());
  }
}
