package batchsim.reports;

import batchsim.core.metrics.Decision;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Map;

/**
 * decisions.csv ({@code run --explain}): every change of every workload's Kueue conditions, one workload's
 * rows together, in the order workloads.csv has them — the data behind {@code batchsim explain}. Columns:
 * workload, time_ms, condition, status, reason, message.
 */
final class DecisionsCsv implements Closeable {
  static final String HEADER = "workload,time_ms,condition,status,reason,message";

  private final CsvWriter csv;

  /** A table on {@code out} (closed with it), its header written. */
  DecisionsCsv(OutputStream out) throws IOException {
    this.csv = CsvWriter.utf8(out);
    csv.row(List.of(HEADER.split(",")));
  }

  static void write(Map<String, List<Decision>> decisions, OutputStream out) throws IOException {
    try (DecisionsCsv t = new DecisionsCsv(out)) {
      for (var e : decisions.entrySet()) {
        t.rows(e.getKey(), e.getValue());
      }
    }
  }

  /** One workload's decision log. */
  void rows(String workload, List<Decision> log) throws IOException {
    for (Decision d : log) {
      csv.cell(workload).cell(d.timeMs()).cell(d.condition()).cell(d.status() ? "True" : "False")
          .cell(d.reason()).cell(d.message()).endRow();
    }
  }

  @Override
  public void close() throws IOException {
    csv.close();
  }
}
