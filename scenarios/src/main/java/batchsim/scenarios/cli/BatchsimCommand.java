package batchsim.scenarios.cli;

import batchsim.scenarios.conformance.ConformanceCommand;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;

/** {@code batchsim}: the root command; on its own it prints usage. */
@Command(
    name = "batchsim",
    mixinStandardHelpOptions = true,
    versionProvider = Version.class,
    description = "Deterministic discrete-event simulator of Kubernetes clusters running Kueue admission.",
    subcommands = {ValidateCommand.class, RunCommand.class, ExplainCommand.class, CheckCommand.class,
        SweepCommand.class, CompareCommand.class, ConformanceCommand.class, StoriesCommand.class, batchsim.scenarios.imports.ImportCommand.class, EtaCommand.class,
        CompletionCommand.class, CommandLine.HelpCommand.class})
public final class BatchsimCommand implements Callable<Integer> {
  @CommandLine.Spec
  CommandSpec spec;

  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getErr());
    return CommandLine.ExitCode.USAGE;
  }

  public static void main(String[] args) {
    System.exit(new CommandLine(new BatchsimCommand()).setExecutionExceptionHandler(BatchsimCommand::internal)
        .execute(args));
  }

  /** A failure that escaped a command not based on ScenarioCommand: a bug, one line, its own exit code. */
  private static int internal(Exception e, CommandLine cl, CommandLine.ParseResult parsed) {
    int code = ScenarioCommand.internal(cl.getErr(), e, "1".equals(System.getenv("BATCHSIM_DEBUG")),
        "set BATCHSIM_DEBUG=1");
    cl.getErr().flush();
    return code;
  }
}
