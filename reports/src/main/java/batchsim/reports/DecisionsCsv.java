package batchsim.reports;

import batchsim.core.metrics.Decision;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * decisions.csv ({@code run --explain}): every change of every workload's Kueue conditions, in arrival
 * order — the data behind {@code batchsim explain}. Columns: workload, time_ms, condition, status,
 * reason, message.
 */
final class DecisionsCsv {
  static final String HEADER = "workload,time_ms,condition,status,reason,message";

  private DecisionsCsv() {}

  static void write(Map<String, List<Decision>> decisions, OutputStream out) throws IOException {
    try (Writer w = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), 1 << 16)) {
      w.write(HEADER);
      w.write('\n');
      for (var e : decisions.entrySet()) {
        for (Decision d : e.getValue()) {
          WorkloadsCsv.text(w, e.getKey());
          w.write(',');
          w.write(Long.toString(d.timeMs()));
          w.write(',');
          w.write(d.condition());
          w.write(',');
          w.write(d.status() ? "True" : "False");
          w.write(',');
          WorkloadsCsv.text(w, d.reason());
          w.write(',');
          WorkloadsCsv.text(w, d.message());
          w.write('\n');
        }
      }
    }
  }
}
