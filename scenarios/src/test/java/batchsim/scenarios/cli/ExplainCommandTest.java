package batchsim.scenarios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** `batchsim explain` answers "why is it pending / why was it preempted" in Kueue's words. */
class ExplainCommandTest {
  @TempDir
  Path tmp;

  private String run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = new CommandLine(new BatchsimCommand()).setOut(new PrintWriter(out)).setErr(new PrintWriter(err))
        .execute(args);
    assertEquals(0, code, err.toString());
    return out.toString();
  }

  @Test
  void explain_queuedAndPreemptedWorkloads_showKueueReasonsAndMessages() {
    Path dir = tmp.resolve("reclaim");
    run("run", "examples/reclaim.yaml", "--explain", "--quiet", "--out", dir.toString());
    String queued = run("explain", dir.toString(), "rb-train-12");
    assertTrue(queued.contains("QuotaReserved False WaitingForQuota: couldn't assign flavors to pod set main: "
        + "insufficient unused quota for nvidia.com/gpu in flavor a100, 8 more needed"), queued);
    String preempted = run("explain", dir.toString(), "ra-train-3");
    assertTrue(preempted.contains("Preempted     True  InCohortReclamation: Preempted to accommodate a workload "
        + "(UID: UNKNOWN, JobUID: UNKNOWN) due to reclamation within the cohort; preemptor path: /gpus/prod; "
        + "preemptee path: /gpus/research-a"), preempted);
  }

  @Test
  void explain_tasBlockedWorkload_showsTheTopologyThatDidNotFit() {
    Path dir = tmp.resolve("frag");
    run("run", "examples/tas/fragmentation-16-racks.yaml", "--explain", "--quiet", "--out", dir.toString());
    String blocked = run("explain", dir.toString(), "rack-job-5");
    assertTrue(blocked.contains("WaitingForQuota: couldn't assign flavors to pod set main: topology \"racks\" allows "
        + "to fit only"), blocked);
  }

  @Test
  void explain_withoutDecisionLog_pointsAtRunExplain() {
    Path dir = tmp.resolve("plain");
    run("run", "examples/regressions/sibling-queues-parent-capacity.yaml", "--quiet", "--out", dir.toString());
    String out = run("explain", dir.toString(), "right-job");
    assertTrue(out.contains("batchsim run --explain"), out);
    assertTrue(out.contains("state                    FINISHED"), out);
  }
}
