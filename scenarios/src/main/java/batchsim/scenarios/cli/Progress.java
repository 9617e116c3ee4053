package batchsim.scenarios.cli;

import batchsim.core.model.Durations;
import batchsim.core.model.SimulationSpec;
import batchsim.core.model.WorkloadSourceSpec;
import batchsim.core.world.WorkloadSink;
import batchsim.workloads.WorkloadClass;
import batchsim.workloads.WorkloadList;
import batchsim.workloads.trace.KueueGeneratorSet;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.function.LongConsumer;

/**
 * Progress of a run on stderr: simulated time reached (of the horizon when there is one), workloads done and
 * workloads per wall second, and an ETA from the fraction done — of the horizon when the scenario has one,
 * else of its known arrivals (a list, generator sets, classes with a count); no ETA when neither is known.
 * On a terminal a live one-line bar redrawn with a carriage return; elsewhere (CI logs) a plain line every
 * {@link #PLAIN_EVERY_NANOS} s, so a short run prints nothing. Wall time is read here, never in the engine.
 */
final class Progress implements LongConsumer {
  /** How a progress line is shown. */
  enum Mode { LIVE, PLAIN }

  static final long LIVE_EVERY_NANOS = 500_000_000L;
  static final long PLAIN_EVERY_NANOS = 10_000_000_000L;
  private static final int BAR = 10;
  static final int LIVE_WIDTH = 79;

  private final PrintWriter err;
  private final Mode mode;
  private final WallClock clock;
  private final long horizonMs;
  private final long knownArrivals;
  private final long start;
  private long lastPrint;
  private long workloadsDone;
  private int printedWidth;

  /** {@code knownArrivals}: the workloads the run will see, or -1 when unknown. */
  Progress(PrintWriter err, Mode mode, WallClock clock, long horizonMs, long knownArrivals) {
    this.err = err;
    this.mode = mode;
    this.clock = clock;
    this.horizonMs = horizonMs;
    this.knownArrivals = knownArrivals;
    this.start = clock.nanos();
    this.lastPrint = start;
  }

  /**
   * The progress of a run of {@code spec}, or null when off: off with {@code --quiet}, on with {@code --progress}
   * (even with --quiet), else on. Live on a terminal, plain lines elsewhere.
   */
  static Progress forRun(PrintWriter err, SimulationSpec spec, boolean quiet, boolean forced) {
    return quiet && !forced ? null
        : new Progress(err, terminalMode(), WallClock.SYSTEM, spec.horizonMs(), knownArrivals(spec));
  }

  /**
   * LIVE when stderr is a terminal and not a dumb one. Java 17 tells only whether stdin and stdout are, so the
   * launcher says whether stderr is ({@code BATCHSIM_STDERR_TTY}, from {@code [ -t 2 ]}): a redirected stderr
   * gets plain lines, never a bar's redraws; without the launcher's word, stderr is taken to go where stdout goes.
   */
  static Mode terminalMode() {
    String tty = System.getenv("BATCHSIM_STDERR_TTY");
    boolean terminal = tty != null ? tty.equals("1") : System.console() != null;
    return terminal && !"dumb".equals(System.getenv("TERM")) ? Mode.LIVE : Mode.PLAIN;
  }

  /** The workloads a run of {@code spec} will see, or -1 when a source does not say (a trace, an endless class). */
  static long knownArrivals(SimulationSpec spec) {
    long total = 0;
    for (WorkloadSourceSpec s : spec.workloadSources()) {
      long n;
      if (s instanceof WorkloadList l) {
        n = l.entries().size();
      } else if (s instanceof KueueGeneratorSet g) {
        n = g.count() * g.templates().size();
      } else if (s instanceof WorkloadClass c && c.count() != WorkloadClass.UNLIMITED) {
        n = c.count();
      } else {
        return -1;
      }
      total += n;
    }
    return total;
  }

  /** {@code next}, counting the workloads whose record comes (each ended workload's, as the run goes). */
  WorkloadSink counting(WorkloadSink next) {
    return (seq, record, decisions) -> {
      workloadsDone++;
      if (next != null) {
        next.accept(seq, record, decisions);
      }
    };
  }

  @Override
  public void accept(long nowMs) {
    long t = clock.nanos();
    if (t - lastPrint < (mode == Mode.LIVE ? LIVE_EVERY_NANOS : PLAIN_EVERY_NANOS)) {
      return;
    }
    lastPrint = t;
    String text = line(nowMs, t - start);
    if (mode == Mode.LIVE) {
      // Padded over the previous line's leftovers; the cursor stays at its start for the next one.
      err.print("\r" + text + " ".repeat(Math.max(0, printedWidth - text.length())));
      printedWidth = text.length();
    } else {
      err.println(text);
    }
    err.flush();
  }

  /** Clears the live line so the summary starts on a clean line. */
  void done() {
    if (printedWidth > 0) {
      err.print("\r" + " ".repeat(printedWidth) + "\r");
      err.flush();
      printedWidth = 0;
    }
  }

  /**
   * The progress text at simulated time {@code nowMs}, {@code wallNanos} after the start: the fraction done
   * and the ETA stand after the horizon ("of 10h (20%), ETA 40s") or after the known arrivals ("250 of 1000
   * workloads done (25%), ETA 30s").
   * A live line has a bar instead of the "batchsim:" prefix and is cut to {@link #LIVE_WIDTH} characters
   * (a wrapped line cannot be redrawn in place), so the ETA comes early.
   */
  String line(long nowMs, long wallNanos) {
    double wallS = wallNanos / 1e9;
    boolean byHorizon = horizonMs != SimulationSpec.NO_HORIZON && horizonMs > 0;
    boolean byArrivals = !byHorizon && knownArrivals > 0;
    double fraction = byHorizon ? Math.min(1, nowMs / (double) horizonMs)
        : byArrivals ? Math.min(1, workloadsDone / (double) knownArrivals) : -1;
    StringBuilder s = new StringBuilder();
    if (mode == Mode.LIVE) {
      int filled = fraction < 0 ? 0 : (int) Math.round(fraction * BAR);
      s.append('[').append("#".repeat(filled)).append(".".repeat(BAR - filled)).append("] ");
    } else {
      s.append("batchsim: ");
    }
    s.append("simulated ").append(Durations.format(nowMs < 1000 ? nowMs : nowMs - nowMs % 1000)); // whole seconds
    if (byHorizon) {
      s.append(" of ").append(Durations.format(horizonMs)).append(percent(fraction));
      eta(s, fraction, wallS);
    }
    s.append(", ").append(workloadsDone);
    if (byArrivals) {
      s.append(" of ").append(knownArrivals);
    }
    s.append(" workloads done");
    if (byArrivals) { // the ETA before the rate, so that a cut live line keeps it whole
      s.append(percent(fraction));
      eta(s, fraction, wallS);
    }
    s.append(String.format(Locale.ROOT, ", %.0f/s", wallS > 0 ? workloadsDone / wallS : 0));
    s.append(String.format(Locale.ROOT, ", %.0fs wall", wallS));
    return mode == Mode.LIVE && s.length() > LIVE_WIDTH ? s.substring(0, LIVE_WIDTH) : s.toString();
  }

  private static String percent(double fraction) {
    return String.format(Locale.ROOT, " (%.0f%%)", 100 * fraction);
  }

  /** ", ETA 40s": the wall time left at the pace so far; none before anything is done. */
  private static void eta(StringBuilder s, double fraction, double wallS) {
    if (fraction > 0) {
      s.append(", ETA ").append(Durations.format(Math.round(wallS * (1 - fraction) / fraction) * 1000));
    }
  }
}
