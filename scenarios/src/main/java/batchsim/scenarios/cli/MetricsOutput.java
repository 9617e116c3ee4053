package batchsim.scenarios.cli;

import batchsim.core.sim.Runs;
import batchsim.reports.OpenMetricsFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.SortedMap;

/**
 * The {@code --metrics} file of one run: spooled next to where it goes while the run scrapes, assembled after
 * it, and moved into place with the reports — into the output directory being written when the file lies inside
 * {@code --out}, else by an atomic rename once the reports are in place. A failed run leaves nothing.
 */
final class MetricsOutput {
  private final Path target;
  /** The file's path inside the output directory, or null when it lies outside. */
  private final Path insideOut;
  private final long intervalMs;
  private final OpenMetricsFile file;
  private Path assembled;

  /** No {@code --metrics}: every step does nothing. */
  static final MetricsOutput NONE = new MetricsOutput(null, null, 0, null);

  private MetricsOutput(Path target, Path insideOut, long intervalMs, OpenMetricsFile file) {
    this.target = target;
    this.insideOut = insideOut;
    this.intervalMs = intervalMs;
    this.file = file;
  }

  /** {@code runInfo}: the labels of the file's {@code batchsim_run} info metric (the run's provenance). */
  static MetricsOutput open(Path file, Path outDir, long epochMs, long intervalMs, SortedMap<String, String> runInfo)
      throws ScenarioCommand.UserError {
    Path target = file.toAbsolutePath().normalize();
    Path out = outDir.toAbsolutePath().normalize();
    if (Files.isDirectory(target) || target.equals(out)) {
      throw new ScenarioCommand.UserError("--metrics " + file + ": is a directory; give a file name, e.g. --metrics "
          + file.resolve("metrics.om"));
    }
    if (Files.exists(target) && !Files.isRegularFile(target)) {
      throw new ScenarioCommand.UserError("--metrics " + file + ": exists and is not a regular file");
    }
    Path inside = target.startsWith(out) ? out.relativize(target) : null;
    Path spoolDir = inside != null ? out.getParent() : target.getParent();
    Writable.check("--metrics", inside != null ? out : target);
    try {
      Files.createDirectories(spoolDir);
    } catch (IOException e) {
      throw new ScenarioCommand.UserError("--metrics " + file + ": cannot create " + spoolDir + " ("
          + Writable.reason(e) + ")");
    }
    String name = (inside != null ? out : target).getFileName().toString();
    return new MetricsOutput(target, inside, intervalMs,
        OpenMetricsFile.open(spoolDir, name + ".metrics", epochMs, runInfo));
  }

  /** What the run scrapes into. */
  Runs.MetricScrapes scrapes() {
    return file == null ? null : new Runs.MetricScrapes(intervalMs, file);
  }

  /** Refuses a file that grew too large during the run (nothing is written: exit 2). */
  void check() throws ScenarioCommand.UserError {
    if (file != null && file.overflow() != null) {
      throw new ScenarioCommand.UserError("--metrics " + target + ": " + file.overflow()
          + "; scrape less often with a larger --metrics-interval (now " + batchsim.core.model.Durations.format(intervalMs)
          + ")");
    }
  }

  /** Assembles the file; when it lies inside the output directory, moves it into {@code outTmp} (being written). */
  void writeInto(Path outTmp) throws IOException {
    if (file == null) {
      return;
    }
    assembled = file.finish();
    if (insideOut != null) {
      Path dest = outTmp.resolve(insideOut);
      Files.createDirectories(dest.getParent());
      Files.move(assembled, dest);
      assembled = null;
    }
  }

  /** Moves the file into place when it lies outside the output directory (after the reports went in). */
  void publish() throws ScenarioCommand.UserError {
    if (assembled == null) {
      return;
    }
    try {
      Files.move(assembled, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      assembled = null;
    } catch (IOException e) {
      throw new ScenarioCommand.UserError("cannot write --metrics " + target + ": " + Writable.reason(e));
    }
  }

  /** Deletes what was not moved into place (spools, an assembled file). */
  void discard() throws IOException {
    if (file != null) {
      file.discard();
    }
    if (assembled != null) {
      Files.deleteIfExists(assembled);
    }
  }
}
