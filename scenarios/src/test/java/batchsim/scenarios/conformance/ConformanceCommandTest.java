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

  @Test
  void aKeyTheFormatDoesNotKnowRefusesTheFileWithItsLocation() {
    String k = "src/test/resources/conformance/kueue-unknown-keys.yaml";
    Run kueue = run(k);
    assertEquals(2, kueue.exit());
    assertEquals("", kueue.out());
    String wl = "admissionChecks, cq, created, id, podSets, priority, reservedAt, uid";
    String node = "allocatable, labels, name, ready, taints, unschedulable";
    assertEquals(List.of(
        k + ":29:1: duplicate key 'entries' (first at line 28, column 1)",
        k + ":8:17: unknown key 'stopPolicy' at fixtures.one[0].stopPolicy (known: admissionChecks, cohort, "
            + "fairSharing, fairWeight, flavorFungibility, fungibility, name, preemption, queueing, "
            + "queueingStrategy, resourceGroups)",
        k + ":15:77: unknown key 'Ready' at nodes[0].Ready (known: " + node + ")",
        k + ":19:61: unknown key 'flavor' at expect.newly_admitted[ns/w].podSets.main.flavor (known: count, "
            + "delayedTopologyRequest, flavors, topologyAssignment, usage)",
        k + ":22:20: unknown key 'unschedulabel' at variants[0].change.nodes.x1.unschedulabel (known: " + node + ")",
        k + ":23:50: unknown key 'prio' at variants[0].change.pending.replace_with[0].prio (known: " + wl + ")",
        k + ":24:5: unknown key 'expected' at variants[0].expected (known: caveat, change, expect, kueue_test)"),
        kueue.err().lines().map(l -> l.replace("batchsim conformance: ", "")).toList());

    String v = "src/test/resources/conformance/volcano-unknown-keys.yaml";
    Run volcano = run(v);
    assertEquals(2, volcano.exit());
    assertEquals("", volcano.out());
    String pod = "id, node, nodeSelector, pg, phase, preemptable, priority, request, role";
    assertEquals(List.of(
        v + ":7:51: unknown key 'redy' at cases[0].nodes[0].redy (known: labels, name, ready, taints, unschedulable; "
            + "or a resource with a scalar amount)",
        v + ":10:65: unknown key 'nodeSelecter' at cases[0].pods[0].nodeSelecter (known: " + pod + ")",
        v + ":11:14: unknown key 'bindz' at cases[0].expect.bindz (known: binds, evicted, phases, pipelined)",
        v + ":14:61: unknown key 'nod' at cases[0].variants[0].add_pods[0].nod (known: " + pod + ")"),
        volcano.err().lines().map(l -> l.replace("batchsim conformance: ", "")).toList());
  }
}
