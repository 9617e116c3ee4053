package batchsim.reports;

import batchsim.core.metrics.QueueStats;
import batchsim.core.metrics.QueueUsageStat;
import batchsim.core.metrics.RunResult;
import batchsim.core.metrics.TimeSeries;
import batchsim.core.metrics.UtilizationStat;
import batchsim.core.metrics.WorkloadRecord;
import batchsim.core.model.ResourceSpace;
import java.util.List;
import org.HdrHistogram.Histogram;

/** A small hand-built RunResult with known percentiles and awkward CSV values. */
final class Fixtures {
  static final long NEVER = WorkloadRecord.NEVER;
  static final RunMetadata META =
      new RunMetadata("examples/demo.yaml", "0123456789abcdef".repeat(4), "0.1.0-test");

  private Fixtures() {}

  /** Values below 2048 are exact in a 3-digit HdrHistogram, so percentiles are predictable. */
  static Histogram histogram(long... values) {
    Histogram h = new Histogram(3);
    for (long v : values) {
      h.recordValue(v);
    }
    return h;
  }

  static RunResult result(long horizonMs) {
    QueueStats teamA = new QueueStats("team-a",
        histogram(100, 200, 300, 400, 500, 600, 700, 800, 900, 1000),
        histogram(252_000, 252_000, 3_600_000),
        histogram(5_000),
        10, 9, 1, 2, 1, 1, 3, 5);
    QueueStats teamB = new QueueStats("team-b", histogram(), histogram(), histogram(),
        2, 0, 0, 0, 0, 2, 0, 0);
    QueueStats overall = new QueueStats(QueueStats.OVERALL,
        histogram(100, 200, 300, 400, 500, 600, 700, 800, 900, 1000),
        histogram(252_000, 252_000, 3_600_000),
        histogram(5_000),
        12, 9, 1, 2, 1, 3, 3, 5);
    List<WorkloadRecord> workloads = List.of(
        new WorkloadRecord("wl-1", "train", "lq-a", "team-a", 100, 0, 100, 150, 150, 2_000,
            7_000, 1, 0, "Finished", "cpu=default,gpu=h100", ""),
        new WorkloadRecord("wl-2", "batch", "lq-a", "team-a", 0, 10, 210, 210, 210, NEVER, NEVER,
            0, 1, "Admitted", "cpu=default", "said \"hi\", then\nleft"),
        new WorkloadRecord("wl-3", "batch", "lq-x", null, -5, 20, NEVER, NEVER, NEVER, NEVER, NEVER,
            0, 0, "Pending", "", "LocalQueue lq-x not found"));
    List<UtilizationStat> util = List.of(
        new UtilizationStat("default", "cpu", 12_345.678_901_234, 64_000, 0.192_901_232_831, 40_000),
        new UtilizationStat("default", "memory", 3.0 * (1L << 30), 128.0 * (1L << 30), 0.0234375,
            64L << 30),
        new UtilizationStat("h100", "nvidia.com/gpu", 0, 0, Double.NaN, 0));
    List<QueueUsageStat> usage = List.of(
        new QueueUsageStat("team-a", "default", "cpu", 32_000, 16_000.25, 0.500_007_812_5, 0.0, 40_000),
        new QueueUsageStat("team-b", "h100", "nvidia.com/gpu", 0, 1.5, Double.POSITIVE_INFINITY, 1.5,
            4));
    return new RunResult("demo", 42, horizonMs, 7_200_000, 123_456,
        ResourceSpace.of(List.of("cpu", "memory", "pods", "nvidia.com/gpu")), workloads, overall,
        List.of(teamA, teamB), util, usage, 1, TimeSeries.EMPTY);
  }
}
