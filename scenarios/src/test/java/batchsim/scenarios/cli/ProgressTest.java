package batchsim.scenarios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.core.model.SimulationSpec;
import batchsim.core.world.WorkloadSink;
import batchsim.scenarios.ScenarioLoader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Progress lines driven by a fake wall clock into a captured stream. */
class ProgressTest {
  private static final long S = 1_000_000_000L;
  private static final long HOUR_MS = 3_600_000L;

  private final StringWriter text = new StringWriter();
  private final PrintWriter err = new PrintWriter(text, true);
  private long now = 5 * S; // an arbitrary origin: only differences count

  private Progress progress(Progress.Mode mode, long horizonMs, long knownArrivals) {
    return new Progress(err, mode, () -> now, horizonMs, knownArrivals);
  }

  private static void finish(WorkloadSink sink, int n) {
    for (int i = 0; i < n; i++) {
      sink.accept(i, null, null);
    }
  }

  @Test
  void plain_printsALineEveryTenSeconds_withTheFractionOfTheHorizonAndAnEta() {
    Progress p = progress(Progress.Mode.PLAIN, 10 * HOUR_MS, -1);
    WorkloadSink counted = p.counting(null);
    finish(counted, 300);
    now += 9 * S;
    p.accept(HOUR_MS);
    assertEquals("", text.toString(), "a run shorter than 10 s prints nothing");
    now += S;
    p.accept(2 * HOUR_MS); // 20% of the horizon in 10 s: 40 s to go
    finish(counted, 100);
    now += 5 * S;
    p.accept(3 * HOUR_MS);
    now += 5 * S;
    p.accept(5 * HOUR_MS); // 50% in 20 s
    assertEquals("batchsim: simulated 2h of 10h (20%), ETA 40s, 300 workloads done, 30/s, 10s wall\n"
        + "batchsim: simulated 5h of 10h (50%), ETA 20s, 400 workloads done, 20/s, 20s wall\n",
        text.toString());
  }

  @Test
  void withoutAHorizon_theEtaComesFromTheKnownArrivalsDone() {
    Progress p = progress(Progress.Mode.PLAIN, SimulationSpec.NO_HORIZON, 1000);
    finish(p.counting((seq, r, d) -> { }), 250);
    now += 10 * S;
    p.accept(7 * HOUR_MS);
    assertEquals("batchsim: simulated 7h, 250 of 1000 workloads done (25%), ETA 30s, 25/s, 10s wall\n",
        text.toString());
  }

  @Test
  void withNeitherHorizonNorKnownArrivals_thereIsNoEta() {
    Progress p = progress(Progress.Mode.PLAIN, SimulationSpec.NO_HORIZON, -1);
    now += 12 * S;
    p.accept(HOUR_MS);
    assertEquals("batchsim: simulated 1h, 0 workloads done, 0/s, 12s wall\n", text.toString());
  }

  @Test
  void live_redrawsOneLineWithABar_everyHalfSecond_andClearsIt() {
    Progress p = progress(Progress.Mode.LIVE, 4 * HOUR_MS, -1);
    now += S / 4;
    p.accept(HOUR_MS);
    assertEquals("", text.toString());
    now += S / 4;
    p.accept(HOUR_MS); // 25% in 0.5 s
    String first = "[###.......] simulated 1h of 4h (25%), ETA 2s, 0 workloads done, 0/s, 1s wall";
    assertEquals("\r" + first, text.toString());
    now += S;
    p.accept(2 * HOUR_MS);
    String second = "[#####.....] simulated 2h of 4h (50%), ETA 2s, 0 workloads done, 0/s, 2s wall";
    assertEquals("\r" + first + "\r" + second, text.toString());
    p.done();
    assertEquals("\r" + first + "\r" + second + "\r" + " ".repeat(second.length()) + "\r", text.toString());
    assertTrue(!text.toString().contains("\n"), "a live bar never ends a line");
  }

  @Test
  void live_byKnownArrivals_keepsTheEtaWhole() {
    Progress p = progress(Progress.Mode.LIVE, SimulationSpec.NO_HORIZON, 15_000);
    finish(p.counting(null), 9_990);
    now += 2 * S;
    p.accept(123 * HOUR_MS);
    String line = text.toString();
    assertTrue(line.length() <= 1 + Progress.LIVE_WIDTH, line);
    assertTrue(line.contains("9990 of 15000 workloads done (67%), ETA 1s"), line);
  }

  @Test
  void live_isCutToOneTerminalLine_keepingTheEta() {
    Progress p = progress(Progress.Mode.LIVE, 10 * 24 * HOUR_MS, -1);
    finish(p.counting(null), 123_456);
    now += 600 * S;
    p.accept(25 * HOUR_MS + 61_500);
    assertEquals("\r[#.........] simulated 1d1h1m1s of 10d (10%), ETA 1h25m56s, 123456 workloads done, 206/s"
        .substring(0, 1 + Progress.LIVE_WIDTH), text.toString());
  }

  @Test
  void knownArrivals_countListsAndCountedClasses_notEndlessOnes() throws Exception {
    // kueue-perf-baseline: 90 classes of known counts (15000 workloads), no horizon.
    assertEquals(15000, Progress.knownArrivals(ScenarioLoader.load(
        Path.of("examples/kueue-perf-baseline.yaml")).spec()));
    // quickstart: classes bounded by `until`, not by a count.
    assertEquals(-1, Progress.knownArrivals(ScenarioLoader.load(Path.of("examples/quickstart.yaml")).spec()));
  }

  @Test
  void sweep_linesCountCellsDone_withAnEtaFromThePaceOfTheCellsRun() {
    SweepProgress p = new SweepProgress(err, () -> now, 4);
    p.cellDone("a", true); // kept: no time, no pace
    now += 10 * S;
    p.cellDone("b", false); // 1 cell run in 10 s, 2 to go
    now += 10 * S;
    p.cellDone("c", false);
    now += 5 * S;
    p.cellDone("d", false);
    assertEquals("batchsim: [1/4] a (done before; kept), 0s wall\n"
        + "batchsim: [2/4] b, ETA 20s, 10s wall\n"
        + "batchsim: [3/4] c, ETA 10s, 20s wall\n"
        + "batchsim: [4/4] d, 25s wall\n", text.toString());
  }
}
