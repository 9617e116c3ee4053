package batchsim.scenarios.cli;

import batchsim.scenarios.sweep.Cell;
import batchsim.scenarios.sweep.CellResult;
import batchsim.scenarios.sweep.SweepRunner;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * {@code batchsim sweep SCENARIO --cell N --out DIR}: one cell of a sweep whose cells run elsewhere (the pods of an
 * Indexed Job), through the same path as a local sweep's cell: its reports and done-marker go to
 * {@code DIR/cells/<cell>/}, a cell whose marker vouches for it is kept, and a half-written one is run again. The
 * settings go to {@code DIR/sweep.json} for {@code sweep merge}. A failed expectation is the merge's verdict, so
 * the cell exits 0 once its results are written (a pod that fails is retried; its verdict would not change).
 */
final class SweepCell {
  private SweepCell() {}

  static int run(SweepSettings settings, SweepSettings.Planned planned, int index, Path out, boolean quiet,
      PrintWriter err) throws ScenarioCommand.UserError {
    if (out == null) {
      throw new ScenarioCommand.UserError("--cell needs --out DIR: the directory the sweep's cells gather in "
          + "(DIR/cells/<cell>/), for 'batchsim sweep merge DIR'");
    }
    List<Cell> cells = planned.plan().cells();
    if (index < 0 || index >= cells.size()) {
      throw new ScenarioCommand.UserError("--cell " + index + ": the sweep of " + settings.file() + " has "
          + cells.size() + " cell" + (cells.size() == 1 ? "" : "s") + ", numbered 0 to " + (cells.size() - 1));
    }
    Path dir = out.toAbsolutePath().normalize();
    if (Files.exists(dir) && !Files.isDirectory(dir)) {
      throw new ScenarioCommand.UserError("--out " + out + " exists and is not a directory; choose another --out");
    }
    SweepSettings there = SweepSettings.read(dir);
    if (there != null && !there.equals(settings)) {
      throw new ScenarioCommand.UserError("--out " + out + " holds the cells of another sweep (" + String.join(" ",
          there.args()) + "); choose another --out");
    }
    Writable.check("--out", dir.resolve(SweepSettings.FILE));
    Cell cell = cells.get(index);
    SweepRunner runner = new SweepRunner(planned.metrics(), settings.check(), Version.build());
    long start = System.nanoTime();
    CellResult r;
    try {
      Files.createDirectories(dir.resolve("cells"));
      settings.write(dir);
      Files.deleteIfExists(failed(dir, cell));
      try {
        r = runner.runOne(cell, dir.resolve("cells"));
      } catch (SweepRunner.CellFailure e) {
        recordFailure(dir, cell, ScenarioCommand.INVARIANT_VIOLATED + " (a broken invariant): " + e.violation().getMessage());
        err.println("batchsim: in sweep cell " + cell.name() + ":");
        throw e.violation();
      } catch (RuntimeException e) {
        recordFailure(dir, cell, ScenarioCommand.INTERNAL + " (an internal error): " + e);
        throw e;
      }
    } catch (IOException e) {
      throw new ScenarioCommand.UserError("cannot write " + dir.resolve("cells").resolve(cell.dir()) + ": "
          + Writable.reason(e));
    }
    for (var o : r.outcomes()) {
      if (o.failed()) {
        err.println(o.at() + ": [" + cell.name() + "] " + o.line());
      }
    }
    if (!quiet) {
      err.println(String.format(Locale.ROOT, "batchsim: cell %d (of 0 to %d), %s: %s; in %s", index, cells.size() - 1,
          cell.name(), runner.resumed(cell) ? "done before; kept" : String.format(Locale.ROOT, "ran in %.1fs wall",
          (System.nanoTime() - start) / 1e9), dir.resolve("cells").resolve(cell.dir())));
    }
    return ScenarioCommand.OK;
  }

  /**
   * Where a cell whose run failed in a way a retry does not change says so, for {@code sweep merge}:
   * {@code DIR/failed/<cell>}, removed when the cell runs again.
   */
  static Path failed(Path dir, Cell cell) {
    return dir.resolve("failed").resolve(cell.dir());
  }

  private static void recordFailure(Path dir, Cell cell, String what) {
    try {
      Files.createDirectories(dir.resolve("failed"));
      Inputs.writeAtomically(failed(dir, cell), "exit " + what.strip().replaceAll("\\s+", " ") + "\n");
    } catch (IOException | RuntimeException e) {
      // the failure itself is what the pod reports; merge then says only that the cell has no result
    }
  }
}
