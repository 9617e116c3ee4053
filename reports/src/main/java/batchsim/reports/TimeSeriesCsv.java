package batchsim.reports;

import batchsim.core.metrics.TimeSeries;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;

/**
 * timeseries.csv: one row per sample, first column {@code time_ms}, then one column per series named as
 * in {@link TimeSeries} (e.g. {@code used:team-a:a100:nvidia.com/gpu}); amounts in base units.
 */
final class TimeSeriesCsv {
  private TimeSeriesCsv() {}

  static void write(TimeSeries ts, OutputStream out) throws IOException {
    try (Writer w = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), 1 << 16)) {
      w.write("time_ms");
      for (String c : ts.columns()) {
        w.write(',');
        WorkloadsCsv.text(w, c);
      }
      w.write('\n');
      for (int i = 0; i < ts.rows().size(); i++) {
        w.write(Long.toString(ts.timesMs().get(i)));
        for (long v : ts.rows().get(i)) {
          w.write(',');
          w.write(Long.toString(v));
        }
        w.write('\n');
      }
    }
  }
}
