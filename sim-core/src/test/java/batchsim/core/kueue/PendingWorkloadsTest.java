package batchsim.core.kueue;

import static org.junit.jupiter.api.Assertions.assertEquals;

import batchsim.core.model.WorkloadSpec;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The shape-grouped pending workloads against the plain structures they replace (one heap in queue order,
 * one inadmissible set, one reason per workload written on every move), on random operation sequences: the
 * same heads in the same order, the same sets, counts and reasons after every step.
 */
class PendingWorkloadsTest {
  private Workload sticky;
  /** Admission fair sharing: LocalQueue usage orders first, and buckets are split by LocalQueue. */
  private boolean afs;
  private final Map<String, Double> usage = new HashMap<>();

  private final Comparator<Workload> order = (a, b) -> {
    if (afs) {
      int c = Double.compare(usage.getOrDefault(a.spec.localQueue(), 0.0), usage.getOrDefault(b.spec.localQueue(), 0.0));
      if (c != 0) {
        return c;
      }
    }
    return base(a, b);
  };

  private int base(Workload a, Workload b) {
    if ((a == sticky) != (b == sticky)) {
      return a == sticky ? -1 : 1;
    }
    if (a.priority != b.priority) {
      return a.priority > b.priority ? -1 : 1;
    }
    int c = Long.compare(a.queueTs, b.queueTs);
    return c != 0 ? c : Long.compare(a.seq, b.seq);
  }

  /** The structures before shape grouping, written out one workload at a time. */
  private final class Reference {
    final TreeSet<Workload> heap = new TreeSet<>(order);
    final Set<Workload> parked = new LinkedHashSet<>();
    final Map<Workload, String> reason = new HashMap<>();

    boolean pushActive(Workload w) {
      parked.remove(w);
      return heap.add(w);
    }

    boolean pushInadmissible(Workload w) {
      return !heap.contains(w) && parked.add(w);
    }

    int park(Workload w, String why) {
      List<Workload> same = new ArrayList<>();
      for (Workload m : heap) {
        if (m.shape.equals(w.shape)) {
          same.add(m);
        }
      }
      for (Workload m : same) {
        heap.remove(m);
        parked.add(m);
        reason.put(m, why);
      }
      return same.size();
    }

    int requeue(long now) {
      List<Workload> moved = new ArrayList<>();
      for (Workload m : parked) {
        if (ClusterQueue.backoffExpired(m, now)) {
          moved.add(m);
        }
      }
      moved.forEach(this::pushActive);
      return moved.size();
    }

    void setSticky(Workload w) {
      List<Workload> both = new ArrayList<>();
      for (Workload x : new Workload[] {sticky, w}) {
        if (x != null && heap.remove(x)) {
          both.add(x);
        }
      }
      sticky = w;
      heap.addAll(both);
    }
  }

  @Test
  void randomOperationSequences_matchOneHeapAndOneSet() {
    for (int seed = 0; seed < 200; seed++) {
      run(new Random(seed), false);
    }
  }

  /**
   * Split by LocalQueue and ordered by their usage first (admission fair sharing), with usages changing: the
   * same heads as one heap re-sorted after every change, and shapes parked across LocalQueues.
   */
  @Test
  void byLocalQueueUsage_randomSequences_matchOneHeapResortedOnEveryUsageChange() {
    for (int seed = 0; seed < 200; seed++) {
      run(new Random(seed), true);
    }
  }

  private void run(Random rnd, boolean byUsage) {
    sticky = null;
    afs = byUsage;
    usage.clear();
    Reference ref = new Reference();
    PendingWorkloads pw = new PendingWorkloads(order, this::base);
    if (byUsage) {
      pw.splitByLocalQueue();
    }
    List<Workload> all = new ArrayList<>();
    int shapes = 1 + rnd.nextInt(4);
    for (int i = 0; i < 40; i++) {
      WorkloadSpec spec = new WorkloadSpec("w" + i, null, "ns/lq" + rnd.nextInt(3), 0, 0, null, List.of(), 0, 0);
      Workload w = new Workload(spec, i, null, null, rnd.nextInt(shapes), 0);
      w.queueTs = rnd.nextInt(10);
      all.add(w);
    }
    long now = 0;
    for (int step = 0; step < 400; step++) {
      Workload w = all.get(rnd.nextInt(all.size()));
      String where = "step " + step + " on " + w.id();
      if (byUsage && rnd.nextInt(6) == 0) { // a LocalQueue's usage changes (penalty, settlement, sample)
        String lq = "ns/lq" + rnd.nextInt(3);
        double u = rnd.nextInt(4);
        pw.reorderLocalQueue(lq, () -> {
          List<Workload> heap = new ArrayList<>(ref.heap);
          ref.heap.clear();
          usage.put(lq, u);
          ref.heap.addAll(heap);
        });
      }
      switch (rnd.nextInt(9)) {
        case 0, 1 -> assertEquals(ref.pushActive(w), pw.pushActive(w), where);
        case 2 -> {
          if (!w.queued() && rnd.nextInt(4) == 0) { // an eviction's backoff, set outside the queues
            w.requeueHeld = true;
            w.requeueAtMs = now + rnd.nextInt(5);
          }
          assertEquals(ref.pushInadmissible(w), pw.pushInadmissible(w), where);
        }
        case 3 -> assertEquals(ref.park(w, "park " + step), pw.parkShape(w, "park " + step, "m" + step, null), where);
        case 4 -> {
          now++;
          for (Workload x : all) {
            if (x.requeueHeld && now >= x.requeueAtMs) { // the backoff expired (Kueue BackoffFinished)
              x.requeueHeld = false;
            }
          }
          assertEquals(ref.requeue(now), pw.requeueParked(now), where);
        }
        case 5 -> {
          Workload head = ref.heap.isEmpty() ? null : ref.heap.first();
          if (head != null) {
            ref.heap.remove(head);
          }
          assertEquals(head, pw.pollFirst(), where);
        }
        case 6 -> {
          ref.heap.remove(w);
          ref.parked.remove(w);
          pw.forget(w);
        }
        case 7 -> {
          Workload s = rnd.nextBoolean() ? w : null;
          Workload old = sticky;
          if (old != s) {
            pw.reorder(old, s, () -> ref.setSticky(s));
          }
        }
        default -> {
          ref.reason.put(w, "own " + step);
          w.setPending("own " + step, "m");
        }
      }
      assertEquals(new ArrayList<>(ref.heap), pw.activeInOrder(), where);
      List<Workload> parked = new ArrayList<>(ref.parked);
      parked.sort(order);
      assertEquals(parked, pw.parkedInOrder(), where);
      assertEquals(ref.heap.size(), pw.activeCount(), where);
      assertEquals(ref.parked.size(), pw.parkedCount(), where);
      for (Workload x : all) {
        assertEquals(ref.reason.getOrDefault(x, ""), x.pendingReason(), where + ": reason of " + x.id());
        assertEquals(ref.heap.contains(x) || ref.parked.contains(x) ? 1 : 0, pw.places(x), where);
      }
    }
  }
}
