package batchsim.reports;

import batchsim.core.metrics.PoolStats;
import batchsim.core.metrics.PreemptionStats;
import batchsim.core.metrics.ProvisioningStats;
import batchsim.core.metrics.QueueStats;
import batchsim.core.metrics.QueueUsageStat;
import batchsim.core.metrics.RunResult;
import batchsim.core.metrics.ServingStats;
import batchsim.core.metrics.TasStats;
import batchsim.core.metrics.TimeSeries;
import batchsim.core.metrics.UtilizationStat;
import batchsim.core.metrics.WorkloadRecord;
import batchsim.core.model.ResourceSpace;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
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
   * sampled cpu capacity halves at sample 6 (memory capacity is not sampled). Cumulative evictions of
   * team-a: one (not a preemption) by sample 2, two preemptions more by sample 7; fair-sharing shares
   * stay 0 and the cpu pool keeps its 6 nodes.
   */
  static TimeSeries series(String queueA, int samples) {
    return series(queueA, samples, false);
  }

  /**
   * {@link #series(String, int)}, and when {@code rich}: team-a's share is 250 ‰ while it borrows
   * (samples 3-4), team-b's is infinite at sample 5; 3 of the cpu pool's nodes are failed at sample 6
   * and the gpu pool grows from 4 to 5 nodes at sample 5; TAS flavor tas-gpu has free domains per
   * level (block, rack) and the largest fit in GPUs.
   */
  static TimeSeries series(String queueA, int samples, boolean rich) {
    List<String> columns = new ArrayList<>(List.of("pending:" + queueA, "holding:" + queueA,
        "pending:team-b", "holding:team-b", "used:" + queueA + ":default:cpu",
        "used:team-b:h100:nvidia.com/gpu", "allocated:default:cpu", "allocated:default:memory",
        "allocated:h100:nvidia.com/gpu", "capacity:default:cpu", "share:" + queueA,
        "evicted:" + queueA, "preempted:" + queueA, "share:team-b", "evicted:team-b",
        "preempted:team-b", "nodes:cpu", "failed:cpu"));
    if (rich) {
      columns.addAll(List.of("nodes:gpu", "failed:gpu", "tas:tas-gpu:free:block",
          "tas:tas-gpu:largestFit:block:nvidia.com/gpu", "tas:tas-gpu:free:rack",
          "tas:tas-gpu:largestFit:rack:nvidia.com/gpu", "tasDomain:tas-gpu:b0:nvidia.com/gpu"));
    }
    long[] cpu = {0, 8_000, 24_000, 40_000, 36_000, 32_000, 16_000, 0, 0, 0};
    List<Long> times = new ArrayList<>();
    List<long[]> rows = new ArrayList<>();
    for (int i = 0; i < samples; i++) {
      times.add(i * 60_000L);
      long c = cpu[i % cpu.length];
      long[] row = new long[columns.size()];
      long[] base = {i % 4, c / 8_000, 2, 0, c, i == 5 ? 4 : 0, c, c * 1_000_000L, 0,
          i == 6 ? 32_000 : 64_000, // half the cpu nodes down at sample 6
          rich && c > 32_000 ? 250 : 0, (i >= 2 ? 1 : 0) + (i >= 7 ? 2 : 0), i >= 7 ? 2 : 0,
          rich && i == 5 ? Long.MAX_VALUE : 0, 0, 0, 6, rich && i == 6 ? 3 : 0};
      System.arraycopy(base, 0, row, 0, base.length);
      if (rich) {
        long[] more = {i < 5 ? 4 : 5, 0, i % 3, i % 3 == 0 ? 8 : 16, 4 - i % 3, 8, i % 2 * 8};
        System.arraycopy(more, 0, row, base.length, more.length);
      }
      rows.add(row);
    }
    return new TimeSeries(columns, times, rows);
  }

  /**
   * The fixture with everything a run can carry: the rich series, preemption costs (team-a: one
   * eviction and two preemptions, readmitted after 2, 4 and 6 minutes, 1.5 GPU-hours and 3 core-hours
   * lost), two node pools with failures, TAS, provisioning and serving figures.
   */
  static RunResult resultWithEverything() {
    RunResult b = result(10_800_000, "team-a", series("team-a", 10, true));
    PreemptionStats a = new PreemptionStats("team-a",
        new TreeMap<>(Map.of("Preempted", 2L, "PodsReadyTimeout", 1L)),
        new TreeMap<>(Map.of("InClusterQueue", 1L, "InCohortReclamation", 1L)), 3,
        histogram(120_000, 240_000, 360_000),
        new TreeMap<>(Map.of("nvidia.com/gpu", 1.5 * 3_600_000, "cpu", 3_000.0 * 3_600_000,
            "memory", 1e15)));
    PreemptionStats teamB = new PreemptionStats("team-b", new TreeMap<>(), new TreeMap<>(), 0,
        histogram(), new TreeMap<>());
    PreemptionStats all = new PreemptionStats("*", a.evictionsByReason(), a.preemptionsByReason(), 3,
        histogram(120_000, 240_000, 360_000), a.lostResourceMs());
    List<PoolStats> pools = List.of(new PoolStats("cpu", 6, 12.0, 3, 0.05, 7),
        new PoolStats("gpu", 5, 9.25, 0, 0, 0));
    List<ServingStats> serving = List.of(new ServingStats("llm-<a>", 12, 11, 13, 2, 1));
    TasStats tas = new TasStats(histogram(1_000, 2_000, 30_000), histogram(500), 4, 2);
    ProvisioningStats prov = new ProvisioningStats(7, 2, 2, 1, 1, 5, 3,
        histogram(60_000, 90_000, 120_000), histogram(61_000, 95_000));
    return new RunResult(b.scenarioName(), b.seed(), b.horizonMs(), b.endTimeMs(), b.events(),
        b.resources(), b.workloads(), b.overall(), b.queues(), b.utilization(), b.queueUsage(),
        b.unknownQueueArrivals(), b.timeSeries(), all, List.of(a, teamB), pools, serving, tas, prov, null);
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
