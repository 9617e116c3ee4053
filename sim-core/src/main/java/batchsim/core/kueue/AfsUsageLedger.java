package batchsim.core.kueue;

import batchsim.core.model.AdmissionFairSharing;
import batchsim.core.model.Quantity;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Kueue's admission fair sharing ledger (pkg/cache/queue/afs/usage_ledger.go, entry_penalties.go and
 * pkg/util/admissionfairsharing): per LocalQueue, the decayed consumed resources, the entry penalties not yet
 * settled (one record per workload), and when the consumed resources were last decayed.
 *
 * <p>Amounts are Kubernetes quantities (cpu in cores, memory in bytes), kept as decimals the way Kueue keeps
 * them: every scaling by a float (resource.MulByFloat) multiplies by the float's shortest decimal and rounds
 * down to 9 decimal places, so the same run gives the same figures bit for bit.
 */
public final class AfsUsageLedger {
  /** Kueue mulByFloatScale. */
  private static final int SCALE = 9;

  /** One LocalQueue's entry (Kueue UsageLedgerEntry). */
  static final class Entry {
    final String lq;
    TreeMap<String, BigDecimal> consumed = new TreeMap<>();
    final Map<String, TreeMap<String, BigDecimal>> penalties = new LinkedHashMap<>();
    long lastUpdateMs;

    Entry(String lq, long lastUpdateMs) {
      this.lq = lq;
      this.lastUpdateMs = lastUpdateMs;
    }

    TreeMap<String, BigDecimal> pendingPenalty() {
      TreeMap<String, BigDecimal> sum = new TreeMap<>();
      penalties.values().forEach(p -> addInto(sum, p));
      return sum;
    }
  }

  final AdmissionFairSharing config;
  private final Map<String, Entry> entries = new TreeMap<>();
  /** LocalQueues by their last update, so the next sample costs O(log LocalQueues). */
  private final java.util.TreeSet<Entry> byLastUpdate = new java.util.TreeSet<>(
      java.util.Comparator.comparingLong((Entry e) -> e.lastUpdateMs).thenComparing(e -> e.lq));

  AfsUsageLedger(AdmissionFairSharing config) {
    this.config = config;
  }

  /**
   * Kueue calculateAlphaRate: the share of the new sample after {@code elapsedMs}; 0 when the half-life is 0.
   * StrictMath keeps it the same on every platform.
   */
  static double alpha(long elapsedMs, long halfLifeMs) {
    if (halfLifeMs == 0) {
      return 0.0;
    }
    return 1.0 - StrictMath.pow(0.5, (elapsedMs / 1000.0) / (halfLifeMs / 1000.0));
  }

  /** Kueue resource.MulByFloat: the float's shortest decimal times each amount, rounded down to 9 places. */
  static TreeMap<String, BigDecimal> mulByFloat(Map<String, BigDecimal> q, double f) {
    BigDecimal factor = new BigDecimal(Double.toString(f));
    TreeMap<String, BigDecimal> out = new TreeMap<>();
    q.forEach((k, v) -> out.put(k, v.multiply(factor).setScale(SCALE, RoundingMode.DOWN).stripTrailingZeros()));
    return out;
  }

  /** Kueue CalculateDecayedConsumed: old × (1 − α) + new × α, α for the elapsed time. */
  static TreeMap<String, BigDecimal> decayed(Map<String, BigDecimal> old, Map<String, BigDecimal> now,
      long elapsedMs, long halfLifeMs) {
    double a = alpha(elapsedMs, halfLifeMs);
    TreeMap<String, BigDecimal> out = mulByFloat(old, 1 - a);
    addInto(out, mulByFloat(now, a));
    return out;
  }

  /** A batchsim base-unit amount as the quantity Kueue computes with (cpu milli-cores become cores). */
  static BigDecimal quantity(String resource, long amount) {
    return Quantity.isMilli(resource) ? BigDecimal.valueOf(amount, 3) : BigDecimal.valueOf(amount);
  }

  private static void addInto(TreeMap<String, BigDecimal> into, Map<String, BigDecimal> add) {
    add.forEach((k, v) -> into.merge(k, v, BigDecimal::add));
  }

  private Entry entry(String lq, long now) {
    Entry e = entries.get(lq);
    if (e == null) {
      e = new Entry(lq, now);
      entries.put(lq, e);
      byLastUpdate.add(e);
    }
    return e;
  }

  private void updated(Entry e, long now) {
    long at = Math.max(now, e.lastUpdateMs);
    if (at != e.lastUpdateMs) {
      byLastUpdate.remove(e);
      e.lastUpdateMs = at;
      byLastUpdate.add(e);
    }
  }

