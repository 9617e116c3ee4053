package batchsim.scenarios.expect;

import static batchsim.scenarios.tables.Table.escape;

import java.util.List;

/**
 * Expectation verdicts as JUnit XML, the format CI systems (GitHub Actions reporters, GitLab, Jenkins)
 * show as test results: one {@code <testsuite>} per scenario run, one {@code <testcase>} per expectation,
 * a {@code <failure>} with the measured and expected values. No timestamps or durations, so the file
 * is as deterministic as the run.
 */
public final class JUnitXml {
  private JUnitXml() {}

  /**
   * One scenario run's verdicts.
   *
   * @param name the suite name (the scenario name, plus the sweep cell)
   * @param file the scenario file
   */
  public record Suite(String name, String file, List<Outcome> outcomes) {
    long count(Outcome.Status s) {
      return outcomes.stream().filter(o -> o.status() == s).count();
    }
  }

  public static String render(List<Suite> suites) {
    long tests = 0;
    long failures = 0;
    long skipped = 0;
    for (Suite s : suites) {
      tests += s.outcomes().size();
      failures += s.count(Outcome.Status.FAIL);
      skipped += s.count(Outcome.Status.SKIP);
    }
    StringBuilder sb = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    sb.append("<testsuites name=\"batchsim\" tests=\"").append(tests).append("\" failures=\"").append(failures)
        .append("\" errors=\"0\" skipped=\"").append(skipped).append("\">\n");
    for (Suite s : suites) {
      sb.append("  <testsuite name=\"").append(escape(s.name())).append("\" tests=\"").append(s.outcomes().size())
          .append("\" failures=\"").append(s.count(Outcome.Status.FAIL)).append("\" errors=\"0\" skipped=\"")
          .append(s.count(Outcome.Status.SKIP)).append("\" file=\"").append(escape(s.file())).append("\">\n");
      for (Outcome o : s.outcomes()) {
        sb.append("    <testcase classname=\"").append(escape("batchsim." + s.name())).append("\" name=\"")
            .append(escape(o.name())).append("\" file=\"")
            .append(escape(o.at().line() > 0 ? o.at().file() : s.file())).append('"'); // not a --set label
        if (o.at().line() > 0) {
          sb.append(" line=\"").append(o.at().line()).append('"');
        }
        switch (o.status()) {
          case PASS:
            sb.append("/>\n");
            break;
          case SKIP:
            sb.append(">\n      <skipped message=\"").append(escape(o.detail())).append("\"/>\n    </testcase>\n");
            break;
          default:
            sb.append(">\n      <failure type=\"ExpectationFailed\" message=\"").append(escape(o.detail()))
                .append("\">").append(escape(o.at() + ": " + o.name() + ": " + o.detail()))
                .append("</failure>\n    </testcase>\n");
        }
      }
      sb.append("  </testsuite>\n");
    }
    return sb.append("</testsuites>\n").toString();
  }
}
