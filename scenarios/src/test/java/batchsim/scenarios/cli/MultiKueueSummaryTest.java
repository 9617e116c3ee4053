package batchsim.scenarios.cli;

import static batchsim.scenarios.cli.Cli.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** summary.json and the text summary tell a worker's won workloads from every copy its Kueue admitted. */
class MultiKueueSummaryTest {
  @TempDir Path tmp;

  @Test
  void wonIsNotTheWorkersOwnAdmittedCount() throws Exception {
    // worker2 admits its one copy at 1m1s and wins; lost at 2m, the workload is requeued and reserved again;
    // back at 3m the same copy (still Admitted) wins a second time.
    Cli.Result r = run("run", "stories/multikueue/requeue-when-admitting-worker-lost.yaml", "--set", "expect=",
        "--set", "horizon=30m", "--out", tmp.toString());
    assertEquals(0, r.exit(), r.err());
    assertTrue(r.out().contains("  WORKER       COPIES  REMOVED  WON  "), r.out());
    JsonNode worker2 = new ObjectMapper().readTree(tmp.resolve("summary.json").toFile()).get("clusters").get(1);
    assertEquals("worker2", worker2.get("name").asText());
    assertEquals(2, worker2.get("won").asLong());
    assertEquals(1, worker2.get("counts").get("admitted").asLong());
    assertTrue(!worker2.has("admitted"));
  }
}
