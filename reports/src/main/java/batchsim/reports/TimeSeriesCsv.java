package batchsim.reports;

import batchsim.core.metrics.TimeSeries;
import java.io.IOException;
import java.io.OutputStream;

/**
 * timeseries.csv: one row per sample, first column {@code time_ms}, then one column per series named as
 * in {@link TimeSeries} (e.g. {@code used:team-a:a100:nvidia.com/gpu}); amounts in base units.
 */
final class TimeSeriesCsv {
  private TimeSeriesCsv() {}

  static void write(TimeSeries ts, OutputStream out) throws IOException {
    try (CsvWriter csv = CsvWriter.utf8(out)) {
      csv.cell("time_ms");
      for (String c : ts.columns()) {
        csv.cell(c);
      }
      csv.endRow();
      for (int i = 0; i < ts.rows().size(); i++) {
        csv.cell(ts.timesMs().get(i));
        for (long v : ts.rows().get(i)) {
          csv.cell(v);
        }
        csv.endRow();
      }
    }
  }
}
