package batchsim.scenarios.cli;

import static batchsim.scenarios.cli.Cli.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.reports.Reports;
import batchsim.scenarios.cli.Cli.Result;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BatchsimCommandTest {
  static final String QUICKSTART = "examples/quickstart.yaml";
  static final String BROKEN = "src/test/resources/broken/many-problems.yaml";

  @TempDir
  Path tmp;

  @Test
  void validate_quickstart_printsOkAndCounts() {
    Result r = run("validate", QUICKSTART);
    assertEquals(0, r.exit(), r.err());
    assertEquals(QUICKSTART + ": ok (2 node pools, 2 ClusterQueues, 5 workload sources)\n", r.out());
    assertEquals("", r.err());
  }

  @Test
  void validate_brokenScenario_exits2WithOneLinePerProblem() {
    Result r = run("validate", BROKEN);
    assertEquals(2, r.exit());
    assertEquals("", r.out());
    List<String> lines = r.errLines();
    assertEquals(8, lines.size(), r.err());
    assertEquals(BROKEN + ":25:19: clusterQueues[0].resourceGroups[0].flavors[1].name: unknown flavor 'h100x' "
        + "(known: a100, h100)", lines.get(6));
    assertTrue(lines.stream().allMatch(l -> l.startsWith(BROKEN + ":")), r.err());
    assertFalse(r.err().contains("Exception"), "no stack trace");
  }

  @Test
  void validate_missingFile_exits2WithOneLine() {
    Result r = run("validate", "no/such.yaml");
    assertEquals(2, r.exit());
    assertEquals(List.of("batchsim: " + Path.of("no/such.yaml") + ": no such file"), r.errLines());
  }

  @Test
  void validate_severalFiles_reportsEachAndFailsIfAnyFails() {
    Result r = run("validate", QUICKSTART, BROKEN);
    assertEquals(2, r.exit());
    assertTrue(r.out().startsWith(QUICKSTART + ": ok"), r.out());
  }

  @Test
  void run_brokenScenario_exits2AndCreatesNoOutputDirectory() {
    Path out = tmp.resolve("out/broken");
    Result r = run("run", BROKEN, "--out", out.toString());
    assertEquals(2, r.exit());
    assertEquals(8, r.errLines().size(), r.err());
    assertFalse(Files.exists(out));
    assertFalse(Files.exists(out.getParent()), "not even the parent");
  }

  @Test
  void run_missingFile_exits2() {
    Result r = run("run", "missing.yaml", "--out", tmp.resolve("o").toString());
    assertEquals(2, r.exit());
    assertEquals(List.of("batchsim: missing.yaml: no such file"), r.errLines());
  }

  @Test
  void run_outIntoForeignDirectory_isRefusedBeforeSimulating() throws Exception {
    Path out = Files.createDirectories(tmp.resolve("precious"));
    Files.writeString(out.resolve("thesis.tex"), "do not delete");
    Result r = run("run", QUICKSTART, "--out", out.toString());
    assertEquals(2, r.exit());
    assertTrue(r.err().contains("was not written by batchsim"), r.err());
    assertTrue(Files.exists(out.resolve("thesis.tex")));
  }

  @Test
  void unknownOption_isUsageError() {
    assertEquals(2, run("run", QUICKSTART, "--sed", "3").exit());
    assertEquals(2, run().exit());
  }

  @Test
  void dirName_keepsOnePathSegment() {
    assertEquals("quickstart", RunCommand.dirName("quickstart"));
    assertEquals("a_b_c", RunCommand.dirName("a/b c"));
    assertEquals("_..", RunCommand.dirName(".."));
  }

  /*
   * The tests below run the engine (batchsim.core.sim.Simulation). They fail until it is implemented;
   * meanwhile the first checks that an engine failure is an internal error that leaves no output behind.
   */

  @Test
  void run_quickstart_writesReportsAndPrintsSummary_needsEngine() throws Exception {
    Path out = tmp.resolve("out/quickstart");
    Result r = run("run", QUICKSTART, "--out", out.toString(), "--seed", "7");
    if (r.exit() == ScenarioCommand.INTERNAL) {
      // Engine missing or broken: one line, no stack trace, no output directory, no leftovers.
      assertEquals(1, r.errLines().size(), r.err());
      assertTrue(r.err().startsWith("batchsim: internal error: "), r.err());
      assertFalse(Files.exists(out));
      try (Stream<Path> left = Files.exists(out.getParent()) ? Files.list(out.getParent()) : Stream.empty()) {
        assertEquals(List.of(), left.toList(), "temporary directories are cleaned up");
      }
    }
    assertEquals(0, r.exit(), "needs the engine: " + r.err());
    assertTrue(Files.isRegularFile(out.resolve(Reports.SUMMARY_JSON)));
    assertTrue(Files.isRegularFile(out.resolve(Reports.WORKLOADS_CSV)));
    assertTrue(r.out().contains("quickstart"), r.out());

    // Same seed again: the directory is replaced and the reports are byte-identical.
    byte[] summary = Files.readAllBytes(out.resolve(Reports.SUMMARY_JSON));
    byte[] workloads = Files.readAllBytes(out.resolve(Reports.WORKLOADS_CSV));
    Result again = run("run", QUICKSTART, "--out", out.toString(), "--seed", "7", "--quiet");
    assertEquals(0, again.exit(), again.err());
    assertEquals("", again.out(), "--quiet prints nothing");
    assertEquals(new String(summary), Files.readString(out.resolve(Reports.SUMMARY_JSON)));
    assertEquals(new String(workloads), Files.readString(out.resolve(Reports.WORKLOADS_CSV)));
  }
}
