package batchsim.core.kueue;

import batchsim.core.kueue.Assignment.PodSetAssignment;
import batchsim.core.model.ClusterQueueSpec;
import batchsim.core.model.FlavorFungibility;
import batchsim.core.model.KueueConfig;
import batchsim.core.model.PodSetSpec;
import batchsim.core.model.PreemptionSpec;
import batchsim.core.model.QueueingStrategy;
import batchsim.core.model.ResourceFlavorSpec;
import batchsim.core.model.ResourceSpace;
import batchsim.core.model.WorkloadSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Test support: runs single pieces of the engine (flavor assignment, the in-cycle iterator order, a
 * requeue, preemption target selection) the way Kueue's unit tests call them, and returns plain values.
 * The conformance runner replays Kueue's own test expectations through these methods. Nothing here changes
 * the engine's behaviour; it only reaches the package-private parts without making them public.
 */
public final class KueueProbe {
  private KueueProbe() {}

  /**
   * Adds usage to a ClusterQueue as if a workload held it; the part above its local quota goes up the
   * cohort tree as usual (Kueue tests inject usage into the snapshot the same way).
   */
  public static void addUsage(KueueEngine engine, String clusterQueue, String flavor, String resource, long amount) {
    ClusterQueue q = queue(engine, clusterQueue);
    q.addUsage(fr(engine, flavor, resource), amount);
  }

  // ---------------------------------------------------------------- flavor assignment

  /**
   * The flavor assigner's answer. {@code flavors} maps podSet name → resource → chosen flavor (resources
   * with no flavor are absent); {@code message} is Kueue's Assignment.Message.
   */
  public record FlavorAssignment(AssignmentMode mode, int borrowing, Map<String, Map<String, String>> flavors,
      List<Integer> counts, String noFitReason, String message) {}

  /** Kueue FlavorAssigner.Assign for a workload against a ClusterQueue in its current state. */
  public static FlavorAssignment assignFlavors(KueueEngine engine, String clusterQueue, WorkloadSpec spec,
      int priority, String uid) {
    ClusterQueue q = queue(engine, clusterQueue);
    Workload w = new Workload(spec, -1, uid, q, priority, spec.createdMs());
    Assignment a = engine.assigner.assign(w, q, null);
    Map<String, Map<String, String>> flavors = new LinkedHashMap<>();
    List<Integer> counts = new ArrayList<>();
    for (PodSetAssignment ps : a.podSets) {
      Map<String, String> m = new TreeMap<>();
      for (int r = 0; r < ps.flavor.length; r++) {
        if (ps.flavor[r] >= 0) {
          m.put(engine.index.resources().name(r), engine.index.flavorName(ps.flavor[r]));
        }
      }
      flavors.put(ps.name, m);
      counts.add(ps.count);
    }
    return new FlavorAssignment(a.representativeMode(), a.borrowing, flavors, counts, a.noFitReason, a.message());
  }

  // ---------------------------------------------------------------- iterator order

  /**
   * One entry of a scheduling cycle for the iterator: its assignment's borrowing height, priority, creation
   * time, and (optionally) an Evicted condition with its reason and time.
   */
  public record OrderEntry(String id, int borrowing, int priority, long createdMs, String evictionReason,
      long evictedAtMs) {}

  /** The order in which Kueue's classical in-cycle iterator returns the entries (makeClassicalIterator). */
  public static List<String> classicalOrder(KueueConfig config, List<OrderEntry> entries) {
    KueueEngine engine = singleQueueEngine(config, QueueingStrategy.BEST_EFFORT_FIFO);
    ClusterQueue q = engine.tree.queues.get(0);
    List<Scheduler.Entry> list = new ArrayList<>();
    long seq = 0;
    for (OrderEntry oe : entries) {
      WorkloadSpec spec = new WorkloadSpec(oe.id(), null, null, oe.createdMs(), oe.priority(), null, List.of(), 0);
      Workload w = new Workload(spec, seq++, null, q, oe.priority(), oe.createdMs());
      if (oe.evictionReason() != null) {
        w.evictionReason = oe.evictionReason();
        w.evictedAtMs = oe.evictedAtMs();
        w.setCondition(ConditionType.EVICTED, true, oe.evictionReason(), "", oe.evictedAtMs());
      }
      Scheduler.Entry e = new Scheduler.Entry(w);
      e.assignment = new Assignment();
      e.assignment.borrowing = oe.borrowing();
      list.add(e);
    }
    List<String> out = new ArrayList<>();
    for (Scheduler.Entry e : engine.scheduler.ordering.classicalOrder(list)) {
      out.add(e.w.id());
    }
    return out;
  }

  // ---------------------------------------------------------------- requeue

