package batchsim.scenarios.conformance.volcano;

import java.io.PrintWriter;
import java.io.Reader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Replays a Volcano case file (volcano-cases.yaml format: a top-level {@code cases:} list) through the Volcano
 * engine, printing one line per case and variant — {@code PASS id}, {@code FAIL id: first difference} or
 * {@code SKIP id: reason} — and then {@code N passed, M failed, K skipped}.
 */
public final class VolcanoConformance {
  private VolcanoConformance() {}

  /** How many cases passed, failed and were skipped. */
  public record Counts(int passed, int failed, int skipped) {
    public static final Counts ZERO = new Counts(0, 0, 0);

    public Counts plus(Counts o) {
      return new Counts(passed + o.passed, failed + o.failed, skipped + o.skipped);
    }

    /** {@code N passed, M failed, K skipped}. */
    public String summaryLine() {
      return String.format(Locale.ROOT, "%d passed, %d failed, %d skipped", passed, failed, skipped);
    }

    static Counts of(List<VolcanoCaseResult> results) {
      int p = 0;
      int f = 0;
      int s = 0;
      for (VolcanoCaseResult r : results) {
        switch (r.status()) {
          case PASS -> p++;
          case FAIL -> f++;
          case SKIP -> s++;
        }
      }
      return new Counts(p, f, s);
    }
  }

  /** Whether {@code file} is a Volcano case file (so the conformance command should dispatch here). */
  public static boolean isVolcanoFile(Path file) {
    return VolcanoCaseFile.isVolcanoFormat(file);
  }

  /**
   * Runs every case of {@code file}, printing the case lines and the summary line to {@code out}.
   *
   * @throws VolcanoCaseFileException when the file cannot be read or is not in the Volcano format
   */
  public static Counts run(Path file, PrintWriter out) throws VolcanoCaseFileException {
    return report(VolcanoCaseFile.read(file), out);
  }

  /**
   * Prints only the case lines of {@code file} (no summary), for a caller that sums several files into one
   * summary line.
   */
  public static Counts runCases(Path file, PrintWriter out) throws VolcanoCaseFileException {
    Counts c = print(results(VolcanoCaseFile.read(file)), out);
    out.flush();
    return c;
  }

  /** As {@link #run(Path, PrintWriter)}, reading from {@code in} ({@code source} names it in messages). */
  public static Counts run(Reader in, String source, PrintWriter out) throws VolcanoCaseFileException {
    return report(VolcanoCaseFile.parse(in, source), out);
  }

  /** The verdicts, in file order, without printing. */
  public static List<VolcanoCaseResult> results(List<VolcanoCase> cases) {
    List<VolcanoCaseResult> out = new ArrayList<>();
    for (VolcanoCase c : cases) {
      out.add(VolcanoCaseRunner.run(c));
    }
    return out;
  }

  private static Counts report(List<VolcanoCase> cases, PrintWriter out) {
    Counts counts = print(results(cases), out);
    out.println(counts.summaryLine());
    out.flush();
    return counts;
  }

  private static Counts print(List<VolcanoCaseResult> results, PrintWriter out) {
    for (VolcanoCaseResult r : results) {
      out.println(r.line());
    }
    return Counts.of(results);
  }

  /** {@code volcano-conformance FILE...}: exits 0 when nothing failed, 1 on a failure, 2 on an unreadable file. */
  public static void main(String[] args) {
    PrintWriter out = new PrintWriter(System.out, true);
    Counts total = Counts.ZERO;
    try {
      for (String a : args) {
        if (args.length > 1) {
          out.println("== " + a);
        }
        total = total.plus(run(Path.of(a), out));
      }
    } catch (VolcanoCaseFileException e) {
      System.err.println("volcano conformance: " + e.getMessage());
      System.exit(2);
    }
    System.exit(total.failed() > 0 ? 1 : 0);
  }
}
