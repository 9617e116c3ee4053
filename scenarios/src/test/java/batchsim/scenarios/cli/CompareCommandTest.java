package batchsim.scenarios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompareCommandTest {
  static final String BASE = "src/test/resources/include/base.yaml";

  @TempDir
  Path tmp;

  Path a;
  Path b;

  @BeforeEach
  void twoRuns() {
    a = tmp.resolve("a");
    b = tmp.resolve("b");
    assertEquals(0, Cli.run("run", BASE, "-q", "--out", a.toString()).exit());
    assertEquals(0, Cli.run("run", BASE, "-q", "--out", b.toString(), "--set",
        "clusterQueues.team-b.quota.gpu.nvidia.com/gpu=1").exit());
  }

  @Test
  void diffTable_perQueueAndOverall_withDeltasAndFlags() throws Exception {
    Path out = tmp.resolve("cmp");
    Cli.Result r = Cli.run("compare", a.toString(), b.resolve("summary.json").toString(), "--out", out.toString());
    assertEquals(0, r.exit(), r.err());
    List<String> lines = r.out().lines().toList();
    assertEquals(b.resolve("summary.json") + " vs " + a, lines.get(0));
    assertEquals("  Provenance differs:", lines.get(1));
    assertEquals("    overrides: none → --set clusterQueues.team-b.quota.gpu.nvidia.com/gpu=1", lines.get(2));
    assertTrue(lines.get(3).startsWith("    scenario sha256: "), lines.get(3));
    assertTrue(lines.get(4).startsWith("  SCOPE      METRIC"), lines.get(4));
    assertTrue(lines.stream().anyMatch(l -> l.matches("  team-b\\s+wait p95\\s+.*\\bworse")), r.out());
    assertTrue(lines.stream().anyMatch(l -> l.matches("  overall\\s+finished\\s+30\\s+30\\s+0\\s+0\\.0%")), r.out());
    assertTrue(lines.stream().anyMatch(l -> l.startsWith("  all nodes  utilization nvidia.com/gpu")), r.out());
    assertTrue(r.err().matches("batchsim: \\d+ metrics? worse beyond 5%; tables in .*\\n"), r.err());
    List<String> csv = Files.readAllLines(out.resolve("compare.csv"));
    assertEquals("base,other,scope,metric,unit,base value,other value,delta,relative,flag", csv.get(0));
    assertTrue(csv.stream().anyMatch(l -> l.contains(",team-b,wait p95,ms,") && l.endsWith(",worse")), csv.toString());
    assertTrue(Files.readString(out.resolve("compare.html")).contains("<tr class=\"worse\">"));
  }

  @Test
  void sameResult_flagsNothing_andFailOnWorseDecidesTheExitCode() {
    Cli.Result same = Cli.run("compare", a.toString(), a.toString(), "--out", tmp.resolve("c1").toString(),
        "--fail-on-worse");
    assertEquals(0, same.exit(), same.err());
    assertTrue(same.err().startsWith("batchsim: 0 metrics worse beyond 5%"), same.err());
    Cli.Result worse = Cli.run("compare", a.toString(), b.toString(), "--out", tmp.resolve("c2").toString(),
        "--fail-on-worse", "--tolerance", "1%");
    assertEquals(1, worse.exit(), worse.err());
  }

  @Test
  void missingResult_orBadTolerance_isBadInput() {
    Cli.Result r = Cli.run("compare", a.toString(), tmp.resolve("nope").toString(), "--out", tmp.resolve("c").toString());
    assertEquals(2, r.exit());
    assertEquals(List.of("batchsim: " + tmp.resolve("nope") + ": no such file"), r.errLines());
    assertEquals(2, Cli.run("compare", a.toString(), b.toString(), "--tolerance", "lots").exit());
  }
}
