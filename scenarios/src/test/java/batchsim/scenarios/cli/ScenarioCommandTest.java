package batchsim.scenarios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;

class ScenarioCommandTest {
  @Command(name = "boom")
  static final class Boom extends ScenarioCommand {
    @Override
    int execute() {
      throw new IllegalStateException("kaput");
    }
  }

  private static String[] run(String... args) {
    StringWriter err = new StringWriter();
    int exit = new CommandLine(new Boom()).setErr(new PrintWriter(err, true)).execute(args);
    return new String[] {Integer.toString(exit), err.toString()};
  }

  @Test
  void call_unexpectedException_isOneLineAndExit70() {
    String[] r = run();
    assertEquals("70", r[0]);
    assertEquals("batchsim: internal error: java.lang.IllegalStateException: kaput "
        + "(rerun with --debug for the stack trace)\n", r[1]);
  }

  @Test
  void call_unexpectedExceptionWithDebug_printsStackTrace() {
    String[] r = run("--debug");
    assertEquals("70", r[0]);
    assertTrue(r[1].startsWith("batchsim: internal error: java.lang.IllegalStateException: kaput\n"), r[1]);
    assertTrue(r[1].contains("at batchsim.scenarios.cli.ScenarioCommandTest$Boom.execute"), r[1]);
  }
}
