package batchsim.scenarios.cli;

import batchsim.scenarios.expect.JUnitXml;
import batchsim.scenarios.expect.Outcome;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Prints expectation verdicts and writes them as JUnit XML; shared by run, check and sweep. */
final class Verdicts {
  /** Exit code when an expectation failed. */
  static final int FAILED = 1;

  private Verdicts() {}

  /**
   * Prints {@code heading} (unless null) and one line per verdict to {@code out}, or, when {@code quiet},
   * only the failures to {@code err}; then a closing count to {@code err} when something failed.
   * Returns the number of failures.
   */
  static long print(String heading, List<Outcome> outcomes, PrintWriter out, PrintWriter err, boolean quiet) {
    long failed = outcomes.stream().filter(Outcome::failed).count();
    if (!quiet && heading != null) {
      out.println(heading);
    }
    for (Outcome o : outcomes) {
      if (!quiet) {
        out.println("  " + o.line() + (o.failed() ? "  [" + o.at() + "]" : ""));
      } else if (o.failed()) {
        err.println(o.at() + ": " + o.line());
      }
    }
    if (failed > 0) {
      err.println("batchsim: " + failed + " of " + outcomes.size() + " expectation" + (outcomes.size() == 1 ? "" : "s")
          + " failed");
    }
    return failed;
  }

  /** Refuses, before a run, a {@code --junit} file that could not be written afterwards. */
  static void checkJUnit(Path file) throws ScenarioCommand.UserError {
    if (file == null) {
      return;
    }
    if (Files.isDirectory(file)) {
      throw new ScenarioCommand.UserError("--junit " + file + ": is a directory; give a file name, e.g. --junit "
          + file.resolve("junit.xml"));
    }
    if (Files.exists(file) && !Files.isRegularFile(file)) {
      throw new ScenarioCommand.UserError("--junit " + file + ": exists and is not a regular file");
    }
    Writable.check("--junit", file);
  }

  static void writeJUnit(Path file, List<JUnitXml.Suite> suites) throws ScenarioCommand.UserError {
    try {
      Inputs.writeAtomically(file, JUnitXml.render(suites));
    } catch (IOException e) {
      throw new ScenarioCommand.UserError("cannot write --junit " + file + ": " + Writable.reason(e));
    }
  }
}
