package batchsim.scenarios.cli;

import batchsim.core.metrics.RunResult;
import batchsim.core.world.InvariantViolation;
import batchsim.core.sim.Runs;
import batchsim.core.world.StatusSink;
import batchsim.core.world.WorkloadSink;
import batchsim.reports.Provenance;
import batchsim.reports.Reports;
import batchsim.reports.WorkloadRows;
import batchsim.reports.RunMetadata;
import batchsim.reports.SummaryTable;
import batchsim.scenarios.LoadedScenario;
import batchsim.scenarios.compare.RunResultView;
import batchsim.scenarios.expect.JUnitXml;
import batchsim.scenarios.expect.Outcome;
import batchsim.scenarios.expect.StatusWatch;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code batchsim run SCENARIO}: loads, simulates, writes the reports into {@code --out} (default
 * {@code out/<scenario name>}) and prints the summary table, then the verdicts on the scenario's
 * expectations (exit 1 when one failed). Nothing is written when loading fails, and the output directory
 * appears only when every report was written.
 */
@Command(name = "run", header = "Simulate a scenario and write its reports.", mixinStandardHelpOptions = true)
final class RunCommand extends ScenarioCommand {
  @Parameters(index = "0", paramLabel = "SCENARIO", description = "Scenario YAML file.")
  Path file;

  @Option(names = "--seed", paramLabel = "N", description = "Root seed (overrides the scenario's seed).")
  Long seed;

  @Option(names = "--out", paramLabel = "DIR", description = "Output directory (default: out/<scenario name>).")
  Path out;

  @Option(names = {"-q", "--quiet"}, description = "Print nothing but errors.")
  boolean quiet;

  @picocli.CommandLine.Mixin
  ProgressOption progressOption = new ProgressOption();

  @Option(names = "--check", description = "Check the engine's invariants after every event (slower).")
  boolean check;

  @Option(names = "--set", paramLabel = "PATH=VALUE", description = "Override a scenario value, e.g. "
      + "--set nodePools.gpu.count=8 or --set clusterQueues.team-b.quota.a100.nvidia.com/gpu=24 (repeatable).")
  List<String> sets = new ArrayList<>();

  @Option(names = "--explain", description = "Keep a decision log of every workload's Kueue conditions "
      + "(decisions.csv), for `batchsim explain OUTDIR WORKLOAD`.")
  boolean explain;

  @Option(names = "--record", paramLabel = "RECORD", split = ",", description = "Also record, as the run goes: "
      + "status (status.jsonl: Kueue's Workloads, ClusterQueues, LocalQueues and Cohorts at every change of their "
      + "status). Repeatable or comma-separated.")
  List<String> records = new ArrayList<>();

  @Option(names = "--junit", paramLabel = "FILE", description = "Write the scenario's expectation verdicts as "
      + "JUnit XML (one test case per expectation).")
  Path junit;

  @picocli.CommandLine.Mixin
  LimitsOption limits = new LimitsOption();

  @picocli.CommandLine.Mixin
  MetricsOption metricsOption = new MetricsOption();

  @Override
  int execute() throws Exception {
    Records recorded = Records.parse(records);
    LoadedScenario scenario = Inputs.load(file, sets, limits.limits());
    if (seed != null) {
      scenario = scenario.withSeed(seed);
    }
    if (!recorded.isEmpty() && scenario.volcano() != null) {
      throw new UserError("--record " + String.join(",", records) + " records Kueue's objects; "
          + "this scenario runs under Volcano");
    }
    OutputDirectory dir = new OutputDirectory(out != null ? out : Path.of("out", dirName(scenario.spec().name())));
    dir.checkReplaceable();
    Verdicts.checkJUnit(junit);
    MetricsOutput metrics = metricsOption.open(scenario, dir.path());
    WorkloadRows rows = null;
    try {
      rows = dir.rows(explain);
      return execute(scenario, dir, recorded, rows, metrics);
    } catch (IOException e) {
      throw dir.failed(e);
    } catch (UncheckedIOException e) { // the rows or records streaming out of the run
      throw dir.failed(e.getCause());
    } finally {
      if (rows != null) {
        rows.discard();
      }
      recorded.discard();
      metrics.discard();
    }
  }

