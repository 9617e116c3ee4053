package batchsim.scenarios.cli;

import batchsim.scenarios.RunLimits;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/** {@code --limits}: the budgets a scenario is checked against before it runs (see {@link RunLimits}). */
final class LimitsOption {
  @Option(names = "--limits", paramLabel = "KEY=VALUE[,KEY=VALUE]", split = "(?!)", description = "Raise or lower "
      + "what one run may ask for before it starts: nodes=200000, events=10000000 (timeline), samples=5000000 "
      + "(rows), workloads=20000000, memory=80%% (of the JVM's max heap); a value may be off, e.g. --limits "
      + "nodes=500000,events=2e7 (repeatable).")
  List<String> specs = new ArrayList<>();

  /** The limits given, on top of the defaults; a bad one is the user's error (exit 2). */
  RunLimits limits() throws ScenarioCommand.UserError {
    try {
      return RunLimits.parse(specs);
    } catch (IllegalArgumentException e) {
      throw new ScenarioCommand.UserError(e.getMessage());
    }
  }
}
