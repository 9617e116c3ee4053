package batchsim.core.world;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.core.metrics.Decision;
import batchsim.core.metrics.RunResult;
import batchsim.core.metrics.WorkloadRecord;
import batchsim.core.model.PreemptionSpec;
import batchsim.core.model.QuotaSpec;
import batchsim.core.model.SimulationSpec;
import batchsim.core.sim.Simulation;
import batchsim.core.sim.Specs;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Workload records stream out as workloads end (in the order they end), the live ones' at the end; a collecting
 * sink gives callers the whole list in arrival order, and both hold the same records.
 */
class StreamedWorkloadsTest {
  private static final long HOUR = 3_600_000;

  private static SimulationSpec spec() {
    Specs s = new Specs().pool("gpu", 2, 64_000, 8).flavor("a100", "gpu")
        .gpuQueue("team-a", "org", "a100", 8, QuotaSpec.UNLIMITED, QuotaSpec.UNLIMITED, PreemptionSpec.NEVER)
        .gpuQueue("team-b", "org", "a100", 8, QuotaSpec.UNLIMITED, QuotaSpec.UNLIMITED, PreemptionSpec.NEVER);
    for (int i = 0; i < 30; i++) {
      // runtimes out of arrival order, so workloads end in another order than they arrive
      s.job("j" + i, i % 2 == 0 ? "team-a" : "team-b", i * 137_000L, i % 3, 1 + i % 2, 4,
          HOUR / 4 + (i * 7 % 5) * HOUR / 6);
    }
    s.job("lost", "no-such-queue", 60_000, 0, 1, 4, HOUR);
    s.horizon = 3 * HOUR; // some are still pending or running at the end
    return s.build();
  }

  private static Simulation simulation(boolean underVolcano) {
    return (underVolcano ? new Simulation(spec(), SharedLoopTest.volcano()) : new Simulation(spec())).explain(true);
  }

  @Test
  void kueue_streamsEndedWorkloadsFirst_andKeepsTheSameRecords() {
    streamsEndedFirst(false);
  }

  @Test
  void volcano_streamsEndedWorkloadsFirst_andKeepsTheSameRecords() {
    streamsEndedFirst(true);
  }

  private static void streamsEndedFirst(boolean underVolcano) {
    List<WorkloadRecord> streamed = new ArrayList<>();
    List<List<Decision>> logs = new ArrayList<>();
    RunResult s = simulation(underVolcano).streamWorkloads((seq, r, d) -> {
      streamed.add(r);
      logs.add(d);
    }).run();
    RunResult kept = simulation(underVolcano).run();

    assertTrue(s.workloads().isEmpty(), "a streamed run keeps no records");
    assertEquals(31, streamed.size());
    assertEquals(sorted(kept.workloads()), sorted(streamed));
    for (int i = 0; i < streamed.size(); i++) {
      assertEquals(kept.decisions().get(streamed.get(i).id()), logs.get(i), streamed.get(i).id());
    }
    // finished ones in the order they finished, then the live ones, in arrival order
    List<WorkloadRecord> finished = streamed.stream().filter(r -> r.state().equals("FINISHED")).toList();
    List<WorkloadRecord> live = streamed.subList(streamed.size() - (int) streamed.stream()
        .filter(r -> !r.state().equals("FINISHED") && !r.state().equals(WorkloadRecord.REJECTED)).count(),
        streamed.size());
    assertTrue(finished.size() >= 5 && live.size() >= 3, finished.size() + " finished, " + live.size() + " live");
    assertEquals(finished.stream().sorted(Comparator.comparingLong(WorkloadRecord::finishedMs)).toList(), finished);
    assertTrue(live.stream().noneMatch(r -> r.state().equals("FINISHED")));
    assertEquals(live.stream().sorted(Comparator.comparingLong(WorkloadRecord::createdMs)).toList(), live);
    // the collected list is in arrival order: the engine's submissions, then the rejected arrival
    List<WorkloadRecord> submitted = kept.workloads().subList(0, 30);
    assertEquals(submitted.stream().sorted(Comparator.comparingLong(WorkloadRecord::createdMs)).toList(), submitted);
    assertEquals("lost", kept.workloads().get(30).id());
  }

  private static List<WorkloadRecord> sorted(List<WorkloadRecord> rs) {
    return rs.stream().sorted(Comparator.comparing(WorkloadRecord::id)).toList();
  }
}
