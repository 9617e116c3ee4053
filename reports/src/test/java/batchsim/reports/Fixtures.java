package batchsim.reports;

import batchsim.core.metrics.QueueStats;
import batchsim.core.metrics.QueueUsageStat;
import batchsim.core.metrics.RunResult;
import batchsim.core.metrics.TimeSeries;
import batchsim.core.metrics.UtilizationStat;
import batchsim.core.metrics.WorkloadRecord;
import batchsim.core.model.ResourceSpace;
import java.util.ArrayList;
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
    return result(horizonMs, "team-a", TimeSeries.EMPTY);
  }

  /** The fixture with ten one-minute samples in which team-a borrows cpu above its nominal 32. */
  static RunResult resultWithSeries() {
    return result(10_800_000, "team-a", series("team-a", 10));
  }

  /**
   * Samples every minute: pending and holding counts per queue, quota used (team-a cpu crosses its
   * nominal of 32 cores at sample 3 and peaks at 40), and allocation on the default flavor, whose
   * sampled cpu capacity halves at sample 6 (memory capacity is not sampled).
   */
  static TimeSeries series(String queueA, int samples) {
    List<String> columns = List.of("pending:" + queueA, "holding:" + queueA, "pending:team-b",
        "holding:team-b", "used:" + queueA + ":default:cpu", "used:team-b:h100:nvidia.com/gpu",
        "allocated:default:cpu", "allocated:default:memory", "allocated:h100:nvidia.com/gpu",
        "capacity:default:cpu");
    long[] cpu = {0, 8_000, 24_000, 40_000, 36_000, 32_000, 16_000, 0, 0, 0};
    List<Long> times = new ArrayList<>();
    List<long[]> rows = new ArrayList<>();
    for (int i = 0; i < samples; i++) {
      times.add(i * 60_000L);
      long c = cpu[i % cpu.length];
      rows.add(new long[] {i % 4, c / 8_000, 2, 0, c, i == 5 ? 4 : 0, c, c * 1_000_000L, 0,
          i == 6 ? 32_000 : 64_000}); // half the cpu nodes down at sample 6
    }
    return new TimeSeries(columns, times, rows);
  }

  static RunResult result(long horizonMs, String queueA, TimeSeries series) {
    QueueStats teamA = new QueueStats(queueA,
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
        new WorkloadRecord("wl-1", "train", "lq-a", queueA, 100, 0, 100, 150, 150, 2_000,
            7_000, 1, 0, "Finished", "cpu=default,gpu=h100", ""),
        new WorkloadRecord("wl-2", "batch", "lq-a", queueA, 0, 10, 210, 210, 210, NEVER, NEVER,
            0, 1, "Admitted", "cpu=default", "said \"hi\", then\nleft"),
        new WorkloadRecord("wl-3", "batch", "lq-x", null, -5, 20, NEVER, NEVER, NEVER, NEVER, NEVER,
            0, 0, "Pending", "", "LocalQueue lq-x not found"));
    List<UtilizationStat> util = List.of(
        new UtilizationStat("default", "cpu", 12_345.678_901_234, 64_000, 0.192_901_232_831, 40_000),
        new UtilizationStat("default", "memory", 3.0 * (1L << 30), 128.0 * (1L << 30), 0.0234375,
            64L << 30),
        new UtilizationStat("h100", "nvidia.com/gpu", 0, 0, Double.NaN, 0));
    List<QueueUsageStat> usage = List.of(
        new QueueUsageStat(queueA, "default", "cpu", 32_000, 16_000.25, 0.500_007_812_5, 0.0, 40_000),
        new QueueUsageStat("team-b", "h100", "nvidia.com/gpu", 0, 1.5, Double.POSITIVE_INFINITY, 1.5,
            4));
    return new RunResult("demo", 42, horizonMs, 7_200_000, 123_456,
        ResourceSpace.of(List.of("cpu", "memory", "pods", "nvidia.com/gpu")), workloads, overall,
        List.of(teamA, teamB), util, usage, 1, series);
  }
}
