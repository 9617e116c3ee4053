package batchsim.scenarios.conformance.kueue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringReader;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The case file's structure: fixtures, variants and their merge rules, and what the runner skips. */
class ConformanceCaseFileTest {
  private static final String FILE = """
      ---
      id: FIXTURES
      kind: fixtures
      fixtures:
        two:
          - {name: a, cohort: co, resourceGroups: [{covered: [cpu], flavors: [{flavor: f, quota: {cpu: {nominal: 1}}}]}]}
          - {name: b, cohort: co, queueing: StrictFIFO, resourceGroups: [{covered: [cpu], flavors: [{flavor: f, quota: {cpu: {nominal: 2}}}]}]}
      ---
      id: C1
      kueue_test: {file: x_test.go, func: TestX, name: "base"}
      kind: schedule_cycle
      flavors: [f]
      clusterQueues: {fixture: two}
      pending:
        - {id: ns/p, cq: a, podSets: [{name: main, count: 1, perPod: {cpu: 1}}]}
        - {id: ns/q, cq: b, priority: 3, podSets: [{name: main, count: 1, perPod: {cpu: 1}}]}
      expect:
        newly_admitted:
          ns/p: {cq: a, podSets: {main: {count: 1, flavors: {cpu: f}}}}
          ns/q: {cq: b, podSets: {main: {count: 1, flavors: {cpu: f}}}}
        reserved_after: [ns/p, ns/q]
        pending_active: {}
      variants:
        - kueue_test: {name: "patched"}
          change:
            clusterQueues: {a: {cohort: null, resourceGroups: [{covered: [cpu], flavors: [{flavor: f, quota: {cpu: {nominal: 0}}}]}]}}
            pending: {ns/q: {priority: 5}}
          expect:
            newly_admitted: {ns/q: {cq: b, podSets: {main: {count: 1, flavors: {cpu: f}}}}}
            reserved_after: [ns/q]
            pending_inadmissible: {a: [ns/p]}
            quota_reserved_false: {ns/p: ExceedsMaxQuota}
        - kueue_test: {name: "replaced"}
          change: {pending: {replace_with: [{id: ns/r, cq: b, podSets: [{name: main, count: 1, perPod: {cpu: 1}}]}]}}
          expect:
            newly_admitted: {ns/r: {cq: b, podSets: {main: {count: 1, flavors: {cpu: f}}}}}
            reserved_after: [ns/r]
      """;

  private static List<ConformanceCase> parse(String yaml) throws Exception {
    return CaseFile.parse(new StringReader(yaml), "inline");
  }

  @Test
  void variantsPatchNamedListsByNameOrIdAndInheritTheRest() throws Exception {
    List<ConformanceCase> cases = parse(FILE);
    assertEquals(List.of("C1", "C1/v1", "C1/v2"), cases.stream().map(ConformanceCase::id).toList());
    assertEquals(List.of("base", "patched", "replaced"), cases.stream().map(ConformanceCase::name).toList());

    ConformanceCase patched = cases.get(1);
    var a = patched.spec().get("clusterQueues").get(0);
    assertTrue(a.get("cohort").isNull(), "a null in the change clears the field");
    assertEquals("a", a.get("name").asText(), "the patched CQ keeps its other fields");
    assertEquals(0, a.at("/resourceGroups/0/flavors/0/quota/cpu/nominal").asInt());
    assertEquals("StrictFIFO", patched.spec().at("/clusterQueues/1/queueing").asText(), "the fixture was expanded");
    assertEquals(5, patched.spec().at("/pending/1/priority").asInt());
    assertEquals(1, patched.spec().at("/pending/1/podSets/0/perPod/cpu").asInt(), "other fields kept");
    assertTrue(patched.expect().has("pending_active"), "absent expectation keys are inherited");

    ConformanceCase replaced = cases.get(2);
    assertEquals(1, replaced.spec().get("pending").size());
    assertEquals("ns/r", replaced.spec().at("/pending/0/id").asText());

    ConformanceRunner.Report report = ConformanceRunner.run(cases);
    assertEquals("3 passed, 0 failed, 0 skipped", report.summaryLine(), report.results().toString());
  }

  @Test
  void aPatchOfAMissingElementIsAnInvalidCase() throws Exception {
    List<ConformanceCase> cases = parse(FILE.replace("pending: {ns/q: {priority: 5}}", "pending: {ns/zz: {priority: 5}}"));
    CaseResult r = ConformanceRunner.run(cases.get(1));
    assertEquals(CaseResult.Status.FAIL, r.status());
    assertTrue(r.line().contains("no element named ns/zz"), r.line());
  }

  @Test
  void unknownKindsGatesAndUnmodelledTasInputsAreSkipped() throws Exception {
    List<ConformanceCase> cases = parse("""
        id: T9
        kind: schedule_cycle
        ---
        id: K1
        kind: something_new
        ---
        id: K2
        kind: schedule_cycle
        topologies: [{name: t, levels: [host]}]
        admissionChecks: [{name: other, controller: example.com/other}]
        ---
        id: K4
        kind: schedule_cycle
        featureGates: {SomeNewGate: true}
        ---
        id: K5
        kind: schedule_cycle
        topologies: [{name: t, levels: [kubernetes.io/hostname]}]
        flavors: [{name: f, topologyName: t}]
        admissionChecks: [{name: prov, controller: kueue.x-k8s.io/provisioning-request}]
        clusterQueues: [{name: a, admissionChecks: [prov], resourceGroups: [{covered: [cpu], flavors: [{flavor: f, quota: {cpu: 1}}]}]}]
        pending: [{id: ns/w, cq: a, admissionChecks: {prov: Ready}, podSets: [{name: main, count: 1, perPod: {cpu: 1}}]}]
        ---
        id: K6
        kind: schedule_cycle
        flavors: [f]
        clusterQueues: [{name: a, resourceGroups: [{covered: [cpu], flavors: [{flavor: f, quota: {cpu: 1}}]}]}]
        pending: [{id: ns/w, cq: a, podSets: [{name: main, count: 1, perPod: {cpu: 1}, topology: {required: rack}}]}]
        """);
    List<String> lines = ConformanceRunner.run(cases).results().stream().map(CaseResult::line).toList();
    assertEquals(List.of(
        "PASS T9",
        "SKIP K1: kind 'something_new' is not supported yet",
        "SKIP K2: admission check other: controller example.com/other is not modelled (the engine models only "
            + "kueue.x-k8s.io/provisioning-request)",
        "SKIP K4: feature gate SomeNewGate=true is not supported yet",
        "SKIP K5: workload ns/w: admission check prov is Ready before quota reservation; the engine starts every "
            + "check Pending when it reserves quota",
        "SKIP K6: workload ns/w podSet main: a topology request in a case without TAS flavors is not modelled "
            + "(the engine ignores it when no flavor has a topologyName)"), lines);
  }

  @Test
  void brokenFilesAreRejectedWhole() {
    assertThrows(CaseFileException.class, () -> parse("a: ["));
    assertThrows(CaseFileException.class, () -> parse("---\nfoo: 1\n"));
    assertThrows(CaseFileException.class, () -> parse("---\nid: FIXTURES\nkind: fixtures\nfixtures: {}\n"));
  }
}
