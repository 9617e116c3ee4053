package batchsim.scenarios.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code batchsim conformance}: output lines and exit codes. */
class ConformanceCommandTest {
  @TempDir
  Path dir;

  private record Run(int exit, String out, String err) {
    List<String> lines() {
      return out.lines().toList();
    }
  }

  private static Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cl = new CommandLine(new ConformanceCommand());
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(err));
    int exit = cl.execute(args);
    return new Run(exit, out.toString(), err.toString());
  }

  private Path write(String name, String yaml) throws Exception {
    Path p = dir.resolve(name);
    Files.writeString(p, yaml);
    return p;
  }

  private static final String PASSING = """
      id: S1
      kueue_test: {name: "fits"}
      kind: schedule_cycle
      flavors: [default]
      clusterQueues: [{name: q, resourceGroups: [{covered: [cpu], flavors: [{flavor: default, quota: {cpu: {nominal: 2}}}]}]}]
      pending: [{id: ns/w, cq: q, podSets: [{name: main, count: 1, perPod: {cpu: 1}}]}]
      expect:
        newly_admitted: {ns/w: {cq: q, podSets: {main: {count: 1, flavors: {cpu: default}}}}}
        reserved_after: [ns/w]
      variants:
        - kueue_test: {name: "does not fit"}
          change: {pending: {ns/w: {podSets: [{name: main, count: 1, perPod: {cpu: 3}}]}}}
          expect: {}
      ---
      id: K1
      kind: something_new
      """;

  @Test
  void printsOneLinePerCaseAndASummaryAndExitsOneOnFailure() throws Exception {
    Run r = run(write("cases.yaml", PASSING).toString());
    assertEquals(List.of(
        "PASS S1 fits",
        "FAIL S1/v1 does not fit: newly_admitted: expected [ns/w] got [] (+3 more)",
        "SKIP K1: kind 'something_new' is not supported yet",
        "1 passed, 1 failed, 1 skipped"), r.lines());
    assertEquals(1, r.exit());
  }

  @Test
  void exitsZeroWhenNothingFails() throws Exception {
    Run r = run(write("ok.yaml", PASSING.substring(0, PASSING.indexOf("variants:"))).toString());
    assertEquals(List.of("PASS S1 fits", "1 passed, 0 failed, 0 skipped"), r.lines());
    assertEquals(0, r.exit());
  }

  @Test
  void exitsTwoWithOneLineOnUnreadableInput() throws Exception {
    Run missing = run(dir.resolve("nope.yaml").toString());
    assertEquals(2, missing.exit());
    assertEquals(1, missing.err().lines().count(), missing.err());
    assertTrue(missing.err().contains("nope.yaml: cannot read: no such file"), missing.err());
    assertEquals("", missing.out());

    Run bad = run(write("bad.yaml", "id: [").toString());
    assertEquals(2, bad.exit());
    assertTrue(bad.err().startsWith("batchsim conformance: ") && bad.err().contains("not valid YAML"), bad.err());
  }
}
