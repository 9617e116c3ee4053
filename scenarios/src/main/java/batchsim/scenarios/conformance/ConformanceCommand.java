package batchsim.scenarios.conformance;

import batchsim.scenarios.conformance.kueue.CaseFile;
import batchsim.scenarios.conformance.kueue.CaseFileException;
import batchsim.scenarios.conformance.kueue.CaseResult;
import batchsim.scenarios.conformance.kueue.ConformanceCase;
import batchsim.scenarios.conformance.kueue.ConformanceRunner;
import batchsim.scenarios.conformance.volcano.VolcanoCaseFileException;
import batchsim.scenarios.conformance.volcano.VolcanoConformance;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;

/**
 * {@code batchsim conformance FILE...}: replays Kueue conformance case files through the engine. Prints one
 * line per case and variant ({@code PASS}, {@code FAIL} with the first difference, or {@code SKIP} with the
 * reason) and a closing {@code N passed, M failed, K skipped}. Exits 0 when nothing failed, 1 when a case
 * failed, 2 when a file cannot be read or holds a key its format does not know (each such key on its own line,
 * with file:line:column and its path).
 */
@Command(name = "conformance", header = "Replay Kueue or Volcano conformance cases through the engines.",
    mixinStandardHelpOptions = true)
public final class ConformanceCommand implements Callable<Integer> {
  static final int OK = 0;
  static final int FAILED = 1;
  static final int UNREADABLE = 2;

  @CommandLine.Spec
  CommandSpec spec;

  @Parameters(arity = "1..*", paramLabel = "FILE", description = "Case file(s), e.g. kueue-cases.yaml.")
  List<Path> files;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    List<List<ConformanceCase>> perFile = new ArrayList<>();
    for (Path f : files) {
      if (VolcanoConformance.isVolcanoFile(f)) {
        perFile.add(null); // Volcano's format: a top-level `cases:` list, run by its own runner
        continue;
      }
      try {
        perFile.add(CaseFile.read(f));
      } catch (CaseFileException e) {
        e.getMessage().lines().forEach(l -> err.println("batchsim conformance: " + l));
        err.flush();
        return UNREADABLE;
      }
    }
    List<CaseResult> all = new ArrayList<>();
    VolcanoConformance.Counts volcano = VolcanoConformance.Counts.ZERO;
    for (int i = 0; i < files.size(); i++) {
      if (files.size() > 1) {
        out.println("== " + files.get(i));
      }
      if (perFile.get(i) == null) {
        try {
          volcano = volcano.plus(VolcanoConformance.runCases(files.get(i), out));
        } catch (VolcanoCaseFileException e) {
          e.getMessage().lines().forEach(l -> err.println("batchsim conformance: " + l));
          err.flush();
          return UNREADABLE;
        }
        continue;
      }
      for (CaseResult r : ConformanceRunner.run(perFile.get(i)).results()) {
        out.println(r.line());
        all.add(r);
      }
    }
    ConformanceRunner.Report report = new ConformanceRunner.Report(all);
    long failed = report.count(CaseResult.Status.FAIL) + volcano.failed();
    out.println(String.format(Locale.ROOT, "%d passed, %d failed, %d skipped",
        report.count(CaseResult.Status.PASS) + volcano.passed(), failed,
        report.count(CaseResult.Status.SKIP) + volcano.skipped()));
    out.flush();
    return failed > 0 ? FAILED : OK;
  }

  public static void main(String[] args) {
    System.exit(new CommandLine(new ConformanceCommand()).execute(args));
  }
}
