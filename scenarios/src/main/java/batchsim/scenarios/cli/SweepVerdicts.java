package batchsim.scenarios.cli;

import batchsim.reports.Provenance;
import batchsim.scenarios.expect.JUnitXml;
import batchsim.scenarios.expect.Metric;
import batchsim.scenarios.sweep.CellResult;
import batchsim.scenarios.sweep.SweepPlan;
import batchsim.scenarios.sweep.SweepReport;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/** What {@code sweep} and {@code sweep merge} say when the cells are in: {@code --junit}, {@code --quiet}. */
final class SweepVerdicts {
  @Option(names = "--junit", paramLabel = "FILE", description = "Write every cell's expectation verdicts as "
      + "JUnit XML (one test suite per cell).")
  Path junit;

  @Option(names = {"-q", "--quiet"}, description = "Print nothing but errors.")
  boolean quiet;

  /**
   * What a finished sweep (run here, or merged) prints: the summary table and {@code closing} unless quiet, each
   * failed expectation; writes --junit; exit 1 when an expectation failed.
   */
  int finish(SweepPlan plan, List<Metric> metrics, List<CellResult> results, PrintWriter out, PrintWriter err, String closing) throws ScenarioCommand.UserError {
    SweepReport report = SweepCommand.report(plan, metrics, results); // the one written, rebuilt to print
    if (!quiet) {
      out.print(report.summary().text(""));
      err.println(closing);
    }
    String name = plan.base().spec().name();
    List<JUnitXml.Suite> suites = new ArrayList<>();
    for (CellResult r : results) {
      suites.add(new JUnitXml.Suite(name + "[" + r.cell().name() + "]", plan.base().file(), r.outcomes(),
          Provenance.lines(r.cell().metadata(Version.build()), r.cell().scenario().spec().seed()), r.wallNanos()));
      for (var o : r.outcomes()) {
        if (o.failed()) {
          err.println(o.at() + ": [" + r.cell().name() + "] " + o.line());
        }
      }
    }
    long failed = report.failed();
    if (failed > 0) {
      err.println("batchsim: " + failed + " expectation" + (failed == 1 ? "" : "s") + " failed across the sweep");
    }
    if (junit != null) {
      Verdicts.writeJUnit(junit, suites);
    }
    return failed > 0 ? Verdicts.FAILED : ScenarioCommand.OK;
  }
}