  /** The LocalQueue reconciler's first pass: an entry with nothing consumed, last updated now. */
  void ensure(String lq, long now) {
    entry(lq, now);
  }

  /** A deleted LocalQueue's history goes with it. */
  void delete(String lq) {
    Entry e = entries.remove(lq);
    if (e != null) {
      byLastUpdate.remove(e);
    }
  }

  /**
   * Kueue PushPenalty (scheduler updateEntryPenalty at assume): the workload's requests × α(sampling
   * interval), replacing its previous record.
   */
  void pushPenalty(String lq, String workload, Map<String, BigDecimal> requests, long now) {
    double a = alpha(config.usageSamplingMs(), config.usageHalfLifeMs());
    entry(lq, now).penalties.put(workload, mulByFloat(requests, a));
  }

  /** Kueue SubPenalty: drops the workload's record (it will never settle); a no-op without one. */
  boolean subPenalty(String lq, String workload) {
    Entry e = entries.get(lq);
    return e != null && e.penalties.remove(workload) != null;
  }

  /**
   * Kueue updateAfsConsumedUsage (workload controller, on every transition into Admitted): decays the
   * consumed resources towards the LocalQueue's admitted usage, then folds in exactly the workload's penalty.
   */
  void settle(String lq, String workload, Map<String, BigDecimal> admittedUsage, long now) {
    Entry e = entry(lq, now);
    long elapsed = Math.max(0, now - e.lastUpdateMs);
    TreeMap<String, BigDecimal> c = decayed(e.consumed, admittedUsage, elapsed, config.usageHalfLifeMs());
    TreeMap<String, BigDecimal> p = e.penalties.remove(workload);
    if (p != null) {
      addInto(c, p);
    }
    e.consumed = c;
    updated(e, now);
  }

  /**
   * Kueue reconcileConsumedUsage (LocalQueue reconciler, every usageSamplingInterval after the last update):
   * the consumed resources decay towards the admitted usage; a half-life of 0 resets them.
   */
  void sample(String lq, Map<String, BigDecimal> admittedUsage, long now) {
    Entry e = entry(lq, now);
    if (config.usageHalfLifeMs() == 0) {
      e.consumed = new TreeMap<>();
    } else {
      e.consumed = decayed(e.consumed, admittedUsage, Math.max(0, now - e.lastUpdateMs), config.usageHalfLifeMs());
    }
    updated(e, now);
  }

  /**
   * Kueue CalculateUsage: the weighted sum of consumed resources and pending penalties (resources in name
   * order), divided by the LocalQueue's weight; +Inf for a weight that is not positive.
   */
  double usage(String lq, double lqWeight) {
    Entry e = entries.get(lq);
    TreeMap<String, BigDecimal> all = new TreeMap<>();
    if (e != null) {
      addInto(all, e.consumed);
      addInto(all, e.pendingPenalty());
    }
    double sum = 0;
    for (Map.Entry<String, BigDecimal> r : all.entrySet()) {
      sum += config.weight(r.getKey()) * r.getValue().doubleValue();
    }
    return lqWeight <= 0 ? Double.POSITIVE_INFINITY : sum / lqWeight;
  }

  /** When the next LocalQueue is due for a sample, or {@link Long#MAX_VALUE} when there is none. */
  long nextDueMs() {
    return byLastUpdate.isEmpty() ? Long.MAX_VALUE : byLastUpdate.first().lastUpdateMs + config.usageSamplingMs();
  }

  /** The LocalQueues whose sample is due at {@code now}, in name order. */
  List<String> due(long now) {
    List<String> out = new ArrayList<>();
    for (Entry e : byLastUpdate) {
      if (e.lastUpdateMs + config.usageSamplingMs() > now) {
        break;
      }
      out.add(e.lq);
    }
    out.sort(null);
    return out;
  }

  /** The LocalQueue's consumed resources (status consumedResources), or null without an entry. */
  public Map<String, BigDecimal> consumed(String lq) {
    Entry e = entries.get(lq);
    return e == null ? null : java.util.Collections.unmodifiableMap(e.consumed);
  }

  /** When its consumed resources were last updated (status lastUpdate), or -1 without an entry. */
  public long lastUpdateMs(String lq) {
    Entry e = entries.get(lq);
    return e == null ? -1 : e.lastUpdateMs;
  }

  /** The LocalQueue's pending penalty (sum of its records). */
  Map<String, BigDecimal> pendingPenalty(String lq) {
    Entry e = entries.get(lq);
    return e == null ? Map.of() : e.pendingPenalty();
  }
}
