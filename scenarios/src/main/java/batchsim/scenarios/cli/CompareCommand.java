package batchsim.scenarios.cli;

import batchsim.scenarios.compare.CompareReport;
import batchsim.scenarios.compare.SummaryFile;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code batchsim compare BASE OTHER...}: reads the summary.json of each result (a run directory, a
 * sweep cell directory or the file itself; nothing is simulated) and prints, per OTHER, the provenance lines
 * that differ from BASE's (engine, overrides, seed, scenario hash, build), then every metric
 * with its absolute and relative change from BASE, flagging changes beyond {@code --tolerance}. Writes
 * the same as {@code compare.csv} and {@code compare.html} into {@code --out}.
 */
@Command(name = "compare", header = "Compare stored results metric by metric (reads summary.json; no rerun).",
    mixinStandardHelpOptions = true)
final class CompareCommand extends ScenarioCommand {
  @Parameters(index = "0", paramLabel = "BASE", description = "Base result: a run directory or its summary.json.")
  Path base;

  @Parameters(index = "1..*", arity = "1..*", paramLabel = "OTHER", description = "Result(s) to compare with BASE.")
  List<Path> others;

  @Option(names = "--tolerance", paramLabel = "PCT", defaultValue = "5%", description = "Flag relative changes "
      + "larger than this (default: ${DEFAULT-VALUE}).")
  String tolerance;

  @Option(names = "--out", paramLabel = "DIR", defaultValue = "out/compare", description = "Where compare.csv and "
      + "compare.html go (default: ${DEFAULT-VALUE}).")
  Path out;

  @Option(names = "--fail-on-worse", description = "Exit 1 when any metric got worse beyond the tolerance.")
  boolean failOnWorse;

  @Override
  int execute() throws Exception {
    double tol = tolerance(tolerance);
    SummaryFile b = read(base);
    List<CompareReport.Pair> pairs = new ArrayList<>();
    for (Path o : others) {
      pairs.add(CompareReport.Pair.of(base.toString(), b, o.toString(), read(o)));
    }
    CompareReport report = new CompareReport(pairs, tol);
    OutputDirectory dir = new OutputDirectory(out);
    dir.write(tmp -> {
      Files.writeString(tmp.resolve("compare.csv"), report.csv(), StandardCharsets.UTF_8);
      Files.writeString(tmp.resolve("compare.html"), report.html(), StandardCharsets.UTF_8);
    });
    out().print(report.text());
    long worse = report.worse();
    err().println("batchsim: " + worse + " metric" + (worse == 1 ? "" : "s") + " worse beyond " + tolerance
        + "; tables in " + dir.path());
    return failOnWorse && worse > 0 ? Verdicts.FAILED : OK;
  }

  private static SummaryFile read(Path p) throws UserError {
    try {
      return SummaryFile.read(p);
    } catch (IOException e) {
      throw new UserError(e.getMessage());
    }
  }

  /** {@code 5%} or {@code 0.05}; a bare number above 1 is refused, as {@code 10} likely meant 10%, not 1000%. */
  static double tolerance(String text) throws UserError {
    String t = text.strip();
    boolean percent = t.endsWith("%");
    double v;
    try {
      v = percent ? new BigDecimal(t.substring(0, t.length() - 1).strip()).doubleValue() / 100
          : new BigDecimal(t).doubleValue();
    } catch (NumberFormatException e) {
      v = -1; // reported below
    }
    if (!percent && v > 1) {
      throw new UserError("--tolerance " + text + ": a bare number is a fraction (0.1 = 10%) and must be at most 1; "
          + "write " + t + "% for " + t + " percent");
    }
    if (v >= 0) {
      return v;
    }
    throw new UserError("--tolerance " + text + ": expected a percentage such as 5% (or a fraction such as 0.05)");
  }
}
