package batchsim.scenarios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code run --metrics FILE}: Kueue's metrics as OpenMetrics, without changing any other output. */
class MetricsCliTest {
  static final String CYCLES = "src/test/resources/status/reclaim-cycles.yaml";
  static final String VERSUS = "../scenarios/examples/kueue-vs-volcano.yaml";
  static final String LIVE = "../scenarios/examples/live-cluster.yaml";

  @TempDir
  Path tmp;

  private Cli.Result run(String scenario, String out, String... more) {
    List<String> args = new ArrayList<>(List.of("run", scenario, "--out", tmp.resolve(out).toString(), "--quiet"));
    args.addAll(List.of(more));
    return Cli.run(args.toArray(String[]::new));
  }

  private List<String> listing() throws Exception {
    try (Stream<Path> s = Files.list(tmp)) {
      return s.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  @Test
  void theMetricsFile_changesNoOtherOutput_wherever_andAtWhateverInterval() throws Exception {
    assertEquals(0, run(CYCLES, "plain").exit());
    Cli.Result r = run(CYCLES, "outside", "--metrics", tmp.resolve("m.om").toString(), "--metrics-interval", "7s");
    assertEquals(0, r.exit(), r.err());
    assertEquals(0, run(CYCLES, "inside", "--metrics", tmp.resolve("inside/m.om").toString()).exit());
    for (String dir : List.of("outside", "inside")) {
      try (Stream<Path> s = Files.list(tmp.resolve("plain"))) {
        for (Path p : s.toList()) {
          assertEquals(Files.readString(p), Files.readString(tmp.resolve(dir).resolve(p.getFileName())),
              dir + "/" + p.getFileName());
        }
      }
    }
    assertEquals(List.of("inside", "m.om", "outside", "plain"), listing(), "no spool left");
    String seven = Files.readString(tmp.resolve("m.om"));
    String inside = Files.readString(tmp.resolve("inside/m.om"));
    for (String text : List.of(seven, inside)) { // the format itself: OpenMetricsFileTest
      assertTrue(text.endsWith("\n# EOF\n"));
      List<String> types = text.lines().filter(l -> l.startsWith("# TYPE ")).toList();
      assertEquals(types.size(), types.stream().map(l -> l.split(" ")[2]).distinct().count(), "family names unique");
    }
    // 8 h every 7 s from 2026-01-01T00:00:00Z, and the end; the scenario's sampleInterval by default.
    assertTrue(seven.contains(" 1767225607\n") && seven.contains(" 1767254400\n"), "7 s scrapes and the end");
    assertTrue(inside.contains("kueue_preempted_workloads_total{preempting_cluster_queue=\"team-a\""), inside);
    assertFalse(inside.contains(" 1767225607\n"));
  }

  @Test
  void theEpoch_isTheSnapshotsTime_orTheOptionsRfc3339Time() throws Exception {
    assertEquals(0, run(LIVE, "live", "--metrics", tmp.resolve("live.om").toString()).exit());
    // snapshotTime: 2026-11-26T09:29:00Z; gauges are scraped at t = 0
    assertTrue(Files.readString(tmp.resolve("live.om")).contains(" 1795685340\n"));
    assertEquals(0, run(CYCLES, "o", "--metrics", tmp.resolve("e.om").toString(), "--metrics-epoch",
        "2026-03-01T01:00:00.5+01:00").exit());
    assertTrue(Files.readString(tmp.resolve("e.om")).contains(" 1772323200.5\n"));
  }

  @Test
  void theFileNamesItsRun_inABatchsimRunInfoMetric() throws Exception {
    assertEquals(0, run(CYCLES, "o", "--set", "seed=7", "--metrics", tmp.resolve("p.om").toString()).exit());
    String first = Files.readAllLines(tmp.resolve("p.om")).get(2);
    assertTrue(first.startsWith("batchsim_run_info{"), first);
    assertTrue(first.contains("engine=\"kueue\"") && first.contains("overrides=\"seed=7\"")
        && first.contains("seed=\"7\"") && first.contains("engine_commit=\"ff69552e\""), first);
  }

  @Test
  void badOptions_areRefusedBeforeTheRun_andNothingIsWritten() throws Exception {
    String m = tmp.resolve("m.om").toString();
    assertRefused(run(CYCLES, "o", "--metrics", m, "--metrics-epoch", "2026-01-01 00:00"),
        "--metrics-epoch '2026-01-01 00:00': not an RFC 3339 time at column 11");
    assertRefused(run(CYCLES, "o", "--metrics", m, "--metrics-epoch", "2026-01-01T00:00:00.0001Z"),
        "finer than a millisecond");
    assertRefused(run(CYCLES, "o", "--metrics", m, "--metrics-interval", "5"), "--metrics-interval: '5' is not a duration");
    assertRefused(run(CYCLES, "o", "--metrics", m, "--metrics-interval", "0"), "must be longer than 0");
    assertRefused(run(CYCLES, "o", "--metrics-interval", "5s"),
        "--metrics-interval is an option of --metrics FILE, which is not given");
    assertRefused(run(CYCLES, "o", "--metrics", tmp.toString()), "is a directory");
    assertRefused(run(VERSUS, "o", "--set", "scheduler=volcano", "--metrics", m),
        "this scenario runs under Volcano, which has no metric model");
    assertRefused(run(CYCLES, "o", "--metrics", m, "--metrics-interval", "100ms"),
        "series × 288,002 scrapes (every 100ms over 8h)");
    assertRefused(run(CYCLES, "o", "--metrics", m, "--metrics-interval", "100ms"), "e.g. --metrics-interval ");
    assertEquals(List.of(), listing());
  }

  private static void assertRefused(Cli.Result r, String message) {
    assertEquals(2, r.exit(), r.err());
    assertTrue(r.err().contains(message), r.err());
    assertFalse(r.err().contains("\tat "), "no stack trace");
  }
}
