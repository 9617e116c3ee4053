package batchsim.scenarios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --limits} on the commands that validate or run scenarios; refusals exit 2 and write nothing. */
class LimitsCliTest {
  private static final String SCENARIO = """
      name: wide
      horizon: 1h
      cluster:
        nodePools:
          - {name: cpu, count: 300000, allocatable: {cpu: 32, memory: 128Gi}}
      resourceFlavors:
        - {name: std}
      clusterQueues:
        - name: cq
          resourceGroups:
            - coveredResources: [cpu, memory]
              flavors:
                - name: std
                  resources: [{name: cpu, nominalQuota: 96}, {name: memory, nominalQuota: 384Gi}]
      localQueues:
        - {name: main, clusterQueue: cq}
      workloads:
        list:
          - {name: one, queue: main, runtime: 1m, podSets: [{requests: {cpu: 1}}]}
      """;
  private static final String REFUSAL = ":5:26: cluster.nodePools[0].count: the run would make 300,000 nodes, more "
      + "than the limit of 200,000; lower node pool counts, addNodes counts or repetitions, or autoscaling max, or "
      + "raise the limit with --limits nodes=300000";

  @TempDir
  Path tmp;

  private Path scenario(String text) throws Exception {
    Path f = tmp.resolve("wide.yaml");
    Files.writeString(f, text);
    return f;
  }

  @Test
  void validate_overTheLimit_exit2_andRaisedLimitPasses() throws Exception {
    Path f = scenario(SCENARIO);
    Cli.Result r = Cli.run("validate", f.toString());
    assertEquals(2, r.exit(), r.err());
    assertEquals(f + REFUSAL + "\n", r.err());
    Cli.Result ok = Cli.run("validate", f.toString(), "--limits", "nodes=5e5,memory=off");
    assertEquals(0, ok.exit(), ok.err());
  }

  @Test
  void run_overTheLimit_exit2_andNothingWritten() throws Exception {
    Path f = scenario(SCENARIO);
    Path out = tmp.resolve("out");
    Cli.Result r = Cli.run("run", f.toString(), "--out", out.toString(), "--quiet");
    assertEquals(2, r.exit(), r.err());
    assertEquals(f + REFUSAL + "\n", r.err());
    assertFalse(Files.exists(out));
    assertEquals(2, Cli.run("check", f.toString(), "--out", out.toString()).exit());
    assertFalse(Files.exists(out));
  }

  @Test
  void sweep_aCellOverTheLimit_exit2_andNothingWritten() throws Exception {
    Path f = scenario(SCENARIO.replace("count: 300000", "count: 1") + "matrix:\n  nodePools.cpu.count: [2, 300000]\n");
    Path out = tmp.resolve("sweep");
    Cli.Result r = Cli.run("sweep", f.toString(), "--out", out.toString(), "--quiet");
    assertEquals(2, r.exit(), r.err());
    assertTrue(r.err().contains("the run would make 300,000 nodes, more than the limit of 200,000"), r.err());
    assertFalse(Files.exists(out));
  }

  @Test
  void badLimits_exit2_beforeReadingTheScenario() {
    Cli.Result r = Cli.run("run", "no-such.yaml", "--limits", "nodes=many");
    assertEquals(2, r.exit());
    assertEquals("batchsim: --limits nodes=many: expected a whole number of at least 1 (e.g. 500000 or 2e7), or off\n",
        r.err());
  }
}
