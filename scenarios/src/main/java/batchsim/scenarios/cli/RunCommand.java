package batchsim.scenarios.cli;

import batchsim.core.metrics.RunResult;
import batchsim.core.sim.Simulation;
import batchsim.reports.Reports;
import batchsim.reports.RunMetadata;
import batchsim.reports.SummaryTable;
import batchsim.scenarios.LoadedScenario;
import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code batchsim run SCENARIO}: loads, simulates, writes the reports into {@code --out} (default
 * {@code out/<scenario name>}) and prints the summary table. Nothing is written when loading fails,
 * and the output directory appears only when every report was written.
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

  @Option(names = "--check", description = "Check the engine's invariants after every event (slower).")
  boolean check;

  @Override
  int execute() throws Exception {
    LoadedScenario scenario = load(file);
    if (seed != null) {
      scenario = scenario.withSeed(seed);
    }
    OutputDirectory dir = new OutputDirectory(out != null ? out : Path.of("out", dirName(scenario.spec().name())));
    dir.checkReplaceable();
    long wallStart = System.nanoTime(); // wall time is measured here, never inside the engine
    RunResult result = new Simulation(scenario.spec()).checked(check).run();
    long wallNanos = System.nanoTime() - wallStart;
    RunMetadata meta = new RunMetadata(file.toString(), scenario.sha256(), Version.get());
    dir.write(tmp -> Reports.writeAll(result, meta, tmp));
    if (!quiet) {
      out().print(SummaryTable.render(result, meta));
      err().println(SelfReport.line(result, wallNanos, dir.path()));
    }
    return OK;
  }

  /** The scenario name as one safe path segment. */
  static String dirName(String scenarioName) {
    String s = scenarioName.replaceAll("[^A-Za-z0-9._-]", "_");
    return s.isEmpty() || s.chars().allMatch(c -> c == '.') ? "_" + s : s;
  }
}
