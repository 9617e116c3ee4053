package batchsim.reports;

import batchsim.core.metrics.WorkloadRecord;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.HdrHistogram.Histogram;

/**
 * Wait times and evictions of workloads grouped by one key (priority, workload class), derived from
 * the per-workload records. Only the {@code limit} largest groups get histograms, so a trace with
 * thousands of distinct priorities neither bloats the page nor the heap.
 */
final class WorkloadGroups {
  /** One group's figures. Histograms are in virtual milliseconds, like {@code QueueStats}. */
  static final class Group {
    final String label;
    long workloads;
    long neverReserved;
    long evictedWorkloads;
    long evictions;
    long preemptions;
    final Histogram reservation = new Histogram(3);
    final Histogram start = new Histogram(3);

    Group(String label) {
      this.label = label;
    }
  }

  final List<Group> shown;
  final int hiddenGroups;
  final long hiddenWorkloads;

  private WorkloadGroups(List<Group> shown, int hiddenGroups, long hiddenWorkloads) {
    this.shown = shown;
    this.hiddenGroups = hiddenGroups;
    this.hiddenWorkloads = hiddenWorkloads;
  }

  static WorkloadGroups byPriority(List<WorkloadRecord> workloads, int limit) {
    return of(workloads, WorkloadRecord::priority,
        Comparator.<Integer>reverseOrder(), p -> "priority " + p, limit);
  }

  static WorkloadGroups byClass(List<WorkloadRecord> workloads, int limit) {
    return of(workloads, w -> w.workloadClass() == null || w.workloadClass().isEmpty()
        ? "(no class)" : w.workloadClass(), Comparator.<String>naturalOrder(), c -> c, limit);
  }

  /**
   * Two passes: count per key, keep the {@code limit} largest groups (ties by key order), then record
   * histograms for those only. Shown groups are in key order.
   */
  private static <K> WorkloadGroups of(List<WorkloadRecord> workloads, Function<WorkloadRecord, K> key,
      Comparator<K> order, Function<K, String> label, int limit) {
    Map<K, long[]> counts = new HashMap<>();
    for (WorkloadRecord w : workloads) {
      counts.computeIfAbsent(key.apply(w), k -> new long[1])[0]++;
    }
    List<K> keys = new ArrayList<>(counts.keySet());
    keys.sort(Comparator.<K>comparingLong(k -> -counts.get(k)[0]).thenComparing(order));
    List<K> kept = new ArrayList<>(keys.subList(0, Math.min(limit, keys.size())));
    long hiddenWorkloads = 0;
    for (K k : keys.subList(kept.size(), keys.size())) {
      hiddenWorkloads += counts.get(k)[0];
    }
    kept.sort(order);
    Map<K, Group> groups = new HashMap<>();
    List<Group> shown = new ArrayList<>();
    for (K k : kept) {
      Group g = new Group(label.apply(k));
      groups.put(k, g);
      shown.add(g);
    }
    for (WorkloadRecord w : workloads) {
      Group g = groups.get(key.apply(w));
      if (g != null) {
        add(g, w);
      }
    }
    return new WorkloadGroups(List.copyOf(shown), keys.size() - kept.size(), hiddenWorkloads);
  }

  private static void add(Group g, WorkloadRecord w) {
    g.workloads++;
    if (w.firstQuotaReservedMs() == WorkloadRecord.NEVER) {
      g.neverReserved++;
    } else {
      g.reservation.recordValue(Math.max(0, w.firstQuotaReservedMs() - w.createdMs()));
    }
    if (w.startedMs() != WorkloadRecord.NEVER) {
      g.start.recordValue(Math.max(0, w.startedMs() - w.createdMs()));
    }
    if (w.evictions() > 0) {
      g.evictedWorkloads++;
    }
    g.evictions += w.evictions();
    g.preemptions += w.preemptions();
  }
}
