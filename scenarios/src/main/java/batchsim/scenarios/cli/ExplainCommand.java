package batchsim.scenarios.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code batchsim explain OUTDIR WORKLOAD}: one workload's story from a run's reports — its timestamps and
 * state from workloads.csv and, when the run kept a decision log ({@code run --explain}), every change of
 * its Kueue conditions with Kueue's reasons and messages: why it waited, why it was preempted, why its
 * topology did not fit. With {@code --queue NAME}, a ClusterQueue's waiting split instead ({@link QueueWaiting}).
 */
@Command(name = "explain", header = "Show why a workload waited, ran or was evicted in a run.",
    mixinStandardHelpOptions = true)
final class ExplainCommand extends ScenarioCommand {
  @Parameters(index = "0", paramLabel = "OUTDIR", description = "A run's output directory.")
  Path dir;

  @Parameters(index = "1", arity = "0..1", paramLabel = "WORKLOAD", description = "Workload id, as in workloads.csv.")
  String workload;

  @picocli.CommandLine.Option(names = "--queue", paramLabel = "NAME",
      description = "Instead of a workload: why the ClusterQueue's workloads waited, by cause, and who held its quota.")
  String queue;

  @Override
  int execute() throws Exception {
    if ((queue == null) == (workload == null)) {
      throw new UserError("explain: give either a WORKLOAD or --queue NAME");
    }
    if (queue != null) {
      QueueWaiting.print(dir, queue, out());
      return OK;
    }
    Path workloads = dir.resolve("workloads.csv");
    if (!Files.isRegularFile(workloads)) {
      throw new UserError(dir + ": no workloads.csv here; is this a `batchsim run` output directory?");
    }
    List<String> header = null;
    List<String> row = null;
    try (BufferedReader r = Files.newBufferedReader(workloads, StandardCharsets.UTF_8)) {
      header = Csv.parse(r.readLine());
      String line;
      while ((line = r.readLine()) != null) {
        List<String> cells = Csv.parse(line);
        if (!cells.isEmpty() && cells.get(0).equals(workload)) {
          row = cells;
          break;
        }
      }
    }
    if (row == null) {
      throw new UserError(workloads + ": no workload '" + workload + "'");
    }
    var out = out();
    out.println("workload " + workload);
    for (int i = 1; i < header.size() && i < row.size(); i++) {
      if (!row.get(i).isEmpty()) {
        String v = header.get(i).endsWith("_ms") ? ms(row.get(i)) : row.get(i);
        out.println(String.format(Locale.ROOT, "  %-24s %s", header.get(i), v));
      }
    }
    Path decisions = dir.resolve("decisions.csv");
    if (!Files.isRegularFile(decisions)) {
      out.println();
      out.println("(no decision log: run the scenario with `batchsim run --explain` for the full history)");
      return OK;
    }
    out.println();
    out.println("history (virtual time, condition, status, reason: message)");
    int shown = 0;
    try (BufferedReader r = Files.newBufferedReader(decisions, StandardCharsets.UTF_8)) {
      r.readLine();
      String line;
      while ((line = r.readLine()) != null) {
        List<String> c = Csv.parse(line);
        if (c.size() >= 6 && c.get(0).equals(workload)) {
          out.println(String.format(Locale.ROOT, "  %12s  %-13s %-5s %s%s", ms(c.get(1)), c.get(2), c.get(3),
              c.get(4), c.get(5).isEmpty() ? "" : ": " + c.get(5)));
          shown++;
        }
      }
    }
    if (shown == 0) {
      out.println("  (no condition changes recorded)");
    }
    return OK;
  }

  /** Milliseconds of virtual time as a compact duration, e.g. 1h02m03s. */
  private static String ms(String text) {
    try {
      return batchsim.core.model.Durations.format(Long.parseLong(text));
    } catch (NumberFormatException e) {
      return text;
    }
  }

  /** Just enough RFC 4180 for the project's own CSV files. */
  static final class Csv {
    private Csv() {}

    static List<String> parse(String line) throws IOException {
      List<String> out = new ArrayList<>();
      if (line == null) {
        return out;
      }
      StringBuilder cur = new StringBuilder();
      boolean quoted = false;
      for (int i = 0; i < line.length(); i++) {
        char ch = line.charAt(i);
        if (quoted) {
          if (ch == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
            cur.append('"');
            i++;
          } else if (ch == '"') {
            quoted = false;
          } else {
            cur.append(ch);
          }
        } else if (ch == '"') {
          quoted = true;
        } else if (ch == ',') {
          out.add(cur.toString());
          cur.setLength(0);
        } else {
          cur.append(ch);
        }
      }
      out.add(cur.toString());
      return out;
    }
  }
}
