package batchsim.core.world.volcano;

import batchsim.core.metrics.QueueUsageStat;
import batchsim.core.metrics.Recorder;
import batchsim.core.model.ResourceSpace;
import batchsim.core.volcano.VolcanoQueueSpec;
import batchsim.core.volcano.VolcanoSetup;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The Volcano queues as a run reports them. Workload statistics are kept per <b>leaf</b> queue (the queues
 * workloads go to), in declaration order. Usage is kept per declared queue and resource: what bound pods of
 * the queue's subtree request (with hierarchical queues a pod counts at its leaf and every declared ancestor,
 * as the capacity plugin accounts it), against the queue's configured {@code deserved} as the "nominal" —
 * BORROWED is then the mean above deserved, what reclaim may take back.
 */
final class VolcanoQueues {
  static final String ROOT = "root";
  /** The flavor column of usage rows: Volcano queues are not split by ResourceFlavor. */
  static final String ALL_FLAVORS = "*";

  private final ResourceSpace resources;
  private final int nRes;
  private final List<String> leaves = new ArrayList<>();
  private final Map<String, Integer> leafIndex = new HashMap<>();
  private final List<VolcanoQueueSpec> usageQueues = new ArrayList<>();
  /** Per target queue, the usage rows a pod there counts in (itself and its declared ancestors). */
  private final Map<String, int[]> chains = new HashMap<>();
  private final long[] level;
  private final long[] nominal;
  /** The queue sets deserved, capability or guarantee for the resource. */
  private final boolean[] configured;

  /** @param created queues the timeline creates later: they get rows too (after the declared ones) */
  VolcanoQueues(VolcanoSetup setup, ResourceSpace resources, List<VolcanoQueueSpec> created) {
    this.resources = resources;
    this.nRes = resources.size();
    boolean hierarchical = setup.config().hierarchical();
    Map<String, String> parent = new HashMap<>();
    Set<String> parents = new HashSet<>();
    List<VolcanoQueueSpec> all = new ArrayList<>(setup.queues());
    Set<String> names = new HashSet<>();
    setup.queues().forEach(q -> names.add(q.name()));
    for (VolcanoQueueSpec q : created) {
      if (names.add(q.name())) {
        all.add(q);
      }
    }
    for (VolcanoQueueSpec q : all) {
      String p = q.name().equals(ROOT) ? null : q.parent() == null || q.parent().isEmpty() ? ROOT : q.parent();
      parent.put(q.name(), p);
      if (hierarchical && p != null) {
        parents.add(p);
      }
    }
    Map<String, Integer> usageIndex = new HashMap<>();
    for (VolcanoQueueSpec q : all) {
      if (q.name().equals(ROOT)) {
        continue;
      }
      usageIndex.put(q.name(), usageQueues.size());
      usageQueues.add(q);
      if (!parents.contains(q.name())) {
        addLeaf(q.name());
      }
    }
    for (String target : new TreeSet<>(setup.queueFor().values())) {
      addLeaf(target); // e.g. Volcano's auto-created "default"
    }
    this.level = new long[usageQueues.size() * nRes];
    this.nominal = new long[level.length];
    this.configured = new boolean[level.length];
    for (int i = 0; i < usageQueues.size(); i++) {
      VolcanoQueueSpec q = usageQueues.get(i);
      for (int r = 0; r < nRes; r++) {
        String name = resources.name(r);
        nominal[i * nRes + r] = q.deserved().get(name);
        configured[i * nRes + r] = q.deserved().has(name) || q.capability().has(name) || q.guarantee().has(name);
      }
    }
    for (String leaf : leaves) {
      List<Integer> chain = new ArrayList<>();
      Set<String> seen = new HashSet<>();
      for (String q = leaf; q != null && seen.add(q); q = hierarchical ? parent.get(q) : null) {
        Integer i = usageIndex.get(q);
        if (i != null) {
          chain.add(i);
        }
      }
      chains.put(leaf, chain.stream().mapToInt(Integer::intValue).toArray());
    }
  }

  private void addLeaf(String name) {
    if (!leafIndex.containsKey(name)) {
      leafIndex.put(name, leaves.size());
      leaves.add(name);
    }
  }

  /** The leaf queues, in the order their statistics are reported. */
  List<String> leaves() {
    return List.copyOf(leaves);
  }

  int leaf(String queue) {
    Integer i = leafIndex.get(queue);
    if (i == null) {
      throw new IllegalArgumentException("no reported queue " + queue);
    }
    return i;
  }

  int usageSlots() {
    return level.length;
  }

  /** A pod of {@code queue} was bound (+1) or left its node (-1). */
  void usage(Recorder recorder, String queue, long[] request, int sign, long now) {
    for (int i : chains.get(queue)) {
      for (int r = 0; r < nRes; r++) {
        if (request[r] != 0) {
          int slot = i * nRes + r;
          level[slot] += sign * request[r];
          recorder.quotaUsage(slot, sign * request[r], nominal[slot], now);
        }
      }
    }
  }

  /**
   * Rows for the resources a queue configures; a queue that configures none shows what it used (but pods).
   */
  private boolean shown(Recorder recorder, int slot) {
    int q = slot / nRes;
    boolean any = false;
    for (int r = 0; r < nRes; r++) {
      any |= configured[q * nRes + r];
    }
    return any ? configured[slot]
        : recorder.peakQuotaUsage(slot) > 0 && !resources.name(slot % nRes).equals(ResourceSpace.PODS);
  }

  List<QueueUsageStat> usageStats(Recorder recorder, long end) {
    List<QueueUsageStat> out = new ArrayList<>();
    for (int slot = 0; slot < level.length; slot++) {
      if (!shown(recorder, slot)) {
        continue;
      }
      double mean = recorder.meanQuotaUsage(slot, end);
      long nom = nominal[slot];
      double ratio = nom == 0 ? (mean == 0 ? Double.NaN : Double.POSITIVE_INFINITY) : mean / nom;
      out.add(new QueueUsageStat(usageQueues.get(slot / nRes).name(), ALL_FLAVORS, resources.name(slot % nRes), nom,
          mean, ratio, recorder.meanBorrowed(slot, end), recorder.peakQuotaUsage(slot)));
    }
    return out;
  }

  /** The usage slots sampled over time: every slot with a configured amount. */
  List<Integer> sampledSlots() {
    List<Integer> out = new ArrayList<>();
    for (int slot = 0; slot < level.length; slot++) {
      if (configured[slot]) {
        out.add(slot);
      }
    }
    return out;
  }

  String slotLabel(int slot) {
    return usageQueues.get(slot / nRes).name() + ":" + ALL_FLAVORS + ":" + resources.name(slot % nRes);
  }

  long level(int slot) {
    return level[slot];
  }

  long nominal(int slot) {
    return nominal[slot];
  }
}
