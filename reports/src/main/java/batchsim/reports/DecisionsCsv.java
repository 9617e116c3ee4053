package batchsim.reports;

import batchsim.core.metrics.Decision;
import java.io.IOException;
import java.io.OutputStream;
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
    try (CsvWriter csv = CsvWriter.utf8(out)) {
      csv.row(List.of(HEADER.split(",")));
      for (var e : decisions.entrySet()) {
        for (Decision d : e.getValue()) {
          csv.cell(e.getKey()).cell(d.timeMs()).cell(d.condition()).cell(d.status() ? "True" : "False")
              .cell(d.reason()).cell(d.message()).endRow();
        }
      }
    }
  }
}
