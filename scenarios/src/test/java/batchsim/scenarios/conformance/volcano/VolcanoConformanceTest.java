package batchsim.scenarios.conformance.volcano;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.Reader;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Replays the project's copy of volcano-cases.yaml (Volcano's own unit-test expectations) through the Volcano
 * engine: every case and variant must pass, none may be skipped, and no session may break the
 * hierarchical-capability invariant.
 */
class VolcanoConformanceTest {
  static final String RESOURCE = "/conformance/volcano-cases.yaml";
  /** More Volcano unit tests transcribed the same way (multi-session timelines). */
  static final String EXTRA = "/conformance/volcano-extra.yaml";

  static List<VolcanoCase> load(String resource) throws Exception {
    try (InputStream in = VolcanoConformanceTest.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("missing test resource " + resource);
      }
      try (Reader r = new InputStreamReader(in, StandardCharsets.UTF_8)) {
        return VolcanoCaseFile.parse(r, resource);
      }
    }
  }

  @TestFactory
  Stream<DynamicTest> everyCase() throws Exception {
    return replay(RESOURCE);
  }

  @TestFactory
  Stream<DynamicTest> extraCases() throws Exception {
    return replay(EXTRA);
  }

  private static Stream<DynamicTest> replay(String resource) throws Exception {
    List<DynamicTest> tests = new ArrayList<>();
    for (VolcanoCase c : load(resource)) {
      tests.add(DynamicTest.dynamicTest(c.id(), () -> {
        VolcanoCaseResult r = VolcanoCaseRunner.run(c);
        if (r.status() != VolcanoCaseResult.Status.PASS) {
          fail(r.line() + (r.details().size() > 1 ? "\n  " + String.join("\n  ", r.details()) : ""));
        }
      }));
    }
    return tests.stream();
  }

  @Test
  void theWholeFilePassesWithoutSkips() throws Exception {
    StringWriter sw = new StringWriter();
    VolcanoConformance.Counts counts;
    try (InputStream in = VolcanoConformanceTest.class.getResourceAsStream(RESOURCE);
        Reader r = new InputStreamReader(in, StandardCharsets.UTF_8)) {
      counts = VolcanoConformance.run(r, RESOURCE, new PrintWriter(sw));
    }
    String out = sw.toString();
    assertEquals(0, counts.failed(), out);
    assertEquals(0, counts.skipped(), out);
    assertTrue(counts.passed() >= 19, out);
    assertTrue(out.strip().endsWith(counts.summaryLine()), out);
  }
}
