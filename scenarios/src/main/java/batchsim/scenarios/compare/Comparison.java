package batchsim.scenarios.compare;

import batchsim.core.model.Quantity;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The differences between two results, metric by metric: per ClusterQueue and overall the wait
 * percentiles (time to quota reservation) and counts, then utilization per flavor and resource, then
 * what the nodes cost (node-hours per pool when the result has them, else capacity resource-hours).
 */
public final class Comparison {
  private static final Stat[] WAIT_STATS = {Stat.P50, Stat.P90, Stat.P95, Stat.P99, Stat.MAX};
  private static final Counter[] COUNTERS = {Counter.FINISHED, Counter.PENDING, Counter.EVICTIONS,
      Counter.PREEMPTIONS};

  /** Latency changes smaller than this are never flagged: sub-second differences are noise for batch waits. */
  public static final double MIN_FLAGGED_MS = 1_000;

  /** How a row's numbers read. */
  public enum Unit { MS, COUNT, RATIO, HOURS }

  /**
   * One compared number; {@code base} or {@code other} is NaN when that result has no value.
   *
   * @param scope a ClusterQueue, "overall", a flavor ("all nodes" for every node), or "pool NAME"
   */
  public record Row(String scope, String metric, Unit unit, double base, double other, Better better) {
    public double delta() {
      return other - base;
    }

    /** (other − base) ÷ |base|; infinite when base is 0 and other is not, NaN without both values. */
    public double relative() {
      if (!Double.isFinite(base) || !Double.isFinite(other)) {
        return Double.NaN;
      }
      if (base == 0) {
        return other == 0 ? 0 : Math.copySign(Double.POSITIVE_INFINITY, other);
      }
      return (other - base) / Math.abs(base);
    }

    /**
     * "worse", "better" or "changed" (for rows without a better direction) when the relative change is
     * beyond {@code tolerance} (and, for latencies, at least {@link #MIN_FLAGGED_MS}), or a value appeared
     * or disappeared; "" otherwise.
     */
    public String flag(double tolerance) {
      boolean hasBase = Double.isFinite(base);
      boolean hasOther = Double.isFinite(other);
      if (!hasBase && !hasOther) {
        return "";
      }
      if (hasBase != hasOther) {
        return "changed";
      }
      double r = relative();
      if (Math.abs(r) <= tolerance || unit == Unit.MS && Math.abs(delta()) < MIN_FLAGGED_MS) {
        return "";
      }
      double worse = better.worseBy(base, other);
      return worse > 0 ? "worse" : worse < 0 ? "better" : "changed";
    }
  }

  private Comparison() {}

  public static List<Row> rows(ResultView base, ResultView other) {
    List<Row> out = new ArrayList<>();
    Set<String> queues = new LinkedHashSet<>(base.queues());
    queues.addAll(other.queues());
    queues.add(ResultView.OVERALL);
    for (String q : queues) {
      String scope = ResultView.OVERALL.equals(q) ? "overall" : q;
      for (Stat s : WAIT_STATS) {
        out.add(new Row(scope, "wait " + s.word(), Unit.MS, latency(base, q, s), latency(other, q, s), Better.LOWER));
      }
      for (Counter c : COUNTERS) {
        out.add(new Row(scope, c.word(), Unit.COUNT, count(base, q, c), count(other, q, c), c.better()));
      }
    }
    for (ResultView.Utilization u : utilizationRows(base, other)) {
      String scope = ResultView.OVERALL.equals(u.flavor()) ? "all nodes" : u.flavor();
      out.add(new Row(scope, "utilization " + u.resource(), Unit.RATIO,
          base.utilization(u.flavor(), u.resource()).orElse(Double.NaN),
          other.utilization(u.flavor(), u.resource()).orElse(Double.NaN), Better.HIGHER));
    }
    out.addAll(cost(base, other));
    return out;
  }

  private static double latency(ResultView v, String q, Stat s) {
    OptionalDouble d = v.latency(q, Series.WAIT, s);
    return d.isPresent() ? d.getAsDouble() : Double.NaN;
  }

  private static double count(ResultView v, String q, Counter c) {
    OptionalLong n = v.count(q, c);
    return n.isPresent() ? n.getAsLong() : Double.NaN;
  }

  /** Rows of either result with capacity, base order first; pods are left out (rarely the constraint). */
  private static List<ResultView.Utilization> utilizationRows(ResultView base, ResultView other) {
    List<ResultView.Utilization> out = new ArrayList<>();
    Set<String> seen = new LinkedHashSet<>();
    List<ResultView.Utilization> all = new ArrayList<>(base.utilization());
    all.addAll(other.utilization());
    for (ResultView.Utilization u : all) {
      boolean capacity = base.utilization(u.flavor(), u.resource()).isPresent()
          || other.utilization(u.flavor(), u.resource()).isPresent();
      if (capacity && !u.resource().equals("pods") && seen.add(u.flavor() + "\u0000" + u.resource())) {
        out.add(u);
      }
    }
    return out;
  }

  /** Node-hours per pool and in total; without pool data, capacity hours of each resource on all nodes. */
  private static List<Row> cost(ResultView base, ResultView other) {
    List<Row> out = new ArrayList<>();
    if (!base.pools().isEmpty() || !other.pools().isEmpty()) {
      Set<String> pools = new LinkedHashSet<>();
      base.pools().forEach(p -> pools.add(p.pool()));
      other.pools().forEach(p -> pools.add(p.pool()));
      for (String p : pools) {
        out.add(new Row("pool " + p, "node-hours", Unit.HOURS, nodeHours(base, p), nodeHours(other, p), Better.LOWER));
      }
      out.add(new Row("all pools", "node-hours", Unit.HOURS, totalNodeHours(base), totalNodeHours(other),
          Better.LOWER));
      return out;
    }
    for (ResultView.Utilization u : base.utilization()) {
      if (ResultView.OVERALL.equals(u.flavor()) && !u.resource().equals("pods")) {
        out.add(new Row("all nodes", "capacity " + hoursUnit(u.resource()), Unit.HOURS, capacityHours(base, u.resource()),
            capacityHours(other, u.resource()), Better.LOWER));
      }
    }
    return out;
  }

  private static double nodeHours(ResultView v, String pool) {
    return v.pools().stream().filter(p -> p.pool().equals(pool)).mapToDouble(ResultView.PoolHours::nodeHours)
        .findFirst().orElse(Double.NaN);
  }

  private static double totalNodeHours(ResultView v) {
    return v.pools().isEmpty() ? Double.NaN : v.pools().stream().mapToDouble(ResultView.PoolHours::nodeHours).sum();
  }

  /** Mean capacity × run length, in display units (cores, GiB, GPUs) × hours. */
  private static double capacityHours(ResultView v, String resource) {
    for (ResultView.Utilization u : v.utilization()) {
      if (ResultView.OVERALL.equals(u.flavor()) && u.resource().equals(resource)) {
        double scale = Quantity.isMilli(resource) ? 1000.0 : Quantity.isBytes(resource) ? (double) (1L << 30) : 1.0;
        return u.meanCapacity() / scale * v.endTimeMs() / 3_600_000.0;
      }
    }
    return Double.NaN;
  }

  private static String hoursUnit(String resource) {
    if (Quantity.isMilli(resource)) {
      return "core-hours";
    }
    if (Quantity.isBytes(resource)) {
      return "GiB-hours";
    }
    return resource.endsWith("gpu") ? "GPU-hours" : resource + "-hours";
  }
}
