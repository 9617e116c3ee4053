package batchsim.scenarios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import batchsim.scenarios.cli.Cli.Result;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Inputs that are not regular files, or not scenarios at all: refused at once, located, exit 2. */
class HostileFilesTest {
  private static final String NOT_REGULAR = "is a device, FIFO or socket, not a regular file; batchsim reads"
      + " only regular files";

  @TempDir
  Path tmp;

  @Test
  void scenarioThatIsADevice_isRefusedWithoutReading() {
    assumeTrue(Files.exists(Path.of("/dev/zero")));
    Result r = Cli.run("validate", "/dev/zero");
    assertEquals(2, r.exit());
    assertEquals(List.of("batchsim: /dev/zero: cannot read: " + NOT_REGULAR), r.errLines());
  }

  @Test
  void scenarioThatIsAFifo_isRefusedWithoutBlocking() throws Exception {
    Path fifo = tmp.resolve("scenario.yaml");
    assumeTrue(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor() == 0);
    Result r = Cli.run("run", fifo.toString(), "--out", tmp.resolve("out").toString());
    assertEquals(2, r.exit());
    assertEquals(List.of("batchsim: " + fifo + ": cannot read: " + NOT_REGULAR), r.errLines());
  }

  @Test
  void includeOfADevice_isRefusedAtTheInclude() throws Exception {
    assumeTrue(Files.exists(Path.of("/dev/zero")));
    Path s = Files.writeString(tmp.resolve("s.yaml"), "name: x\ninclude: /dev/zero\n");
    Result r = Cli.run("validate", s.toString());
    assertEquals(2, r.exit());
    assertEquals(List.of(s + ":2:10: include: cannot include '/dev/zero': " + NOT_REGULAR), r.errLines());
  }

  @Test
  void includeOfADirectory_isRefusedAtTheInclude() throws Exception {
    Files.createDirectory(tmp.resolve("base"));
    Path s = Files.writeString(tmp.resolve("s.yaml"), "include: [base]\nname: x\n");
    Result r = Cli.run("validate", s.toString());
    assertEquals(2, r.exit());
    assertEquals(List.of(s + ":1:11: include[0]: cannot include 'base': is a directory, not a file"), r.errLines());
  }

  @Test
  void includeOfALongTextFile_quotesOnlyAShortExcerptOfIt() throws Exception {
    Path other = Files.writeString(tmp.resolve("notes.txt"), "secret line one\n".repeat(1000));
    Path s = Files.writeString(tmp.resolve("s.yaml"), "include: notes.txt\nname: x\n");
    Result r = Cli.run("validate", s.toString());
    assertEquals(2, r.exit());
    assertEquals(List.of(other + ":1:1: an included file must hold a map at the top level, got 'secret line one"
        + " secret line one secret line one secret line … (15999 characters)'"), r.errLines());
    assertTrue(r.err().length() < 300, r.err());
  }
}
