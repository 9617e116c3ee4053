package batchsim.scenarios.cli;

import batchsim.scenarios.expect.Metric;
import batchsim.scenarios.sweep.CellResult;
import batchsim.scenarios.sweep.SweepPlan;
import batchsim.scenarios.sweep.SweepReport;
import batchsim.scenarios.sweep.SweepRunner;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code batchsim sweep SCENARIO}: runs every cell of the scenario's {@code matrix:} × {@code replicas:}
 * in parallel, writes each cell's reports into {@code DIR/cells/<cell>/} and the aggregated tables into
 * {@code DIR/sweep.csv}, {@code DIR/sweep.html} and {@code DIR/cells.csv}, the charts into
 * {@code DIR/report.html}, and prints the summary table.
 * Output bytes do not depend on {@code --parallel}. With {@code --cell N} it runs one cell (a pod of the sweep on
 * Kubernetes), with {@code --emit k8s DIR} it writes that sweep's manifests; {@code sweep merge} gathers the cells.
 */
@Command(name = "sweep", header = "Run every cell of a scenario's matrix and compare them in one table.",
    mixinStandardHelpOptions = true, subcommands = SweepMergeCommand.class)
final class SweepCommand extends ScenarioCommand {
  // optional here so that 'sweep merge' is not asked for one; execute() requires it
  @Parameters(index = "0", arity = "0..1", paramLabel = "SCENARIO", description = "Scenario YAML file with a matrix: "
      + "block.")
  Path file;

  @Option(names = "--cell", paramLabel = "N", description = "Run only cell N (0-based, in the order of cells.csv) "
      + "into --out DIR/cells/<cell>/, as a sweep's pod on Kubernetes does; 'sweep merge' gathers the cells.")
  Integer cell;

  @picocli.CommandLine.Mixin
  SweepClusterOptions cluster = new SweepClusterOptions();

  @Option(names = "--parallel", paramLabel = "K", description = "Runs at a time (default: the number of CPUs). "
      + "Each run is single-threaded.")
  Integer parallel;

  @Option(names = "--out", paramLabel = "DIR", description = "Output directory (default: out/<scenario name>-sweep).")
  Path out;

  @Option(names = "--set", paramLabel = "PATH=VALUE", description = "Override a scenario value for every cell "
      + "(repeatable); matrix levels are applied after it.")
  List<String> sets = new ArrayList<>();

  @Option(names = "--replicas", paramLabel = "N", description = "Replicas per combination (overrides replicas:).")
  Integer replicas;

  @Option(names = "--metric", paramLabel = "EXPR", description = "A column of the summary, e.g. 'p99(wait{queue="
      + "team-a})', 'utilization(cpu)', 'count(evictions)' (repeatable; default: p50(wait), p95(wait), p95(wait) "
      + "per ClusterQueue, GPU (else cpu) utilization, count(preemptions)).")
  List<String> metricTexts = new ArrayList<>();

  @Option(names = "--check", description = "Check the engine's invariants after every event in every run.")
  boolean check;

  @picocli.CommandLine.Mixin
  SweepVerdicts verdicts = new SweepVerdicts();

  @picocli.CommandLine.Mixin
  ProgressOption progressOption = new ProgressOption();

  @picocli.CommandLine.Mixin
  LimitsOption limits = new LimitsOption();

  @Override
  int execute() throws Exception {
    if (file == null) {
      throw new UserError("sweep: missing SCENARIO (or 'batchsim sweep merge DIR...' to merge cells run one by one)");
    }
    if (parallel != null && parallel < 1) {
      throw new UserError("--parallel must be at least 1");
    }
    if (cell != null && parallel != null) {
      throw new UserError("--parallel does not go with --cell: a cell is one single-threaded run (the Job's "
          + "parallelism is --parallel of --emit)");
    }
    cluster.checkCombination(cell, verdicts.junit, out);
    SweepSettings settings = new SweepSettings(file, sets, replicas, metricTexts, check, limits.specs);
    SweepSettings.Planned planned = settings.plan(cluster.emit != null);
    if (cluster.emit != null) {
      return cluster.emit(settings, planned, parallel, out(), verdicts.quiet);
    }
    if (cell != null) {
      return SweepCell.run(settings, planned, cell, out, verdicts.quiet, err());
    }
    return sweep(planned.plan(), planned.metrics());
  }

  private int sweep(SweepPlan plan, List<Metric> metrics) throws Exception {
    String name = plan.base().spec().name();
    OutputDirectory dir = new OutputDirectory(out != null ? out : Path.of("out", RunCommand.dirName(name) + "-sweep"));
    dir.checkReplaceable();
    Verdicts.checkJUnit(verdicts.junit);
    int k = parallel != null ? parallel : Runtime.getRuntime().availableProcessors();
    SweepRunner runner = new SweepRunner(metrics, check, Version.build());
    long wallStart = System.nanoTime();
    int total = plan.cells().size();
    List<CellResult> results = new ArrayList<>();
    try (SweepWork work = SweepWork.claim(dir, name)) {
      SweepProgress progress = new SweepProgress(err(), WallClock.SYSTEM, total);
      results.addAll(runner.run(plan.cells(), k, work.dir().resolve("cells"), r -> {
        if (!verdicts.quiet || progressOption.forced) {
          progress.cellDone(r.cell().name(), runner.resumed(r.cell()));
        }
      }));
      report(plan, metrics, results).write(work.dir());
      work.publish();
    } catch (SweepRunner.CellFailure e) {
      err().println("batchsim: in sweep cell " + e.cell().name() + ":");
      throw e.violation();
    } catch (IOException e) {
      throw dir.failed(e);
    } catch (UncheckedIOException e) {
      throw dir.failed(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new UserError("sweep interrupted; run it again with the same --out to resume");
    }
    double wallS = (System.nanoTime() - wallStart) / 1e9;
    long kept = results.stream().filter(r -> runner.resumed(r.cell())).count();
    return verdicts.finish(plan, metrics, results, out(), err(), String.format(Locale.ROOT,
        "batchsim: %d runs%s in %.1fs wall (--parallel %d); sweep in %s", total,
        kept == 0 ? "" : " (" + kept + " kept from an interrupted sweep)", wallS, k, dir.path()));
  }

  static SweepReport report(SweepPlan plan, List<Metric> metrics, List<CellResult> results) {
    return new SweepReport("batchsim sweep: " + plan.base().spec().name(), plan, metrics, results, Version.build());
  }
}
