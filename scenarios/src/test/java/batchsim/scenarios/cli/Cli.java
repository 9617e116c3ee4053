package batchsim.scenarios.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import picocli.CommandLine;

/** Runs the CLI in-process and captures what it prints. */
final class Cli {
  private Cli() {}

  record Result(int exit, String out, String err) {
    List<String> errLines() {
      return err.lines().toList();
    }
  }

  static Result run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int exit = new CommandLine(new BatchsimCommand())
        .setOut(new PrintWriter(out, true))
        .setErr(new PrintWriter(err, true))
        .execute(args);
    return new Result(exit, out.toString(), err.toString());
  }
}
