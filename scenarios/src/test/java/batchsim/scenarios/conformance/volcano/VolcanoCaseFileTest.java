package batchsim.scenarios.conformance.volcano;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The runner's handling of the file format: variants, verdicts, skips and malformed cases. */
class VolcanoCaseFileTest {
  static final String BASE = """
      cases:
        - id: one
          scheduler:
            actions: [enqueue, allocate]
            plugins:
              - {name: capacity, enabled: [allocatable, jobEnqueued]}
          nodes: [{name: n1, cpu: 2, memory: 2Gi, pods: 10}]
          queues: [{name: q, capability: {cpu: 1}}]
          podgroups: [{id: ns/pg, queue: q, minMember: 1, minResources: {cpu: 1}, phase: Pending}]
          pods: [{id: ns/p, pg: pg, request: {cpu: 1, memory: 1Gi}, node: null}]
      """;

  static List<VolcanoCaseResult> run(String yaml) throws Exception {
    return VolcanoConformance.results(VolcanoCaseFile.parse(new StringReader(yaml), "test"));
  }

  @Test
  void passesFailsWithTheFirstDifferenceAndCounts() throws Exception {
    String yaml = BASE + """
          variants:
            - id: right
              expect: {binds: {ns/p: n1}, phases: {ns/pg: Inqueue}}
            - id: wrong
              expect: {binds: {}, evicted: []}
      """;
    StringWriter out = new StringWriter();
    VolcanoConformance.Counts c = VolcanoConformance.run(new StringReader(yaml), "test", new PrintWriter(out));
    assertEquals(new VolcanoConformance.Counts(1, 1, 0), c);
    assertEquals(List.of("PASS one/right", "FAIL one/wrong: binds: expected {} got {ns/p=n1}",
        "1 passed, 1 failed, 0 skipped"), out.toString().lines().toList());
  }

  @Test
  void variantsReplaceKeysAndAppendObjects() throws Exception {
    String yaml = BASE + """
          variants:
            - id: bigger-cap
              queues: [{name: q, capability: {cpu: 2}}]
              add_podgroups: [{id: ns/pg2, queue: q, minMember: 1, minResources: {cpu: 1}, phase: Pending}]
              add_pods: [{id: ns/p2, pg: pg2, request: {cpu: 1, memory: 1Gi}, node: null}]
              expect: {binds: {ns/p: n1, ns/p2: n1}}
            - id: includes
              binds_check: includes
              add_podgroups: [{id: ns/pg3, queue: q, minMember: 1, phase: Pending}]
              add_pods: [{id: ns/p3, pg: pg3, request: {cpu: 1, memory: 1Gi}, node: null}]
              expect: {binds: {ns/p: n1}}
      """;
    List<VolcanoCaseResult> r = run(yaml);
    assertEquals(VolcanoCaseResult.Status.PASS, r.get(0).status(), r.get(0).line());
    assertEquals(VolcanoCaseResult.Status.PASS, r.get(1).status(), r.get(1).line());
  }

  @Test
  void unsupportedThingsAreSkippedWithAReason() throws Exception {
    String yaml = BASE.replace("name: capacity", "name: sla") + """
          expect: {binds: {}}
      """;
    VolcanoCaseResult r = run(yaml).get(0);
    assertEquals(VolcanoCaseResult.Status.SKIP, r.status());
    assertEquals("SKIP one: plugin 'sla' is not modelled", r.line());
    String unknownExpect = BASE + """
          expect: {taskStatus: {ns/pg: {Pending: 1}}}
      """;
    VolcanoCaseFileException e = assertThrows(VolcanoCaseFileException.class, () -> run(unknownExpect));
    assertEquals("test:11:14: unknown key 'taskStatus' at cases[0].expect.taskStatus (known: binds, evicted, "
        + "phases, pipelined)", e.getMessage());
  }

  @Test
  void malformedCasesFail() throws Exception {
    String yaml = """
        cases:
          - what: no id
          - id: bad-quantity
            scheduler: {actions: [allocate], plugins: []}
            nodes: [{name: n1, cpu: lots}]
            expect: {binds: {}}
        """;
    List<VolcanoCaseResult> r = run(yaml);
    assertEquals(VolcanoCaseResult.Status.FAIL, r.get(0).status());
    assertTrue(r.get(0).line().startsWith("FAIL case#1: invalid case:"), r.get(0).line());
    assertEquals(VolcanoCaseResult.Status.FAIL, r.get(1).status());
    assertTrue(r.get(1).line().contains("invalid case"), r.get(1).line());
  }

  @Test
  void cyclesAccumulateBinds() throws Exception {
    String yaml = BASE.replace("capability: {cpu: 1}", "capability: {cpu: 2}") + """
          cycles: 2
          expect: {binds: {ns/p: n1}, phases: {ns/pg: Inqueue}}
      """;
    assertEquals(VolcanoCaseResult.Status.PASS, run(yaml).get(0).status());
  }

  @Test
  void unreadableFilesAndFormatDetection(@TempDir Path dir) throws Exception {
    Path kueue = dir.resolve("kueue.yaml");
    Files.writeString(kueue, "id: S01\nkind: schedule_cycle\n---\nid: S02\nkind: schedule_cycle\n");
    Path volcano = dir.resolve("volcano.yaml");
    Files.writeString(volcano, BASE + "    expect: {binds: {ns/p: n1}}\n");
    assertFalse(VolcanoConformance.isVolcanoFile(kueue));
    assertTrue(VolcanoConformance.isVolcanoFile(volcano));
    assertFalse(VolcanoConformance.isVolcanoFile(dir.resolve("missing.yaml")));
    StringWriter out = new StringWriter();
    assertEquals(new VolcanoConformance.Counts(1, 0, 0), VolcanoConformance.run(volcano, new PrintWriter(out)));
    StringWriter lines = new StringWriter();
    assertEquals(new VolcanoConformance.Counts(1, 0, 0), VolcanoConformance.runCases(volcano, new PrintWriter(lines)));
    assertEquals(List.of("PASS one"), lines.toString().lines().toList());
    assertThrows(VolcanoCaseFileException.class, () -> VolcanoConformance.run(kueue, new PrintWriter(out)));
    assertThrows(VolcanoCaseFileException.class,
        () -> VolcanoConformance.run(dir.resolve("missing.yaml"), new PrintWriter(out)));
  }
}
