package batchsim.reports;

import batchsim.core.metrics.QueueStats;
import batchsim.core.metrics.RunResult;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

/**
 * waits.hlog: an HdrHistogram interval log (format 1.3, readable by HistogramLogReader,
 * HistogramLogProcessor and HistogramLogAnalyzer) holding the wait histograms of the whole run as one
 * interval, tagged {@code rsv.<queue>} (created → quota reserved) and {@code start.<queue>} (created →
 * running), with {@code *} for all queues. Values are virtual milliseconds, the interval is
 * [0, end of run] in seconds, and the max column is unscaled (ms). The run's provenance comes first, as
 * comment lines ({@code #[batchsim provenance] key: value}).
 */
final class WaitsHlog {
  static final String RESERVATION = "rsv.";
  static final String START = "start.";

  private WaitsHlog() {}

  /** Writes the log to {@code out}, which is flushed but left open. */
  static void write(RunResult r, RunMetadata meta, OutputStream out) throws IOException {
    PrintStream ps = new PrintStream(new NonClosing(out), false, StandardCharsets.UTF_8);
    HistogramLogWriter w = new HistogramLogWriter(ps);
    w.outputLogFormatVersion();
    if (meta.provenance() != null) { // comment lines: HistogramLogReader skips them; no path as the user gave it
      Provenance.lines(meta, r.seed()).stream().filter(l -> !l.key().equals("scenario"))
          .forEach(l -> w.outputComment("[batchsim provenance] " + l));
    }
    // HistogramLogWriter.outputStartTime appends Date.toString(), which depends on the JVM's time
    // zone; the same header is written here with a fixed UTC date so the file is reproducible.
    w.outputComment("[StartTime: 0.000 (seconds since epoch), Thu Jan 01 00:00:00 UTC 1970]");
    w.outputBaseTime(0);
    w.outputComment("[batchsim waits: values are virtual milliseconds; tags rsv.<queue> = created"
        + " to quota reserved, start.<queue> = created to running, * = all queues]");
    w.outputLegend();
    double end = r.endTimeMs() / 1000.0;
    for (QueueStats q : r.queues()) {
      interval(w, RESERVATION + q.name(), q.timeToReservation(), end);
    }
    if (r.overall() != null) {
      interval(w, RESERVATION + QueueStats.OVERALL, r.overall().timeToReservation(), end);
    }
    for (QueueStats q : r.queues()) {
      interval(w, START + q.name(), q.timeToStart(), end);
    }
    if (r.overall() != null) {
      interval(w, START + QueueStats.OVERALL, r.overall().timeToStart(), end);
    }
    w.close(); // flushes; the stream underneath stays open
    if (ps.checkError()) { // PrintStream swallows IOExceptions
      throw new IOException("failed to write the HdrHistogram log");
    }
  }

  private static void interval(HistogramLogWriter w, String tag, Histogram h, double endSec) {
    Histogram copy = h == null ? new Histogram(3) : h.copy(); // setTag must not touch the result
    copy.setTag(tag(tag));
    w.outputIntervalHistogram(0, endSec, copy, 1.0);
  }

  /** Tags end at the first comma or whitespace in the log format; such characters become '_'. */
  static String tag(String s) {
    return s.replaceAll("[,\\s]", "_");
  }

  /** Keeps HistogramLogWriter.close() from closing the caller's stream. */
  private static final class NonClosing extends java.io.FilterOutputStream {
    NonClosing(OutputStream out) {
      super(out);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len);
    }

    @Override
    public void close() throws IOException {
      flush();
    }
  }
}
