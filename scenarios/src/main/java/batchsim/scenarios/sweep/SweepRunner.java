package batchsim.scenarios.sweep;

import batchsim.core.metrics.RunResult;
import batchsim.core.world.InvariantViolation;
import batchsim.core.sim.Runs;
import batchsim.scenarios.expect.StatusWatch;
import batchsim.reports.Reports;
import batchsim.reports.WorkloadRows;
import batchsim.reports.RunMetadata;
import batchsim.scenarios.compare.ResultView;
import batchsim.scenarios.compare.RunResultView;
import batchsim.scenarios.expect.Metric;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;

/**
 * Runs the cells of a sweep on a fixed pool of {@code parallel} threads. Each run is single-threaded and
 * deterministic and writes only its own directory; results are collected in cell order, so everything
 * written afterwards is byte-identical whatever the parallelism.
 */
public final class SweepRunner {
  private final List<Metric> metrics;
  private final boolean check;
  private final String toolVersion;

  /**
   * @param check run every cell with the invariant checker (cells whose scenario expects
   *     {@code invariants: clean} are checked anyway)
   */
  public SweepRunner(List<Metric> metrics, boolean check, String toolVersion) {
    this.metrics = List.copyOf(metrics);
    this.check = check;
    this.toolVersion = toolVersion;
  }

  /** The reports of each cell go to {@code cellsDir/<cell dir name>/}; {@code done} sees results in cell order. */
  public List<CellResult> run(List<Cell> cells, int parallel, Path cellsDir, Consumer<CellResult> done)
      throws IOException, InterruptedException {
    ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, parallel), r -> {
      Thread t = new Thread(r, "batchsim-sweep");
      t.setDaemon(true); // a failed sweep must not keep the JVM alive
      return t;
    });
    try {
      List<Future<CellResult>> futures = new ArrayList<>();
      for (Cell cell : cells) {
        futures.add(pool.submit(() -> runCell(cell, cellsDir)));
      }
      List<CellResult> out = new ArrayList<>();
      for (Future<CellResult> f : futures) {
        CellResult r = get(f);
        done.accept(r);
        out.add(r);
      }
      return out;
    } finally {
      pool.shutdownNow();
    }
  }

  private static CellResult get(Future<CellResult> f) throws IOException, InterruptedException {
    try {
      return f.get();
    } catch (ExecutionException e) {
      Throwable c = e.getCause();
      if (c instanceof CellFailure cf) {
        throw cf;
      }
      if (c instanceof UncheckedIOException u) {
        throw u.getCause();
      }
      if (c instanceof RuntimeException r) {
        throw r;
      }
      if (c instanceof Error err) {
        throw err;
      }
      throw new IllegalStateException(c);
    }
  }

  private CellResult runCell(Cell cell, Path cellsDir) {
    boolean checked = check || cell.scenario().expectations().needsInvariantCheck();
    RunResult result;
    StatusWatch watch = cell.scenario().expectations().newStatusWatch();
    Path dir = cellsDir.resolve(cell.dir());
    try {
      WorkloadRows rows = WorkloadRows.open(dir.getParent(), dir.getFileName().toString(), false);
      try {
        result = Runs.run(cell.scenario().spec(), cell.scenario().volcano(), checked, false, null, watch, rows);
        Files.createDirectories(dir);
        Reports.writeAll(result, new RunMetadata(cell.scenario().file(), cell.scenario().sha256(), toolVersion),
            rows, dir);
      } finally {
        rows.discard();
      }
    } catch (InvariantViolation e) {
      throw new CellFailure(cell, e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    ResultView view = RunResultView.of(result);
    double[] values = new double[metrics.size()];
    for (int i = 0; i < values.length; i++) {
      values[i] = metrics.get(i).value(view).orElse(Double.NaN);
    }
    return new CellResult(cell, values, cell.scenario().expectations().evaluate(view, checked, watch));
  }

  /** An invariant violation in one cell; the sweep stops. */
  public static final class CellFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient Cell cell;

    CellFailure(Cell cell, InvariantViolation cause) {
      super("sweep cell " + cell.name() + ": " + cause.getMessage(), cause);
      this.cell = cell;
    }

    public Cell cell() {
      return cell;
    }

    public InvariantViolation violation() {
      return (InvariantViolation) getCause();
    }
  }
}
