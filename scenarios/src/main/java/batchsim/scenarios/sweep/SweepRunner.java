package batchsim.scenarios.sweep;

import batchsim.scenarios.RegularFiles;
import batchsim.core.metrics.RunResult;
import batchsim.core.world.InvariantViolation;
import batchsim.core.sim.Runs;
import batchsim.scenarios.expect.StatusWatch;
import batchsim.reports.Reports;
import batchsim.reports.WorkloadRows;
import batchsim.reports.Provenance;
import batchsim.scenarios.compare.ResultView;
import batchsim.scenarios.compare.RunResultView;
import batchsim.scenarios.expect.Metric;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * Runs the cells of a sweep on a fixed pool of {@code parallel} threads. Each run is single-threaded and
 * deterministic and writes only its own directory; results are collected in cell order, so everything
 * written afterwards is byte-identical whatever the parallelism. A cell ends with its {@link CellMarker};
 * a cell whose marker vouches for the same run is not run again (a resumed sweep), any other is rerun.
 */
public final class SweepRunner {
  private final List<Metric> metrics;
  private final boolean check;
  private final Provenance.Build build;
  private final Set<Integer> resumed = ConcurrentHashMap.newKeySet();

  /**
   * @param check run every cell with the invariant checker (cells whose scenario expects
   *     {@code invariants: clean} are checked anyway)
   */
  public SweepRunner(List<Metric> metrics, boolean check, Provenance.Build build) {
    this.metrics = List.copyOf(metrics);
    this.check = check;
    this.build = build;
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
      dropStrays(cells, cellsDir);
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

  /**
   * Runs one cell of a sweep whose other cells run elsewhere (a pod of an Indexed Job), by the same path as
   * {@link #run}: kept when its marker vouches for it, else run and marked. Other cells' directories in
   * {@code cellsDir} are left alone.
   */
  public CellResult runOne(Cell cell, Path cellsDir) throws IOException {
    try {
      return runCell(cell, cellsDir);
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  /**
   * The result a finished run of {@code cell} left in {@code cellDir} (its marker vouches for this run and its
   * reports are intact), or null.
   */
  public CellResult finished(Cell cell, Path cellDir) throws IOException {
    CellMarker done = CellMarker.read(cellDir);
    return done != null && done.matches(expected(cell, checked(cell)), cellDir) ? fromMarker(cell, done) : null;
  }

  /**
   * Why {@code cellDir} holds no finished run of {@code cell}, as far as its files tell: null when it does;
   * "no result" when it is absent.
   */
  public String unfinished(Cell cell, Path cellDir) throws IOException {
    if (!Files.isDirectory(cellDir)) {
      return "no result";
    }
    CellMarker done = CellMarker.read(cellDir);
    CellMarker expected = expected(cell, checked(cell));
    if (done == null) {
      return "incomplete result (no done-marker: its run was killed while writing)";
    }
    if (!done.version().equals(expected.version())) {
      return "result of batchsim " + done.version() + ", not of this build (" + expected.version() + ")";
    }
    if (!done.scenario().equals(expected.scenario()) || !done.overrides().equals(expected.overrides())
        || done.seed() != expected.seed()) {
      return "result of a different scenario (the scenario, its --set or the files it reads changed since)";
    }
    if (done.checked() != expected.checked()) {
      return "result of a run " + (done.checked() ? "with" : "without") + " --check";
    }
    if (!done.metrics().keySet().containsAll(expected.metrics().keySet())) {
      return "result without every --metric this sweep keeps";
    }
    return done.matches(expected, cellDir) ? null
        : "incomplete result (its reports do not match its done-marker: half-written or edited)";
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

  /** Whether {@code cell} was taken from its marker instead of being run (valid once {@link #run} returned it). */
  public boolean resumed(Cell cell) {
    return resumed.contains(cell.index());
  }

  /**
   * Removes what a killed or different earlier sweep left in {@code cellsDir} that is no cell of this one:
   * half-streamed rows (hidden files) and directories of cells not in the plan.
   */
  public static void dropStrays(List<Cell> cells, Path cellsDir) throws IOException {
    if (!Files.isDirectory(cellsDir)) {
      return;
    }
    Set<String> names = new HashSet<>();
    cells.forEach(c -> names.add(c.dir()));
    List<Path> strays;
    try (Stream<Path> s = Files.list(cellsDir)) {
      strays = s.filter(p -> !names.contains(p.getFileName().toString())).toList();
    }
    for (Path p : strays) {
      RegularFiles.deleteRecursively(p);
    }
  }

  /** Removes the rows a killed run of {@code cell} was streaming beside its directory ({@link WorkloadRows}). */
  private static void dropRows(Cell cell, Path cellsDir) throws IOException {
    List<Path> strays;
    try (Stream<Path> s = Files.list(cellsDir)) {
      strays = s.filter(p -> p.getFileName().toString().startsWith("." + cell.dir() + ".workloads-")).toList();
    } catch (java.nio.file.NoSuchFileException e) {
      return;
    }
    for (Path p : strays) {
      RegularFiles.deleteRecursively(p);
    }
  }

  /** Whether {@code cell} runs with the invariant checker: --check, or its scenario expects invariants clean. */
  private boolean checked(Cell cell) {
    return check || cell.scenario().expectations().needsInvariantCheck();
  }

  private CellResult runCell(Cell cell, Path cellsDir) {
    boolean checked = checked(cell);
    Path dir = cellsDir.resolve(cell.dir());
    try {
      CellMarker done = CellMarker.read(dir);
      CellMarker expected = expected(cell, checked);
      if (done != null && done.matches(expected, dir)) {
        resumed.add(cell.index());
        return fromMarker(cell, done);
      }
      RegularFiles.deleteRecursively(dir); // whatever a killed run left half-written
      dropRows(cell, cellsDir);
      long start = System.nanoTime(); // wall time for JUnit XML only, never in a cell's reports
      CellResult r = runAndMark(cell, checked, expected, dir);
      return new CellResult(cell, r.values(), r.outcomes(), System.nanoTime() - start);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private CellResult runAndMark(Cell cell, boolean checked, CellMarker expected, Path dir) throws IOException {
    RunResult result;
    StatusWatch watch = cell.scenario().expectations().newStatusWatch();
    try {
      WorkloadRows rows = WorkloadRows.open(dir.getParent(), dir.getFileName().toString(), false);
      try {
        result = Runs.run(cell.scenario().spec(), cell.scenario().volcano(), checked, false, null, watch, rows);
        Files.createDirectories(dir);
        Reports.writeAll(result, cell.metadata(build), rows, dir);
      } finally {
        rows.discard();
      }
    } catch (InvariantViolation e) {
      throw new CellFailure(cell, e);
    }
    ResultView view = RunResultView.of(result);
    double[] values = new double[metrics.size()];
    Map<String, Double> byName = new LinkedHashMap<>();
    for (int i = 0; i < values.length; i++) {
      values[i] = metrics.get(i).value(view).orElse(Double.NaN);
      byName.put(metrics.get(i).toString(), Double.isNaN(values[i]) ? null : values[i]);
    }
    CellResult r = new CellResult(cell, values, cell.scenario().expectations().evaluate(view, checked, watch), 0);
    expected.finished(CellMarker.digest(dir), byName, r.outcomes()).write(dir);
    return r;
  }

  /**
   * What the marker of a finished run of {@code cell} must say (no digest or results yet): the scenario's hash
   * with every input file's (a trace edited since is another run) and the whole build, commit included.
   */
  private CellMarker expected(Cell cell, boolean checked) {
    Map<String, Double> wanted = new LinkedHashMap<>();
    metrics.forEach(m -> wanted.put(m.toString(), null));
    StringBuilder inputs = new StringBuilder(cell.scenario().sha256());
    cell.metadata(build).provenance().inputs().forEach(i -> inputs.append('\n').append(i.path()).append(' ')
        .append(i.sha256()));
    return new CellMarker(RegularFiles.sha256(inputs.toString().getBytes(StandardCharsets.UTF_8)), cell.levels(),
        cell.scenario().spec().seed(), checked, build.describe(), "", wanted, List.of());
  }

  private CellResult fromMarker(Cell cell, CellMarker done) {
    double[] values = new double[metrics.size()];
    for (int i = 0; i < values.length; i++) {
      Double v = done.metrics().get(metrics.get(i).toString());
      values[i] = v == null ? Double.NaN : v;
    }
    return new CellResult(cell, values, done.outcomes(), 0);
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
