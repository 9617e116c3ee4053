package batchsim.scenarios.conformance;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;

/**
 * {@code batchsim conformance FILE...}: replays Kueue conformance case files through the engine. Prints one
 * line per case and variant ({@code PASS}, {@code FAIL} with the first difference, or {@code SKIP} with the
 * reason) and a closing {@code N passed, M failed, K skipped}. Exits 0 when nothing failed, 1 when a case
 * failed, 2 when a file cannot be read.
 */
@Command(name = "conformance", header = "Replay Kueue conformance cases through the engine.",
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
      try {
        perFile.add(CaseFile.read(f));
      } catch (CaseFileException e) {
        err.println("batchsim conformance: " + e.getMessage());
        err.flush();
        return UNREADABLE;
      }
    }
    List<CaseResult> all = new ArrayList<>();
    for (int i = 0; i < files.size(); i++) {
      if (files.size() > 1) {
        out.println("== " + files.get(i));
      }
      for (CaseResult r : ConformanceRunner.run(perFile.get(i)).results()) {
        out.println(r.line());
        all.add(r);
      }
    }
    ConformanceRunner.Report report = new ConformanceRunner.Report(all);
    out.println(report.summaryLine());
    out.flush();
    return report.count(CaseResult.Status.FAIL) > 0 ? FAILED : OK;
  }

  public static void main(String[] args) {
    System.exit(new CommandLine(new ConformanceCommand()).execute(args));
  }
}
