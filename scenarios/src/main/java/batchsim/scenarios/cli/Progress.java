package batchsim.scenarios.cli;

import batchsim.core.model.Durations;
import batchsim.core.model.SimulationSpec;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.function.LongConsumer;

/**
 * Progress of a long run on stderr, only when stderr is a terminal: simulated time reached, % of the
 * horizon, wall time and ETA. Wall time is read here, in the CLI, never inside the engine.
 */
final class Progress implements LongConsumer {
  private final PrintWriter err;
  private final long horizonMs;
  private final long start = System.nanoTime();
  private long lastPrint = start;
  private boolean printed;

  private Progress(PrintWriter err, long horizonMs) {
    this.err = err;
    this.horizonMs = horizonMs;
  }

  /** A listener for a terminal, or null when output goes elsewhere or --quiet was given. */
  static Progress forTerminal(PrintWriter err, SimulationSpec spec, boolean quiet) {
    return quiet || System.console() == null ? null : new Progress(err, spec.horizonMs());
  }

  @Override
  public void accept(long nowMs) {
    long t = System.nanoTime();
    if (t - lastPrint < 500_000_000L) {
      return;
    }
    lastPrint = t;
    double wallS = (t - start) / 1e9;
    StringBuilder line = new StringBuilder("\rbatchsim: simulated ").append(Durations.format(nowMs));
    if (horizonMs != SimulationSpec.NO_HORIZON && horizonMs > 0) {
      double f = Math.min(1, nowMs / (double) horizonMs);
      line.append(String.format(Locale.ROOT, " (%.0f%% of horizon, ETA %.0fs)", 100 * f,
          f > 0 ? wallS * (1 - f) / f : 0));
    }
    line.append(String.format(Locale.ROOT, ", %.1fs wall   ", wallS));
    err.print(line);
    err.flush();
    printed = true;
  }

  /** Ends the progress line so the summary starts on a clean line. */
  void done() {
    if (printed) {
      err.print("\r" + " ".repeat(78) + "\r");
      err.flush();
    }
  }
}
