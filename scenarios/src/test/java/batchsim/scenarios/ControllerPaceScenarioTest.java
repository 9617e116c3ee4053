package batchsim.scenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.core.metrics.RunResult;
import batchsim.core.metrics.WorkloadRecord;
import batchsim.core.sim.Runs;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** kueue.controllerPace: off changes nothing; on, the baseline of Kueue's perf test is reproduced (README). */
class ControllerPaceScenarioTest {
  private static final Path BASELINE = Path.of("examples/kueue-perf-baseline.yaml");
  private static final Path PACE = Path.of("bench/kueue-perf-pace.yaml");

  private static RunResult run(Path p, String... sets) throws Exception {
    LoadedScenario s = ScenarioLoader.load(p, List.of(sets));
    return Runs.run(s.spec(), s.volcano(), false);
  }

  @Test
  void offByDefaultAndSwitchedOffChangesNothing() throws Exception {
    assertNull(ScenarioLoader.load(BASELINE, List.of()).spec().kueue().controllerPace());
    RunResult plain = run(Path.of("examples/quickstart.yaml"));
    RunResult off = run(Path.of("examples/quickstart.yaml"), "kueue.controllerPace={enable: false}");
    assertEquals(plain.workloads(), off.workloads());
    assertEquals(plain.events(), off.events());
    RunResult on = run(Path.of("examples/quickstart.yaml"), "kueue.controllerPace={}");
    assertNotEquals(plain.workloads(), on.workloads(), "switched on, cycles and writes take time");
  }

  /** Kueue's rangespec means (kueue-tas.md 5.3): the model within 25% of each. */
  @Test
  void theBaselineIsReproducedWithinAQuarterOfEachPublishedFigure() throws Exception {
    RunResult r = run(PACE);
    Map<String, long[]> byClass = new HashMap<>(); // class -> {count, sum of time to admission}
    long wall = 0;
    for (WorkloadRecord w : r.workloads()) {
      long[] a = byClass.computeIfAbsent(w.workloadClass().split("-")[0], k -> new long[2]);
      a[0]++;
      a[1] += w.admittedMs() - w.createdMs(); // Kueue's recorder: Admitted's last transition - creation
      wall = Math.max(wall, w.finishedMs());
    }
    within("large", 16_501, byClass.get("large")[1] / (double) byClass.get("large")[0]);
    within("medium", 76_768, byClass.get("medium")[1] / (double) byClass.get("medium")[0]);
    within("small", 215_468, byClass.get("small")[1] / (double) byClass.get("small")[0]);
    within("wall", 351_116, wall);
  }

  private static void within(String what, double published, double model) {
    assertTrue(Math.abs(model / published - 1) <= 0.25, what + ": model " + model + " vs published " + published);
  }

  /** An admission write landing while Kueue is down waits for it; the restarted Kueue has a full bucket. */
  @Test
  void aRestartHoldsLandedWritesBackAndRefillsTheBucket() throws Exception {
    RunResult r = run(Path.of("src/test/resources/pace/restart-while-writing.yaml"));
    Map<String, WorkloadRecord> byId = new HashMap<>();
    r.workloads().forEach(w -> byId.put(w.id(), w));
    assertEquals(0, byId.get("a1").admittedMs(), "Kueue's Admitted time is its decision's");
    assertEquals(15 * 60_000, byId.get("a1").startedMs(), "a1's write landed at 10m, Kueue was up at 15m");
    long a2 = byId.get("a2").startedMs() - 26 * 60_000; // its write went after a cycle of a few ms
    assertTrue(a2 >= 0 && a2 < 1_000, "a2's write went at 16m, not at the old bucket's 1000 s: " + a2);
  }

  @Test
  void anEmptyBlockIsALocatedProblem() {
    ScenarioException e = assertThrows(ScenarioException.class,
        () -> ScenarioLoader.load(PACE, List.of("kueue.controllerPace=null")));
    assertTrue(e.getMessage().contains("controllerPace: {}"), e.getMessage());
  }

  @Test
  void valuesAboveTheirCeilingsAreLocatedProblems() {
    for (String set : List.of("perHeadMicros=9223372036854775807", "cycleBaseMicros=1000001", "writeLatency=1000000d",
        "watchLatency=61m")) {
      ScenarioException e = assertThrows(ScenarioException.class,
          () -> ScenarioLoader.load(PACE, List.of("kueue.controllerPace." + set)));
      assertTrue(e.getMessage().contains(set.split("=")[0]) && e.getMessage().contains("must be <="), e.getMessage());
    }
  }

  @Test
  void aBadParameterIsALocatedProblem() {
    ScenarioException e = assertThrows(ScenarioException.class,
        () -> ScenarioLoader.load(PACE, List.of("kueue.controllerPace.clientQPS=0")));
    assertTrue(e.getMessage().contains("clientQPS"), e.getMessage());
  }
}
