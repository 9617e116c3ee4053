package batchsim.scenarios.cli;

import batchsim.scenarios.Problem;
import batchsim.scenarios.ScenarioException;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import batchsim.core.world.InvariantViolation;
import batchsim.core.world.TimelineError;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * Base of the commands that read scenarios: maps failures to one line each and an exit code, so that
 * users never see a stack trace for a problem that is theirs (those exit 2), and internal failures (a bug
 * in every case) exit {@value #INTERNAL} with a stack trace only on request ({@code --debug} or
 * {@code BATCHSIM_DEBUG=1}). Each code means one thing: 1 is only ever a failed expectation.
 */
abstract class ScenarioCommand implements Callable<Integer> {
  static final int OK = CommandLine.ExitCode.OK;
  /** A bug in batchsim (sysexits' EX_SOFTWARE); never the verdict on the user's input. */
  static final int INTERNAL = 70;
  static final int INVALID = CommandLine.ExitCode.USAGE;
  /** A checked run found an engine invariant broken. */
  static final int INVARIANT_VIOLATED = 3;

  @CommandLine.Spec
  CommandSpec spec;

  @Option(names = "--debug", description = "Print stack traces of internal errors (also: BATCHSIM_DEBUG=1).")
  boolean debug;

  /** Does the command's work; may throw {@link UserError} or {@link ScenarioException} for exit code 2. */
  abstract int execute() throws Exception;

  @Override
  public final Integer call() {
    try {
      return execute();
    } catch (ScenarioException e) {
      printProblems(e);
      return INVALID;
    } catch (UserError e) {
      err().println("batchsim: " + e.getMessage());
      return INVALID;
    } catch (TimelineError e) {
      err().println(e.getMessage()); // located like a scenario problem: the run wrote nothing
      return INVALID;
    } catch (InvariantViolation e) {
      err().println("batchsim: " + e.getMessage());
      err().println("batchsim: the events that led to it, oldest first:");
      for (String ev : e.recentEvents()) {
        err().println("  " + ev);
      }
      return INVARIANT_VIOLATED;
    } catch (Exception | LinkageError | AssertionError | StackOverflowError e) {
      return internal(err(), e, debugEnabled(), "rerun with --debug");
    } finally {
      out().flush();
      err().flush();
    }
  }

  /** A bug in batchsim: one line (and the stack trace when debugging), exit {@link #INTERNAL}. */
  static int internal(PrintWriter err, Throwable e, boolean debug, String howToDebug) {
    err.println("batchsim: internal error: " + e + (debug ? "" : " (" + howToDebug + " for the stack trace)"));
    if (debug) {
      e.printStackTrace(err);
    }
    return INTERNAL;
  }

  PrintWriter out() {
    return spec.commandLine().getOut();
  }

  PrintWriter err() {
    return spec.commandLine().getErr();
  }

  void printProblems(ScenarioException e) {
    for (Problem p : e.problems()) {
      err().println(p);
    }
  }

  private boolean debugEnabled() {
    return debug || "1".equals(System.getenv("BATCHSIM_DEBUG"));
  }

  /** A problem with the user's input or environment, reported as one line with exit code 2. */
  static final class UserError extends Exception {
    private static final long serialVersionUID = 1L;

    UserError(String message) {
      super(message);
    }
  }
}
