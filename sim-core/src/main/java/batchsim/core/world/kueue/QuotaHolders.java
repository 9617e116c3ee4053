package batchsim.core.world.kueue;

import batchsim.core.kueue.KueueEngine;
import batchsim.core.kueue.WaitCause;
import batchsim.core.metrics.Recorder;
import batchsim.core.metrics.WaitingStats;
import batchsim.core.model.SimulationSpec;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Who held a quota while a ClusterQueue waited on it: from the moment the first of the queue's workloads waits
 * on "insufficient unused quota for R in flavor F" until the last one stops, every other queue of its cohort
 * tree's usage and borrowing of (F, R), read from the Recorder's exact integrals at both ends (O(cohort tree)
 * per interval, nothing per event).
 */
final class QuotaHolders {
  private final SimulationSpec spec;
  private final KueueEngine kueue;
  private final java.util.function.Supplier<Recorder> recorder;
  private final Map<String, Integer> queueIndex = new HashMap<>();
  /** Per queue, per quota it waits on: the interval now open, and what closed ones added up to. */
  private final Map<String, Map<WaitCause, Open>> open = new HashMap<>();
  private final Map<String, TreeMap<WaitCause, Totals>> closed = new HashMap<>();

  private record Open(long since, int slot, int[] others, double[] usage, double[] borrowed) {}

  private static final class Totals {
    long ms;
    final TreeMap<Integer, double[]> byQueue = new TreeMap<>(); // other queue → {usage, borrowed} × ms
  }

  QuotaHolders(SimulationSpec spec, KueueEngine kueue, java.util.function.Supplier<Recorder> recorder) {
    this.spec = spec;
    this.kueue = kueue;
    this.recorder = recorder;
    for (int q = 0; q < spec.clusterQueues().size(); q++) {
      queueIndex.put(spec.clusterQueues().get(q).name(), q);
    }
  }

  void quotaWait(String queue, WaitCause cause, boolean blocked, long at) {
    Integer q = queueIndex.get(queue);
    int f = flavorIndex(cause.flavor());
    int r = spec.resources().indexOf(cause.resource());
    if (q == null || f < 0 || r < 0) {
      return; // a queue or quota the scenario does not declare: nobody can hold it
    }
    int frs = spec.flavors().size() * spec.resources().size();
    int offset = f * spec.resources().size() + r;
    Map<WaitCause, Open> byCause = open.computeIfAbsent(queue, k -> new HashMap<>());
    if (blocked) {
      int[] others = cohortTreeQueues(queue);
      double[] usage = new double[others.length];
      double[] borrowed = new double[others.length];
      for (int i = 0; i < others.length; i++) {
        usage[i] = recorder.get().quotaUsageIntegral(others[i] * frs + offset, at);
        borrowed[i] = recorder.get().borrowedIntegral(others[i] * frs + offset, at);
      }
      byCause.put(cause, new Open(at, offset, others, usage, borrowed));
    } else {
      close(queue, cause, byCause.remove(cause), at);
    }
  }

  private void close(String queue, WaitCause cause, Open o, long at) {
    if (o == null) {
      return;
    }
    int frs = spec.flavors().size() * spec.resources().size();
    Totals t = closed.computeIfAbsent(queue, k -> new TreeMap<>()).computeIfAbsent(cause, k -> new Totals());
    t.ms += at - o.since();
    for (int i = 0; i < o.others().length; i++) {
      int slot = o.others()[i] * frs + o.slot();
      double[] sum = t.byQueue.computeIfAbsent(o.others()[i], k -> new double[2]);
      sum[0] += recorder.get().quotaUsageIntegral(slot, at) - o.usage()[i];
      sum[1] += recorder.get().borrowedIntegral(slot, at) - o.borrowed()[i];
    }
  }

  /** The queue's quota blocks until {@code end} (open ones close there), in cause order. */
  List<WaitingStats.QuotaBlock> blocks(String queue, long end) {
    Map<WaitCause, Open> byCause = open.getOrDefault(queue, Map.of());
    for (WaitCause c : new TreeMap<>(byCause).keySet()) {
      close(queue, c, byCause.remove(c), end);
    }
    List<WaitingStats.QuotaBlock> out = new ArrayList<>();
    for (var e : closed.getOrDefault(queue, new TreeMap<>()).entrySet()) {
      Totals t = e.getValue();
      if (t.ms <= 0) {
        continue;
      }
      List<WaitingStats.Holder> holders = new ArrayList<>();
      t.byQueue.forEach((q, sum) -> {
        if (sum[0] > 0) {
          holders.add(new WaitingStats.Holder(spec.clusterQueues().get(q).name(), sum[0] / t.ms, sum[1] / t.ms));
        }
      });
      holders.sort(Comparator.comparingDouble(WaitingStats.Holder::meanUsage).reversed());
      out.add(new WaitingStats.QuotaBlock(e.getKey().resource(), e.getKey().flavor(), t.ms, holders));
    }
    return out;
  }

  /** The other queues of the queue's cohort tree now (none when it has no cohort). */
  private int[] cohortTreeQueues(String queue) {
    String root = root(kueue.clusterQueueSpec(queue).cohort());
    if (root == null) {
      return new int[0];
    }
    List<Integer> out = new ArrayList<>();
    for (int q = 0; q < spec.clusterQueues().size(); q++) {
      String name = spec.clusterQueues().get(q).name();
      if (!name.equals(queue) && kueue.clusterQueueExists(name)
          && root.equals(root(kueue.clusterQueueSpec(name).cohort()))) {
        out.add(q);
      }
    }
    return out.stream().mapToInt(Integer::intValue).toArray();
  }

  private String root(String cohort) {
    if (cohort == null || cohort.isEmpty() || !kueue.cohortExists(cohort)) {
      return cohort == null || cohort.isEmpty() ? null : cohort;
    }
    for (String p = kueue.cohortParent(cohort); p != null; p = kueue.cohortParent(cohort)) {
      cohort = p;
    }
    return cohort;
  }

  private int flavorIndex(String name) {
    for (int f = 0; f < spec.flavors().size(); f++) {
      if (spec.flavors().get(f).name().equals(name)) {
        return f;
      }
    }
    return -1;
  }
}
