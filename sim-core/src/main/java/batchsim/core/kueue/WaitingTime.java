package batchsim.core.kueue;

import batchsim.core.metrics.WaitingStats;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Workload-time spent waiting, per ClusterQueue and {@link WaitCause}, integrated exactly: each queue keeps how
 * many of its workloads wait on each cause, and a change of one workload's cause moves one count (O(1)).
 *
 * <p>A workload's cause follows its own Kueue conditions, change by change as decisions.csv lists them (a
 * whole shape parked at once keeps each member's own condition, as in Kueue, whose workload status is not
 * rewritten by the bulk move). It waits from its creation until PodsReady=True, and again from a
 * QuotaReserved=False after that (its reservation was lost) until the next PodsReady=True; Finished=True or
 * deletion ends it. While it waits: no QuotaReserved yet → not yet tried; QuotaReserved=False → the cause
 * {@link WaitCauses#of} gives; QuotaReserved=True and Evicted=True → evicted; not Admitted → admission checks;
 * else pods starting. A change counts at max(0, its time, the workload's previous change): only time inside
 * the run counts (a workload restored from a live cluster counts from the start with the state it had).
 */
final class WaitingTime {
  static final long HOUR_MS = 3_600_000L;

  /** One workload's conditions as far as its wait is concerned. */
  static final class Track {
    final WaitingTime owner;
    boolean waiting = true;
    boolean ended;
    /** QuotaReserved: 0 never set, 1 False, 2 True. */
    byte quotaReserved;
    WaitCause quotaCause;
    boolean admitted;
    boolean evicted;
    long at;
    /** The queue and cause it is counted under, or null. */
    Level counted;

    Track(WaitingTime owner) {
      this.owner = owner;
    }

    WaitCause cause() {
      if (!waiting) {
        return null;
      }
      if (quotaReserved == 0) {
        return WaitCause.of(WaitCause.Kind.NOT_YET_TRIED);
      }
      if (quotaReserved == 1) {
        return quotaCause;
      }
      return evicted ? WaitCause.of(WaitCause.Kind.EVICTED)
          : admitted ? WaitCause.of(WaitCause.Kind.PODS_STARTING) : WaitCause.of(WaitCause.Kind.ADMISSION_CHECKS);
    }
  }

  /** How many workloads of a queue wait on a cause, integrated over time, also per hour. */
  static final class Level {
    final String queue;
    final WaitCause cause;
    long count;
    long integralMs;
    long since;
    long[] hours = new long[0];

    Level(String queue, WaitCause cause) {
      this.queue = queue;
      this.cause = cause;
    }

    void add(long at, int delta) {
      long t = Math.max(at, since);
      if (count > 0) {
        integralMs += count * (t - since);
        for (long s = since; s < t; ) {
          int h = (int) (s / HOUR_MS);
          long e = Math.min(t, (h + 1) * HOUR_MS);
          if (h >= hours.length) {
            hours = Arrays.copyOf(hours, Math.max(h + 1, hours.length * 2));
          }
          hours[h] += count * (e - s);
          s = e;
        }
      }
      since = t;
      count += delta;
    }
  }

  private final KueueEngine engine;
  private final Map<String, QueueLevels> queues = new HashMap<>(); // read in sorted order only
  /** A queue's levels: by kind for the causes without details (most changes), by cause for the others. */
  private static final class QueueLevels {
    final Level[] plain = new Level[WaitCause.Kind.values().length];
    final Map<WaitCause, Level> detailed = new HashMap<>();

    Level get(String queue, WaitCause cause) {
      if (cause == cause.kind().plain) {
        Level l = plain[cause.kind().ordinal()];
        return l != null ? l : (plain[cause.kind().ordinal()] = new Level(queue, cause));
      }
      return detailed.computeIfAbsent(cause, c -> new Level(queue, c));
    }

    /** Every level, in cause order. */
    TreeMap<WaitCause, Level> all() {
      TreeMap<WaitCause, Level> out = new TreeMap<>(detailed);
      for (Level l : plain) {
        if (l != null) {
          out.put(l.cause, l);
        }
      }
      return out;
    }
  }

  /** The quota causes seen so far (at most flavors × resources), reused rather than allocated per change. */
  private final List<WaitCause> quotaCauses = new ArrayList<>();
  /** Checked mode only: every workload counted now. */
  private java.util.Set<Workload> counted;

  WaitingTime(KueueEngine engine) {
    this.engine = engine;
  }

  /** A new workload waits, not yet tried, from its creation (or the start of the run). */
  Track created(Workload w) {
    Track t = new Track(this);
    t.at = Math.max(0, w.createdMs);
    count(w, t, t.at);
    return t;
  }

  /** One of the workload's conditions changed (the same changes its decision log records). */
  void condition(Workload w, ConditionType type, boolean status, String reason, String message, long time) {
    Track t = w.waitTrack;
    if (t == null || t.ended) {
      return;
    }
    switch (type) {
      case QUOTA_RESERVED -> {
        if (status) {
          t.quotaReserved = 2;
        } else {
          t.quotaReserved = 1;
          t.quotaCause = WaitCauses.of(reason, message, quotaCauses);
          t.waiting = true;
        }
      }
      case ADMITTED -> t.admitted = status;
      case EVICTED -> t.evicted = status;
      case PODS_READY -> t.waiting &= !status;
      case FINISHED -> {
        if (status) {
          t.waiting = false;
          t.ended = true;
        }
      }
      default -> {
        return;
      }
    }
    count(w, t, Math.max(t.at, time));
  }

  /** The workload left without a condition (deleted): its wait ends now. */
  void ended(Workload w, long time) {
    Track t = w.waitTrack;
    if (t != null && !t.ended) {
      t.waiting = false;
      t.ended = true;
      count(w, t, Math.max(t.at, time));
    }
  }

  /** The workload now belongs to another ClusterQueue ({@code w.cq}): its wait counts there from now on. */
  void moved(Workload w, long time) {
    Track t = w.waitTrack;
    if (t != null && !t.ended) {
      count(w, t, Math.max(t.at, time));
    }
  }

  private void count(Workload w, Track t, long at) {
    WaitCause cause = t.cause();
    String queue = w.cq.name;
    Level from = t.counted;
    if (cause != null ? from == null || !from.cause.equals(cause) || !from.queue.equals(queue) : from != null) {
      if (from != null) {
        move(from, at, -1);
      }
      t.counted = cause == null ? null : queues.computeIfAbsent(queue, q -> new QueueLevels()).get(queue, cause);
      if (cause != null) {
        move(t.counted, at, +1);
      }
      if (counted != null) {
        if (cause != null) {
          counted.add(w);
        } else {
          counted.remove(w);
        }
      }
    }
    t.at = at;
  }

  private void move(Level l, long at, int delta) {
    l.add(at, delta);
    if (l.cause.isQuota() && l.count == (delta > 0 ? 1 : 0)) {
      engine.host.onQuotaWait(l.queue, l.cause, delta > 0, Math.max(at, 0));
    }
  }

  /** Checked mode: keeps the counted workloads from now on (a run turns checking on before anything happens). */
  void keepWaiting(boolean on) {
    counted = on ? new java.util.LinkedHashSet<>() : null;
  }

  /**
   * Checked mode: the counts per queue and cause equal a recount of the counted workloads, each one's cause
   * worked out afresh from the conditions it has now; every workload queued in a ClusterQueue is counted there.
   */
  List<String> check(List<ClusterQueue> clusterQueues) {
    if (counted == null) {
      return List.of();
    }
    List<String> out = new ArrayList<>();
    Map<String, Map<WaitCause, Long>> recount = new TreeMap<>();
    for (Workload w : counted) {
      WaitCause c = causeFromConditions(w);
      if (c == null) {
        out.add("workload " + w.id() + " is counted as waiting on " + w.waitTrack.counted.cause.label()
            + " but its conditions say it does not wait");
        continue;
      }
      recount.computeIfAbsent(w.cq.name, k -> new TreeMap<>()).merge(c, 1L, Long::sum);
    }
    Map<String, Map<WaitCause, Long>> counts = new TreeMap<>();
    queues.forEach((q, levels) -> levels.all().forEach((c, l) -> {
      if (l.count != 0) {
        counts.computeIfAbsent(q, k -> new TreeMap<>()).put(c, l.count);
      }
    }));
    if (!counts.equals(recount)) {
      out.add("waiting workloads per queue and cause " + counts + " differ from a recount " + recount);
    }
    for (ClusterQueue q : clusterQueues) {
      q.pending.forEach((w, active) -> {
        if (!counted.contains(w) || !q.name.equals(w.waitTrack.counted.queue)) {
          out.add("workload " + w.id() + " is queued in " + q.name + " but not counted as waiting there");
        }
      });
    }
    return out;
  }

  /** The cause a workload's present conditions give, or null when it does not wait (see the class comment). */
  static WaitCause causeFromConditions(Workload w) {
    if (w.state == WorkloadState.FINISHED || w.state == WorkloadState.DELETED) {
      return null;
    }
    Condition reserved = w.conditions.get(ConditionType.QUOTA_RESERVED);
    Condition ready = w.conditions.get(ConditionType.PODS_READY);
    if (reserved == null) {
      return WaitCause.of(WaitCause.Kind.NOT_YET_TRIED);
    }
    if (!reserved.status()) {
      return WaitCauses.of(reserved.reason(), reserved.message());
    }
    if (ready != null && (ready.status() || "WaitForRecovery".equals(ready.reason()))) {
      return null; // it ran in this reservation
    }
    Condition evicted = w.conditions.get(ConditionType.EVICTED);
    Condition admitted = w.conditions.get(ConditionType.ADMITTED);
    return evicted != null && evicted.status() ? WaitCause.of(WaitCause.Kind.EVICTED)
        : admitted != null && admitted.status() ? WaitCause.of(WaitCause.Kind.PODS_STARTING)
        : WaitCause.of(WaitCause.Kind.ADMISSION_CHECKS);
  }

  /**
   * The split at {@code end} for the given queues, in their order; over-time buckets are whole hours, merged
   * so that there are at most {@code maxBuckets}.
   */
  WaitingStats report(long end, List<String> order, int maxBuckets) {
    long hours = Math.max(1, (end + HOUR_MS - 1) / HOUR_MS);
    long perBucket = (hours + maxBuckets - 1) / maxBuckets;
    int buckets = (int) ((hours + perBucket - 1) / perBucket);
    List<WaitingStats.Queue> out = new ArrayList<>();
    TreeMap<WaitCause, long[]> overall = new TreeMap<>();
    for (String q : order) {
      QueueLevels levels = queues.get(q);
      TreeMap<WaitCause, Level> byCause = levels == null ? new TreeMap<>() : levels.all();
      List<WaitingStats.Cause> causes = new ArrayList<>();
      long total = 0;
      for (var e : byCause.entrySet()) {
        Level l = e.getValue();
        l.add(end, 0);
        if (l.integralMs == 0) {
          continue;
        }
        long[] b = new long[buckets];
        for (int h = 0; h < l.hours.length; h++) {
          b[(int) Math.min(buckets - 1, h / perBucket)] += l.hours[h];
        }
        causes.add(new WaitingStats.Cause(e.getKey().label(), l.integralMs, b));
        total += l.integralMs;
        long[] sum = overall.computeIfAbsent(e.getKey(), k -> new long[buckets + 1]);
        sum[0] += l.integralMs;
        for (int i = 0; i < buckets; i++) {
          sum[i + 1] += b[i];
        }
      }
      out.add(new WaitingStats.Queue(q, total, causes, List.of()));
    }
    List<WaitingStats.Cause> all = new ArrayList<>();
    long total = 0;
    for (var e : overall.entrySet()) {
      long[] s = e.getValue();
      all.add(new WaitingStats.Cause(e.getKey().label(), s[0], Arrays.copyOfRange(s, 1, s.length)));
      total += s[0];
    }
    return new WaitingStats(end, perBucket * HOUR_MS, out, new WaitingStats.Queue(batchsim.core.metrics.QueueStats.OVERALL, total, all, List.of()));
  }
}
