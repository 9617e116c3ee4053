package batchsim.scenarios.cli;

import batchsim.core.model.Durations;
import java.io.PrintWriter;
import java.util.Locale;

/**
 * A sweep's progress on stderr: one line per cell as the cells complete (in cell order), with cells done of
 * the total and an ETA from the pace of the cells run so far (cells kept from an interrupted sweep take no
 * time, so they do not count in the pace).
 */
final class SweepProgress {
  private final PrintWriter err;
  private final WallClock clock;
  private final int total;
  private final long start;
  private int done;
  private int ran;

  SweepProgress(PrintWriter err, WallClock clock, int total) {
    this.err = err;
    this.clock = clock;
    this.total = total;
    this.start = clock.nanos();
  }

  /** Reports that cell {@code name} is done ({@code kept}: done before, by an interrupted sweep). */
  void cellDone(String name, boolean kept) {
    done++;
    if (!kept) {
      ran++;
    }
    double wallS = (clock.nanos() - start) / 1e9;
    StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "batchsim: [%d/%d] %s%s", done, total, name,
        kept ? " (done before; kept)" : ""));
    if (done < total && ran > 0) {
      s.append(", ETA ").append(Durations.format(Math.round(wallS / ran * (total - done)) * 1000));
    }
    err.println(s.append(String.format(Locale.ROOT, ", %.0fs wall", wallS)));
    err.flush();
  }
}
