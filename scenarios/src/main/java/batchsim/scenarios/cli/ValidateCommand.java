package batchsim.scenarios.cli;

import batchsim.core.model.SimulationSpec;
import batchsim.scenarios.ScenarioException;
import batchsim.scenarios.sweep.SweepPlan;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code batchsim validate SCENARIO...}: loads each file and reports every problem, without running. */
@Command(name = "validate", header = "Check scenario files and report every problem in them.",
    mixinStandardHelpOptions = true)
final class ValidateCommand extends ScenarioCommand {
  @Parameters(arity = "1..*", paramLabel = "SCENARIO", description = "Scenario YAML file(s).")
  List<Path> files;

  @picocli.CommandLine.Mixin
  LimitsOption limits = new LimitsOption();

  @Override
  int execute() throws Exception {
    int exit = OK;
    var within = limits.limits();
    for (Path file : files) {
      try {
        SimulationSpec s = SweepPlan.validate(Inputs.compose(file, List.of()), within).spec(); // the matrix's cells too
        out().println(String.format(Locale.ROOT, "%s: ok (%s, %s, %s)", file,
            plural(s.nodePools().size(), "node pool"), plural(s.clusterQueues().size(), "ClusterQueue"),
            plural(s.workloadSources().size(), "workload source")));
      } catch (ScenarioException e) {
        printProblems(e);
        exit = INVALID;
      } catch (UserError e) {
        err().println("batchsim: " + e.getMessage());
        exit = INVALID;
      }
    }
    return exit;
  }

  private static String plural(int n, String noun) {
    return n + " " + noun + (n == 1 ? "" : "s");
  }
}