  /**
   * Where a requeued workload went: {@code added} is RequeueIfNotPresent's result, {@code inadmissible}
   * whether it was parked, {@code stickyHead} whether it became the queue's sticky head, and
   * {@code addedAgain} the result of requeueing it a second time.
   */
  public record RequeueOutcome(boolean added, boolean inadmissible, boolean stickyHead, boolean addedAgain) {}

  /**
   * Requeues a workload that is not in the queue into a fresh ClusterQueue, as Kueue's
   * Test{BestEffort,Strict}FIFORequeueIfNotPresent do.
   *
   * @param lastScanPendingFlavors null = no recorded last assignment; true = the last flavor scan stopped
   *     before the last flavor; false = it reached the last flavor for every resource
   */
  public static RequeueOutcome requeue(QueueingStrategy strategy, RequeueReason reason,
      Boolean lastScanPendingFlavors) {
    KueueEngine engine = singleQueueEngine(KueueConfig.defaults(), strategy);
    ClusterQueue q = engine.tree.queues.get(0);
    WorkloadSpec spec = new WorkloadSpec("default/workload-1", null, null, 0, 0, null, List.of(), 0);
    Workload w = new Workload(spec, 0, null, q, 0, 0);
    if (lastScanPendingFlavors != null) {
      int[][] tried = {{-1, lastScanPendingFlavors ? 0 : -1}, {-1, -1}};
      w.lastAssignment = new LastAssignment(tried, q.generation, engine.cycle);
    }
    boolean added = q.requeueIfNotPresent(w, reason, engine.now());
    boolean inadmissible = w.inadmissible();
    boolean sticky = q.sticky == w;
    boolean addedAgain = q.requeueIfNotPresent(w, reason, engine.now());
    return new RequeueOutcome(added, inadmissible, sticky, addedAgain);
  }

  // ---------------------------------------------------------------- preemption

  /** The flavor chosen for one resource of a podSet, and whether that flavor-resource needs preemption. */
  public record ResourceChoice(String flavor, boolean preempt) {}

  /**
   * Kueue Preemptor.GetTargets for a workload in a ClusterQueue with the given assignment: podSet index →
   * resource name → choice. Returns victim id → Preempted reason, in target order. Issues nothing.
   */
  public static Map<String, String> preemptionTargets(KueueEngine engine, String clusterQueue, WorkloadSpec spec,
      int priority, String uid, List<Map<String, ResourceChoice>> assignment) {
    ClusterQueue q = queue(engine, clusterQueue);
    Workload w = new Workload(spec, -1, uid, q, priority, spec.createdMs());
    ResourceSpace res = engine.index.resources();
    TreeMap<Integer, Long> usage = new TreeMap<>();
    TreeSet<Integer> preempt = new TreeSet<>();
    for (int i = 0; i < spec.podSets().size(); i++) {
      PodSetSpec ps = spec.podSets().get(i);
      Map<String, ResourceChoice> choices = i < assignment.size() ? assignment.get(i) : Map.of();
      long[] req = FlavorAssigner.requests(ps, ps.count(), q, res.size());
      for (Map.Entry<String, ResourceChoice> c : choices.entrySet()) {
        int r = res.require(c.getKey());
        int fr = fr(engine, c.getValue().flavor(), c.getKey());
        if (req[r] > 0) {
          usage.merge(fr, req[r], Long::sum);
        }
        if (c.getValue().preempt()) {
          preempt.add(fr);
        }
      }
    }
    List<Target> targets = engine.preemptor.getTargets(w, q,
        preempt.stream().mapToInt(Integer::intValue).toArray(), FrAmounts.of(usage));
    Map<String, String> out = new LinkedHashMap<>();
    for (Target t : targets) {
      out.put(t.workload().id(), t.reason());
    }
    return out;
  }

  // ---------------------------------------------------------------- helpers

  private static ClusterQueue queue(KueueEngine engine, String name) {
    ClusterQueue q = engine.tree.queuesByName.get(name);
    if (q == null) {
      throw new IllegalArgumentException("unknown ClusterQueue " + name);
    }
    return q;
  }

  private static int fr(KueueEngine engine, String flavor, String resource) {
    int f = engine.index.flavorIndex(flavor);
    if (f < 0) {
      throw new IllegalArgumentException("unknown flavor " + flavor);
    }
    return engine.index.fr(f, engine.index.resources().require(resource));
  }

  private static KueueEngine singleQueueEngine(KueueConfig config, QueueingStrategy strategy) {
    ClusterQueueSpec cq = new ClusterQueueSpec("cq", null, List.of(), strategy, PreemptionSpec.NEVER,
        FlavorFungibility.DEFAULT, 1.0, List.of());
    ResourceSpace res = ResourceSpace.of(List.of(ResourceSpace.CPU, ResourceSpace.MEMORY));
    return new KueueEngine(config, res, List.of(ResourceFlavorSpec.plain("default")), List.of(), List.of(cq),
        () -> 0L);
  }
}
