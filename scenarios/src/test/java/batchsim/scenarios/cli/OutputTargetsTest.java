package batchsim.scenarios.cli;

import static batchsim.scenarios.cli.Cli.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import batchsim.scenarios.cli.Cli.Result;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Unusable outputs are refused before the run (exit 2); a failure while writing leaves nothing that looks done. */
class OutputTargetsTest {
  static final String QUICKSTART = "examples/quickstart.yaml";

  @TempDir
  Path tmp;

  private List<String> entries() throws IOException {
    try (Stream<Path> s = Files.list(tmp)) {
      return s.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  @Test
  void outUnderAFile_isRefusedBeforeTheRun() throws Exception {
    Files.writeString(tmp.resolve("f"), "x");
    Result r = run("run", QUICKSTART, "-q", "--out", tmp.resolve("f/out").toString());
    assertEquals(2, r.exit());
    assertEquals(List.of("batchsim: --out " + tmp.resolve("f/out") + ": " + tmp.resolve("f") + " is not a directory"),
        r.errLines());
    assertEquals(List.of("f"), entries());
  }

  @Test
  void outThatIsAFile_isRefused() throws Exception {
    Files.writeString(tmp.resolve("f"), "x");
    Result r = run("check", QUICKSTART, "-q", "--out", tmp.resolve("f").toString());
    assertEquals(2, r.exit());
    assertEquals(List.of("batchsim: output " + tmp.resolve("f") + " exists and is not a directory; choose another --out"),
        r.errLines());
  }

  @Test
  void outWhereNothingCanBeCreated_isRefused() {
    Assumptions.assumeTrue(Files.isDirectory(Path.of("/proc/self")), "needs Linux /proc");
    Result r = run("run", QUICKSTART, "-q", "--out", "/proc/x");
    assertEquals(2, r.exit());
    assertEquals(List.of("batchsim: --out /proc/x: cannot create files in /proc (no such file or directory); "
        + "choose another --out"), r.errLines());
  }

  @Test
  void junitThatIsADirectory_isRefusedBeforeAnyReportIsWritten() throws Exception {
    Path out = tmp.resolve("out");
    Result r = run("run", QUICKSTART, "-q", "--out", out.toString(), "--junit", tmp.toString());
    assertEquals(2, r.exit());
    assertEquals(List.of("batchsim: --junit " + tmp + ": is a directory; give a file name, e.g. --junit "
        + tmp.resolve("junit.xml")), r.errLines());
    assertEquals(List.of(), entries(), "no output written");
    assertEquals(2, run("sweep", SweepCommandTest.SMALL, "-q", "--out", out.toString(), "--junit", tmp.toString()).exit());
    assertEquals(2, run("stories", "src/test/resources", "-q", "--junit", tmp.toString()).exit());
    assertEquals(List.of(), entries(), "no output written");
  }

  @Test
  void aRunThatFailsMidway_leavesNoOutput_andThePreviousOneAsItWas() throws Exception {
    Path out = tmp.resolve("out");
    Path scenario = tmp.resolve("midway.yaml");
    // Valid to load; the run reaches 20m, then refuses to close a queue it deleted at 10m.
    Files.writeString(scenario, String.join("\n",
        "name: midway",
        "scheduler: volcano",
        "volcano: {queues: [{name: team-a}, {name: team-b}]}",
        "cluster:",
        "  nodePools:",
        "    - {name: cpu, count: 2, allocatable: {cpu: 8, memory: 32Gi}}",
        "resourceFlavors:",
        "  - {name: default}",
        "clusterQueues:",
        "  - name: team-a",
        "    resourceGroups: [{coveredResources: [cpu], flavors: [{name: default, resources: [{name: cpu, nominalQuota: 16}]}]}]",
        "  - name: team-b",
        "    resourceGroups: [{coveredResources: [cpu], flavors: [{name: default, resources: [{name: cpu, nominalQuota: 16}]}]}]",
        "localQueues:",
        "  - {namespace: ns, name: a, clusterQueue: team-a}",
        "  - {namespace: ns, name: b, clusterQueue: team-b}",
        "workloads:",
        "  list:",
        "    - {name: x, queue: ns/a, at: 0s, runtime: 1h, podSets: [{count: 1, requests: {cpu: 1}}]}",
        "events:",
        "  - {at: 10m, deleteVolcanoQueue: {name: team-b}}",
        "  - {at: 20m, closeVolcanoQueue: {name: team-b}}",
        ""));
    Result r = run("run", scenario.toString(), "-q", "--explain", "--out", out.toString());
    assertEquals(2, r.exit(), r.err());
    assertEquals(List.of("midway.yaml"), entries(), "no output, no temporary files");

    assertEquals(0, run("run", QUICKSTART, "-q", "--out", out.toString()).exit());
    String before = Files.readString(out.resolve("summary.json"));
    assertEquals(2, run("run", scenario.toString(), "-q", "--out", out.toString()).exit());
    assertEquals(before, Files.readString(out.resolve("summary.json")), "the previous run's output is kept whole");
    assertEquals(List.of("midway.yaml", "out"), entries());
  }

  @Test
  void aWriteThatFails_likeAFullDisk_leavesNothing() throws Exception {
    OutputDirectory dir = new OutputDirectory(tmp.resolve("out"));
    ScenarioCommand.UserError e = assertThrows(ScenarioCommand.UserError.class, () -> dir.write(d -> {
      Files.writeString(d.resolve("summary.json"), "{}");
      throw new IOException("No space left on device");
    }));
    assertEquals("cannot write " + tmp.resolve("out") + ": No space left on device; nothing was written", e.getMessage());
    assertEquals(List.of(), entries());
  }

  @Test
  void badTolerance_isRefused() throws Exception {
    Result r = run("compare", "a", "b", "--tolerance", "10");
    assertEquals(2, r.exit());
    assertEquals(List.of("batchsim: --tolerance 10: a bare number is a fraction (0.1 = 10%) and must be at most 1; "
        + "write 10% for 10 percent"), r.errLines());
    assertEquals(0.1, CompareCommand.tolerance("10%"), 1e-12);
    assertEquals(0.1, CompareCommand.tolerance("0.1"), 1e-12);
    assertEquals(1.5, CompareCommand.tolerance("150%"), 1e-12);
  }

  @Test
  void storiesOfAMissingPath_isBadInput() {
    Result r = run("stories", tmp.resolve("nope").toString());
    assertEquals(2, r.exit());
    assertEquals(List.of("batchsim: " + tmp.resolve("nope") + ": no such file"), r.errLines());
  }
}
