package batchsim.scenarios.cli;

import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code batchsim completion}: prints picocli's generated completion script for bash and zsh (zsh through its
 * bashcompinit), covering every subcommand and option: {@code source <(bin/batchsim completion)}.
 */
@Command(name = "completion", mixinStandardHelpOptions = true,
    header = "Print the bash/zsh completion script: source <(bin/batchsim completion)",
    description = "Add `source <(bin/batchsim completion)` to ~/.bashrc or ~/.zshrc to complete batchsim's "
        + "subcommands and options with TAB.")
final class CompletionCommand implements Callable<Integer> {
  @CommandLine.Spec
  CommandSpec spec;

  @Override
  public Integer call() {
    CommandLine root = spec.root().commandLine();
    spec.commandLine().getOut().print(AutoComplete.bash(root.getCommandName(), root));
    spec.commandLine().getOut().flush();
    return CommandLine.ExitCode.OK;
  }
}
