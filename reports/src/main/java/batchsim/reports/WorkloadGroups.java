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
 * the per-workload records as they stream out of the run. Only the {@code limit} largest groups are shown,
 * so a trace with thousands of distinct priorities does not bloat the page.
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
    return of(workloads, Tally.byPriority(), limit);
  }

  static WorkloadGroups byClass(List<WorkloadRecord> workloads, int limit) {
    return of(workloads, Tally.byClass(), limit);
  }

  private static WorkloadGroups of(List<WorkloadRecord> workloads, Tally<?> tally, int limit) {
    for (WorkloadRecord w : workloads) {
      tally.add(w);
    }
    return tally.groups(limit);
  }

  /**
   * Groups filled one record at a time, as records stream out of a run: every key gets its figures (memory
   * grows with the number of distinct keys, never with the number of workloads), and {@link #groups} keeps
   * the {@code limit} largest.
   */
  static final class Tally<K> {
    private final Function<WorkloadRecord, K> key;
    private final Comparator<K> order;
    private final Function<K, String> label;
    private final Map<K, Group> groups = new HashMap<>();

    private Tally(Function<WorkloadRecord, K> key, Comparator<K> order, Function<K, String> label) {
      this.key = key;
      this.order = order;
      this.label = label;
    }

    static Tally<Integer> byPriority() {
      return new Tally<>(WorkloadRecord::priority, Comparator.<Integer>reverseOrder(), p -> "priority " + p);
    }

    static Tally<String> byClass() {
      return new Tally<>(w -> w.workloadClass() == null || w.workloadClass().isEmpty()
          ? "(no class)" : w.workloadClass(), Comparator.<String>naturalOrder(), c -> c);
    }

    void add(WorkloadRecord w) {
      WorkloadGroups.add(groups.computeIfAbsent(key.apply(w), k -> new Group(label.apply(k))), w);
    }

    /** The {@code limit} largest groups (ties by key order), shown in key order; the rest summed up. */
    WorkloadGroups groups(int limit) {
      List<K> keys = new ArrayList<>(groups.keySet());
      keys.sort(Comparator.<K>comparingLong(k -> -groups.get(k).workloads).thenComparing(order));
      List<K> kept = new ArrayList<>(keys.subList(0, Math.min(limit, keys.size())));
      long hiddenWorkloads = 0;
      for (K k : keys.subList(kept.size(), keys.size())) {
        hiddenWorkloads += groups.get(k).workloads;
      }
      kept.sort(order);
      List<Group> shown = new ArrayList<>();
      for (K k : kept) {
        shown.add(groups.get(k));
      }
      return new WorkloadGroups(List.copyOf(shown), keys.size() - kept.size(), hiddenWorkloads);
    }
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
