package batchsim.scenarios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A sweep stopped part-way resumes with the same --out: cells whose done-marker matches are kept. */
class SweepResumeTest {
  static final String CELL = "nodePools.gpu.count=2,quota=high,seed=7";

  @TempDir
  Path tmp;

  /** The working directory a sweep killed just before its tables leaves beside {@code out}. */
  private Path killedSweep(Path out) throws Exception {
    assertEquals(0, Cli.run("sweep", SweepCommandTest.SMALL, "-q", "--parallel", "2", "--out", out.toString()).exit());
    Path work = out.resolveSibling("." + out.getFileName() + ".tmp-resumable");
    Files.move(out, work);
    for (String f : List.of(OutputDirectory.MARKER, "sweep.csv", "cells.csv", "sweep.html")) {
      Files.delete(work.resolve(f));
    }
    Files.writeString(work.resolve(SweepWork.OWNER), "small");
    return work;
  }

  private static List<String> rerun(Cli.Result r) {
    return r.errLines().stream().filter(l -> l.startsWith("batchsim: ["))
        .map(l -> l.replaceFirst("(, ETA [0-9a-z]+)?, [0-9]+s wall$", "")) // the wall-clock part of a progress line
        .filter(l -> !l.endsWith("(done before; kept)")).toList();
  }

  private static void assertSameTree(Path a, Path b) throws Exception {
    List<Path> files;
    try (Stream<Path> s = Files.walk(a)) {
      files = s.filter(Files::isRegularFile).toList();
    }
    for (Path p : files) {
      assertEquals(-1L, Files.mismatch(p, b.resolve(a.relativize(p))), a.relativize(p).toString());
    }
    try (Stream<Path> s = Files.walk(b)) {
      assertEquals(files.size(), s.filter(Files::isRegularFile).count());
    }
  }

  @Test
  void aCellWithoutItsMarker_isTheOnlyOneRunAgain_andTheResultIsTheSame() throws Exception {
    Path fresh = tmp.resolve("fresh");
    assertEquals(0, Cli.run("sweep", SweepCommandTest.SMALL, "-q", "--out", fresh.toString()).exit());
    Path out = tmp.resolve("s");
    Path work = killedSweep(out);
    Files.delete(work.resolve("cells").resolve(CELL).resolve("done.json"));
    assertFalse(Files.exists(out), "a stopped sweep leaves no output directory");

    Cli.Result r = Cli.run("sweep", SweepCommandTest.SMALL, "--parallel", "2", "--out", out.toString());
    assertEquals(0, r.exit(), r.err());
    assertEquals(List.of("batchsim: [5/6] " + CELL), rerun(r));
    assertTrue(r.err().contains("6 runs (5 kept from an interrupted sweep)"), r.err());
    assertFalse(Files.exists(work));
    assertSameTree(fresh, out);
  }

  @Test
  void aCellWhoseReportsChanged_isRunAgain() throws Exception {
    Path out = tmp.resolve("s");
    Path work = killedSweep(out);
    Files.writeString(work.resolve("cells").resolve(CELL).resolve("summary.json"), "{}");
    Cli.Result r = Cli.run("sweep", SweepCommandTest.SMALL, "--out", out.toString());
    assertEquals(0, r.exit(), r.err());
    assertEquals(List.of("batchsim: [5/6] " + CELL), rerun(r));
  }

  @Test
  void otherOverrides_runEveryCellAgain() throws Exception {
    Path out = tmp.resolve("s");
    killedSweep(out);
    Cli.Result r = Cli.run("sweep", SweepCommandTest.SMALL, "--set", "nodePools.cpu.count=3", "--out", out.toString());
    assertEquals(0, r.exit(), r.err());
    assertEquals(6, rerun(r).size(), r.err());
  }

  @Test
  void anotherScenarioInTheSameOut_isRefused() throws Exception {
    Path out = tmp.resolve("s");
    Path work = killedSweep(out);
    Files.writeString(work.resolve(SweepWork.OWNER), "other");
    Cli.Result r = Cli.run("sweep", SweepCommandTest.SMALL, "--out", out.toString());
    assertEquals(2, r.exit());
    assertEquals(List.of("batchsim: --out " + out + " holds an unfinished sweep of scenario 'other' (in " + work
        + "); finish it by running that sweep again, remove " + work + ", or choose another --out"), r.errLines());
    assertFalse(Files.exists(out));
  }
}