  private int execute(LoadedScenario scenario, OutputDirectory dir, Records recorded, WorkloadRows rows,
      MetricsOutput metrics) throws Exception {
    recorded.open(dir.path());
    StatusWatch watch = scenario.expectations().newStatusWatch();
    // `invariants: clean` can only be judged by a checked run.
    boolean checked = check || scenario.expectations().needsInvariantCheck();
    long wallStart = System.nanoTime(); // wall time is measured here, never inside the engine
    Progress progress = Progress.forRun(err(), scenario.spec(), quiet, progressOption.forced);
    RunResult result;
    try {
      result = simulate(scenario, checked, junit, explain, progress, both(recorded.status(), watch),
          progress == null ? rows : progress.counting(rows),
          stalled -> { // even with --quiet: the input is at fault
            if (progress != null) {
              progress.done(); // the warning starts on a line of its own, not after a live bar
            }
            err().println("batchsim: warning: " + stalled);
          }, metrics.scrapes());
    } finally {
      if (progress != null) {
        progress.done(); // also before an error's message
      }
    }
    long wallNanos = System.nanoTime() - wallStart;
    RunMetadata meta = scenario.metadata(null, Version.build());
    metrics.check();
    dir.write(tmp -> {
      Reports.writeAll(result, meta, rows, tmp);
      recorded.moveInto(tmp);
      metrics.writeInto(tmp);
    });
    metrics.publish();
    if (!quiet) {
      out().print(SummaryTable.render(result, meta));
      out().flush(); // the self-report closes the output, after the summary
      err().println(SelfReport.line(result, rows.count(), wallNanos, dir.path()));
    }
    List<Outcome> outcomes = scenario.expectations().evaluate(RunResultView.of(result), checked, watch);
    long failed = Verdicts.print(outcomes.isEmpty() ? null : "\nExpectations", outcomes, out(), err(), quiet);
    if (junit != null) {
      Verdicts.writeJUnit(junit, List.of(new JUnitXml.Suite(scenario.spec().name(), file.toString(), outcomes,
          Provenance.lines(meta, result.seed()), wallNanos)));
    }
    return failed > 0 ? Verdicts.FAILED : OK;
  }

  /**
   * Runs {@code scenario}; when the checker finds an invariant broken, the JUnit file (if asked for) still
   * records it before the violation propagates (exit 3).
   */
  static RunResult simulate(LoadedScenario scenario, boolean checked, Path junit, StatusSink status,
      WorkloadSink workloads) throws IOException, UserError {
    return simulate(scenario, checked, junit, false, null, status, workloads, null, null);
  }

  /**
   * {@code workloads}: where each workload's record streams (null: the result keeps them all); {@code metrics}:
   * where the metric model is scraped (null: nowhere).
   */
  static RunResult simulate(LoadedScenario scenario, boolean checked, Path junit, boolean explain,
      java.util.function.LongConsumer progress, StatusSink status, WorkloadSink workloads,
      java.util.function.Consumer<String> stalls, Runs.MetricScrapes metrics) throws IOException, UserError {
    long start = System.nanoTime(); // for JUnit XML's time only
    try {
      return Runs.run(scenario.spec(), scenario.volcano(), checked, explain, progress, status, workloads, stalls,
          metrics);
    } catch (InvariantViolation e) {
      if (junit != null) {
        Verdicts.writeJUnit(junit, List.of(new JUnitXml.Suite(scenario.spec().name(), scenario.file(),
            scenario.expectations().afterViolation(e.getMessage()),
            Provenance.lines(scenario.metadata(null, Version.build()), scenario.spec().seed()),
            System.nanoTime() - start)));
      }
      throw e;
    }
  }

  /** Both sinks (either may be null), or null when there is none. */
  static StatusSink both(StatusSink a, StatusSink b) {
    if (a == null || b == null) {
      return a == null ? b : a;
    }
    return r -> {
      a.accept(r);
      b.accept(r);
    };
  }

  /** The scenario name as one safe path segment. */
  static String dirName(String scenarioName) {
    String s = scenarioName.replaceAll("[^A-Za-z0-9._-]", "_");
    return s.isEmpty() || s.chars().allMatch(c -> c == '.') ? "_" + s : s;
  }
}
