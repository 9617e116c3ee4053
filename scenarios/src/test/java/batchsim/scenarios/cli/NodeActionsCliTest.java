package batchsim.scenarios.cli;

import static batchsim.scenarios.cli.Cli.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import batchsim.scenarios.cli.Cli.Result;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A node action naming a node that is gone when it is applied: located error, exit 2, nothing written. */
class NodeActionsCliTest {
  @TempDir
  Path tmp;

  private static final String SCENARIO = String.join("\n",
      "name: t",
      "cluster:",
      "  nodePools:",
      "    - {name: gpu, count: 2, allocatable: {cpu: 8, memory: 8Gi, nvidia.com/gpu: 8}}",
      "resourceFlavors: [{name: a100}]",
      "clusterQueues:",
      "  - name: team-a",
      "    resourceGroups:",
      "      - coveredResources: [nvidia.com/gpu]",
      "        flavors: [{name: a100, resources: [{name: nvidia.com/gpu, nominalQuota: 8}]}]",
      "localQueues: [{name: a, clusterQueue: team-a}]",
      "volcano: {queues: [{name: team-a}]}",
      "workloads:",
      "  list: [{name: w, queue: a, runtime: 1h, podSets: [{requests: {nvidia.com/gpu: 1}}]}]",
      "events:",
      "  - {at: 10m, deleteNodes: {nodes: [gpu-1]}}",
      "  - {at: 20m, taintNodes: {nodes: [gpu-0, gpu-1], key: k, effect: NoSchedule}}",
      "");

  @Test
  void aDeletedNodeNamedLater_stopsTheRunWithItsLocation() throws Exception {
    Path file = Files.writeString(tmp.resolve("t.yaml"), SCENARIO);
    Path out = tmp.resolve("out");
    for (String scheduler : List.of("kueue", "volcano")) {
      Result r = scheduler.equals("kueue") ? run("run", file.toString(), "--out", out.toString(), "--quiet")
          : run("run", file.toString(), "--set", "scheduler=volcano", "--out", out.toString(), "--quiet");
      assertEquals(2, r.exit(), r.err());
      assertEquals(List.of(file + ":17:5: events[1]: at 20m: node gpu-1 does not exist: it was removed at 10m"),
          r.errLines(), scheduler);
      assertFalse(Files.exists(out), "no output directory");
    }
  }
}
