package batchsim.scenarios.cli;

import batchsim.reports.Provenance;
import batchsim.scenarios.compare.ResultView;
import batchsim.scenarios.expect.ExpressionException;
import batchsim.scenarios.expect.JUnitXml;
import batchsim.scenarios.expect.Metric;
import batchsim.scenarios.overrides.Composition;
import batchsim.scenarios.sweep.CellResult;
import batchsim.scenarios.sweep.SweepPlan;
import batchsim.scenarios.sweep.SweepReport;
import batchsim.scenarios.sweep.SweepRunner;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
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
 * Output bytes do not depend on {@code --parallel}.
 */
@Command(name = "sweep", header = "Run every cell of a scenario's matrix and compare them in one table.",
    mixinStandardHelpOptions = true)
final class SweepCommand extends ScenarioCommand {
  @Parameters(index = "0", paramLabel = "SCENARIO", description = "Scenario YAML file with a matrix: block.")
  Path file;

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

  @Option(names = "--junit", paramLabel = "FILE", description = "Write every cell's expectation verdicts as "
      + "JUnit XML (one test suite per cell).")
  Path junit;

  @Option(names = {"-q", "--quiet"}, description = "Print nothing but errors.")
  boolean quiet;

  @picocli.CommandLine.Mixin
  ProgressOption progressOption = new ProgressOption();

  @picocli.CommandLine.Mixin
  LimitsOption limits = new LimitsOption();

  @Override
  int execute() throws Exception {
    if (parallel != null && parallel < 1) {
      throw new UserError("--parallel must be at least 1");
    }
    if (replicas != null && (replicas < 1 || replicas > 10_000)) {
      throw new UserError("--replicas must be from 1 to 10000");
    }
    Composition composition = Inputs.compose(file, sets);
    SweepPlan plan = SweepPlan.of(composition, replicas, limits.limits());
    if (plan.cells().isEmpty()) {
      throw new UserError(file + ": every combination of the matrix is excluded; nothing to run");
    }
    List<Metric> metrics = metrics(plan);
    String name = plan.base().spec().name();
    OutputDirectory dir = new OutputDirectory(out != null ? out : Path.of("out", RunCommand.dirName(name) + "-sweep"));
    dir.checkReplaceable();
    Verdicts.checkJUnit(junit);
    int k = parallel != null ? parallel : Runtime.getRuntime().availableProcessors();
    SweepRunner runner = new SweepRunner(metrics, check, Version.build());
    long wallStart = System.nanoTime();
    int total = plan.cells().size();
    List<CellResult> results = new ArrayList<>();
    String title = "batchsim sweep: " + name;
    try (SweepWork work = SweepWork.claim(dir, name)) {
      SweepProgress progress = new SweepProgress(err(), WallClock.SYSTEM, total);
      results.addAll(runner.run(plan.cells(), k, work.dir().resolve("cells"), r -> {
        if (!quiet || progressOption.forced) {
          progress.cellDone(r.cell().name(), runner.resumed(r.cell()));
        }
      }));
      SweepReport report = new SweepReport(title, plan, metrics, results, Version.build());
      Files.writeString(work.dir().resolve("sweep.csv"), report.csv(), StandardCharsets.UTF_8);
      Files.writeString(work.dir().resolve("cells.csv"), report.cellsCsv(), StandardCharsets.UTF_8);
      Files.writeString(work.dir().resolve("sweep.html"), report.html(), StandardCharsets.UTF_8);
      Files.write(work.dir().resolve("report.html"), report.page());
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
    SweepReport report = new SweepReport(title, plan, metrics, results, Version.build()); // the one written, rebuilt to print
    if (!quiet) {
      out().print(report.summary().text(""));
      long kept = results.stream().filter(r -> runner.resumed(r.cell())).count();
      err().println(String.format(Locale.ROOT, "batchsim: %d runs%s in %.1fs wall (--parallel %d); sweep in %s",
          total, kept == 0 ? "" : " (" + kept + " kept from an interrupted sweep)", wallS, k, dir.path()));
    }
    List<JUnitXml.Suite> suites = new ArrayList<>();
    for (CellResult r : results) {
      suites.add(new JUnitXml.Suite(name + "[" + r.cell().name() + "]", file.toString(), r.outcomes(),
          Provenance.lines(r.cell().metadata(Version.build()), r.cell().scenario().spec().seed()), r.wallNanos()));
      for (var o : r.outcomes()) {
        if (o.failed()) {
          err().println(o.at() + ": [" + r.cell().name() + "] " + o.line());
        }
      }
    }
    long failed = report.failed();
    if (failed > 0) {
      err().println("batchsim: " + failed + " expectation" + (failed == 1 ? "" : "s") + " failed across the sweep");
    }
    if (junit != null) {
      Verdicts.writeJUnit(junit, suites);
    }
    return failed > 0 ? Verdicts.FAILED : OK;
  }

  /** The metrics given with --metric, or the default set for this scenario. */
  private List<Metric> metrics(SweepPlan plan) throws UserError {
    List<String> texts = new ArrayList<>(metricTexts);
    if (texts.isEmpty()) {
      texts.add("p50(wait)");
      texts.add("p95(wait)");
      plan.base().spec().clusterQueues().forEach(cq -> texts.add("p95(wait{queue=" + cq.name() + "})"));
      List<String> resources = plan.base().spec().resources().names();
      String gpu = resources.stream().filter(r -> r.endsWith("/gpu")).findFirst().orElse("cpu");
      texts.add("utilization(" + gpu + ")");
      texts.add("count(preemptions)");
    }
    List<Metric> out = new ArrayList<>();
    for (String t : texts) {
      try {
        Metric m = Metric.parse(t);
        if (!ResultView.OVERALL.equals(m.queue()) && plan.base().spec().clusterQueues().stream()
            .noneMatch(cq -> cq.name().equals(m.queue()))) {
          throw new UserError("--metric " + t + ": unknown ClusterQueue '" + m.queue() + "'");
        }
        out.add(m);
      } catch (ExpressionException e) {
        throw new UserError("--metric " + t + ": " + e.getMessage() + " (at character " + (e.offset() + 1) + ")");
      }
    }
    return out;
  }
}
