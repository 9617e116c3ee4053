package batchsim.scenarios.conformance.kueue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Replays every case of the project's copy of Kueue's conformance cases (plus the sibling tests the case
 * file describes only in prose, and more Kueue tests transcribed the same way) through the engine:
 * nothing may fail and nothing may be skipped, TAS cases included.
 */
class ConformanceCasesTest {
  static List<ConformanceCase> load(String resource) throws Exception {
    try (InputStream in = ConformanceCasesTest.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("missing test resource " + resource);
      }
      try (Reader r = new InputStreamReader(in, StandardCharsets.UTF_8)) {
        return CaseFile.parse(r, resource);
      }
    }
  }

  @TestFactory
  Stream<DynamicTest> kueueCases() throws Exception {
    return replay("/conformance/kueue-cases.yaml");
  }

  @TestFactory
  Stream<DynamicTest> siblingCases() throws Exception {
    return replay("/conformance/kueue-siblings.yaml");
  }

  /** More TestSchedule and TestFairPreemptions cases, transcribed for this project. */
  @TestFactory
  Stream<DynamicTest> extraCases() throws Exception {
    return replay("/conformance/kueue-extra.yaml");
  }

  private static Stream<DynamicTest> replay(String resource) throws Exception {
    List<DynamicTest> tests = new ArrayList<>();
    for (ConformanceCase c : load(resource)) {
      tests.add(DynamicTest.dynamicTest(c.id() + " " + c.name(), () -> {
        CaseResult r = ConformanceRunner.run(c);
        switch (r.status()) {
          case PASS:
            break;
          default:
            fail(r.line() + (r.details().size() > 1 ? "\n  " + String.join("\n  ", r.details()) : ""));
        }
      }));
    }
    return tests.stream();
  }

  @Test
  void theWholeFileHasNoFailures() throws Exception {
    ConformanceRunner.Report report = ConformanceRunner.run(load("/conformance/kueue-cases.yaml"));
    assertEquals(0, report.count(CaseResult.Status.FAIL), report.summaryLine());
    assertEquals(0, report.count(CaseResult.Status.SKIP), report.summaryLine());
    assertTrue(report.count(CaseResult.Status.PASS) >= 38, report.summaryLine());
    CaseResult t01 = report.results().stream().filter(r -> r.id().equals("T01")).findFirst().orElseThrow();
    assertEquals(CaseResult.Status.PASS, t01.status(), t01.line());
  }
}
