package batchsim.scenarios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class CompletionCommandTest {
  @Test
  void script_namesEverySubcommand_andEveryOptionOfEach() {
    Cli.Result r = Cli.run("completion");
    assertEquals(0, r.exit(), r.err());
    String script = r.out();
    assertTrue(script.contains("complete -F _complete_batchsim"), "registers the completion function for batchsim");
    CommandLine root = new CommandLine(new BatchsimCommand());
    assertTrue(root.getSubcommands().size() >= 12, root.getSubcommands().keySet().toString());
    List<String> wrong = new ArrayList<>();
    for (var sub : root.getSubcommands().entrySet()) {
      // picocli writes one function per subcommand, listing its flags and its options that take a value
      Matcher f = Pattern.compile("function _picocli_batchsim_" + sub.getKey() + "\\(\\) \\{\n(.*?)\n}\n",
          Pattern.DOTALL).matcher(script);
      if (!f.find()) {
        wrong.add(sub.getKey() + ": no completion function");
        continue;
      }
      Set<String> listed = new TreeSet<>();
      Matcher opts = Pattern.compile("local (?:flag|arg)_opts=\"([^\"]*)\"").matcher(f.group(1));
      while (opts.find()) {
        listed.addAll(List.of(opts.group(1).split(" ")));
      }
      listed.remove("");
      Set<String> declared = new TreeSet<>();
      sub.getValue().getCommandSpec().options().forEach(o -> declared.addAll(List.of(o.names())));
      if (!listed.equals(declared)) {
        wrong.add(sub.getKey() + ": completes " + listed + ", declares " + declared);
      }
    }
    assertEquals(List.of(), wrong);
    assertTrue(script.contains("  local commands=\"" + String.join(" ", root.getSubcommands().keySet()) + "\""),
        "the top level completes every subcommand");
    assertTrue(script.contains("--progress") && script.contains("--junit") && script.contains("--set"));
  }
}
