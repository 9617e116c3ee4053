package batchsim.reports;

import batchsim.core.metrics.RunResult;
import batchsim.core.metrics.WorkloadRecord;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes the machine-readable reports of one run into a directory. */
public final class Reports {
  public static final String SUMMARY_JSON = "summary.json";
  public static final String WORKLOADS_CSV = "workloads.csv";
  public static final String TIMESERIES_CSV = "timeseries.csv";
  public static final String DECISIONS_CSV = "decisions.csv";
  public static final String WAITS_HLOG = "waits.hlog";
  public static final String REPORT_HTML = "report.html";

  private Reports() {}

  /**
   * Writes {@value #SUMMARY_JSON}, {@value #WORKLOADS_CSV}, {@value #WAITS_HLOG},
   * {@value #REPORT_HTML} and, when the run sampled, {@value #TIMESERIES_CSV} (and, when explained,
   * {@value #DECISIONS_CSV}) into {@code dir}, which must exist, from a result that lists its workloads
   * (tests, hand-built results). Existing files are overwritten; making the directory appear atomically is
   * the caller's job.
   */
  public static void writeAll(RunResult result, RunMetadata meta, Path dir) throws IOException {
    WorkloadRows rows = WorkloadRows.open(dir, "rows", false);
    try {
      for (WorkloadRecord w : result.workloads()) {
        rows.accept(0, w, null);
      }
      writeAll(result, meta, rows, dir);
    } finally {
      rows.discard();
    }
    if (result.decisions() != null) {
      try (OutputStream out = Files.newOutputStream(dir.resolve(DECISIONS_CSV))) {
        DecisionsCsv.write(result.decisions(), out);
      }
    }
  }

  /**
   * As above, for a run whose workloads streamed into {@code rows} ({@link WorkloadRows}): their files move
   * into {@code dir}, and summary.json and report.html take the digest and the groups from them.
   */
  public static void writeAll(RunResult result, RunMetadata meta, WorkloadRows rows, Path dir)
      throws IOException {
    // The CSV is complete first: the summary carries the digest of its exact bytes.
    String digest = rows.digest();
    rows.moveInto(dir);
    if (!result.timeSeries().timesMs().isEmpty()) {
      try (OutputStream out = Files.newOutputStream(dir.resolve(TIMESERIES_CSV))) {
        TimeSeriesCsv.write(result.timeSeries(), out);
      }
    }
    try (OutputStream out = Files.newOutputStream(dir.resolve(SUMMARY_JSON))) {
      SummaryJson.write(result, meta, digest, out);
    }
    try (OutputStream out = Files.newOutputStream(dir.resolve(WAITS_HLOG))) {
      WaitsHlog.write(result, meta, out);
    }
    try (OutputStream out = Files.newOutputStream(dir.resolve(REPORT_HTML))) {
      HtmlReport.write(result, meta, digest, rows.byPriority(HtmlReport.GROUP_LIMIT),
          rows.byClass(HtmlReport.GROUP_LIMIT), out);
    }
  }
}
