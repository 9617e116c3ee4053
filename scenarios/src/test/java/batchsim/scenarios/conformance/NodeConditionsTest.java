package batchsim.scenarios.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;

import batchsim.scenarios.conformance.kueue.CaseFile;
import batchsim.scenarios.conformance.kueue.CaseResult;
import batchsim.scenarios.conformance.kueue.ConformanceRunner;
import batchsim.scenarios.conformance.volcano.VolcanoConformance;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A node's {@code ready: false} and {@code unschedulable: true} in conformance cases: each case passes, and the
 * same case with the condition taken away fails (the node would have been chosen), so the pass is the condition's.
 */
class NodeConditionsTest {
  private static final String KUEUE = "/conformance/kueue-node-conditions.yaml";
  private static final String VOLCANO = "/conformance/volcano-node-conditions.yaml";

  static String text(String resource) throws Exception {
    try (InputStream in = NodeConditionsTest.class.getResourceAsStream(resource)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private static List<String> kueue(String yaml) throws Exception {
    return ConformanceRunner.run(CaseFile.parse(new StringReader(yaml), "inline")).results().stream()
        .map(CaseResult::line).toList();
  }

  private static String volcano(String yaml) throws Exception {
    StringWriter out = new StringWriter();
    VolcanoConformance.run(new StringReader(yaml), "inline", new PrintWriter(out));
    return out.toString();
  }

  @Test
  void kueueTasLeavesOutNotReadyAndUnschedulableNodes() throws Exception {
    String yaml = text(KUEUE);
    assertEquals(List.of("PASS NC-tas-not-ready", "PASS NC-tas-not-ready/v1"), kueue(yaml));
    String ready = yaml.replace(", ready: false", "").replace("ready: true, unschedulable: true", "labels: {a: b}");
    String fail = "FAIL NC-tas-not-ready%s: newly_admitted[ns/w].podSets[one].topologyAssignment.domains: "
        + "expected [[x2]:1] got [[x1]:1]";
    assertEquals(List.of(String.format(fail, ""), String.format(fail, "/v1")), kueue(ready));
  }

  @Test
  void volcanoPredicatesKeepPodsOffNotReadyUnschedulableAndTaintedNodes() throws Exception {
    String yaml = text(VOLCANO);
    assertEquals("PASS nc-not-ready\nPASS nc-unschedulable\nPASS nc-taint\n3 passed, 0 failed, 0 skipped\n",
        volcano(yaml).replace(System.lineSeparator(), "\n"));
    String ready = yaml.replace(", ready: false", "").replace(", unschedulable: true", "")
        .replace(", taints: [{key: dedicated, value: gpu, effect: NoSchedule}]", "");
    String fails = """
        FAIL nc-not-ready: binds: expected {ns1/p1=n2} got {ns1/p1=n1}
        FAIL nc-unschedulable: binds: expected {ns1/p1=n2} got {ns1/p1=n1}
        FAIL nc-taint: binds: expected {ns1/p1=n2} got {ns1/p1=n1}
        0 passed, 3 failed, 0 skipped
        """;
    assertEquals(fails, volcano(ready).replace(System.lineSeparator(), "\n"));
    // Volcano keeps the NotReady node in the session: without the predicates plugin nothing keeps the pod off it.
    String noPredicates = yaml.replace("        - {name: predicates, enabled: [predicate]}\n", "");
    assertEquals(fails, volcano(noPredicates).replace(System.lineSeparator(), "\n"));
  }

  @Test
  void aConditionMustBeABoolean() throws Exception {
    String yaml = text(VOLCANO).replace("ready: false", "ready: nope");
    assertEquals("FAIL nc-not-ready: invalid case: node n1: ready must be true or false, got \"nope\"",
        volcano(yaml).lines().findFirst().orElseThrow());
  }
}
