package batchsim.scenarios.cli;

import batchsim.core.metrics.RunResult;
import batchsim.reports.Reports;
import batchsim.reports.WorkloadRows;
import batchsim.reports.Provenance;
import batchsim.reports.RunMetadata;
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
 * {@code batchsim check SCENARIO}: the CI form of {@code run}. Always checks the engine's invariants,
 * prints only the expectation verdicts, writes reports only when {@code --out} is given. Exits 0 when
 * every expectation holds, 1 when one fails, 2 on bad input, 3 on an invariant violation.
 */
@Command(name = "check", header = "Run a scenario with the invariant checker and judge its expectations.",
    mixinStandardHelpOptions = true)
final class CheckCommand extends ScenarioCommand {
  @Parameters(index = "0", paramLabel = "SCENARIO", description = "Scenario YAML file.")
  Path file;

  @Option(names = "--seed", paramLabel = "N", description = "Root seed (overrides the scenario's seed).")
  Long seed;

  @Option(names = "--set", paramLabel = "PATH=VALUE", description = "Override a scenario value (repeatable).")
  List<String> sets = new ArrayList<>();

  @Option(names = "--junit", paramLabel = "FILE", description = "Write the verdicts as JUnit XML.")
  Path junit;

  @Option(names = "--out", paramLabel = "DIR", description = "Also write the run's reports here.")
  Path out;

  @Option(names = {"-q", "--quiet"}, description = "Print only failures.")
  boolean quiet;

  @picocli.CommandLine.Mixin
  LimitsOption limits = new LimitsOption();

  @Override
  int execute() throws Exception {
    LoadedScenario scenario = Inputs.load(file, sets, limits.limits());
    if (seed != null) {
      scenario = scenario.withSeed(seed);
    }
    OutputDirectory dir = out == null ? null : new OutputDirectory(out);
    if (dir != null) {
      dir.checkReplaceable();
    }
    Verdicts.checkJUnit(junit);
    StatusWatch watch = scenario.expectations().newStatusWatch();
    WorkloadRows rows = null;
    RunResult result;
    long start = System.nanoTime(); // for JUnit XML's time only
    long wallNanos;
    try {
      rows = dir == null ? null : dir.rows(false);
      result = RunCommand.simulate(scenario, true, junit, watch, rows);
      wallNanos = System.nanoTime() - start;
      if (dir != null) {
        RunMetadata meta = scenario.metadata(null, Version.build());
        WorkloadRows written = rows;
        dir.write(tmp -> Reports.writeAll(result, meta, written, tmp));
      }
    } catch (IOException e) {
      throw dir == null ? e : dir.failed(e);
    } catch (UncheckedIOException e) { // the rows streaming out of the run
      throw dir == null ? e : dir.failed(e.getCause());
    } finally {
      if (rows != null) {
        rows.discard();
      }
    }
    List<Outcome> outcomes = scenario.expectations().evaluate(RunResultView.of(result), true, watch);
    long failed = Verdicts.print(scenario.spec().name() + ": invariants held after every event; "
        + (outcomes.isEmpty() ? "the scenario has no expectations" : outcomes.size() + " expectation"
        + (outcomes.size() == 1 ? "" : "s")), outcomes, out(), err(), quiet);
    if (junit != null) {
      Verdicts.writeJUnit(junit, List.of(new JUnitXml.Suite(scenario.spec().name(), file.toString(), outcomes,
          Provenance.lines(scenario.metadata(null, Version.build()), result.seed()), wallNanos)));
    }
    return failed > 0 ? Verdicts.FAILED : OK;
  }
}
