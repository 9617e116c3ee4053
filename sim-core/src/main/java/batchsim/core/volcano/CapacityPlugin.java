package batchsim.core.volcano;

import static batchsim.core.volcano.CapacityQueueAttrs.ancestorAtDepth;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Volcano's capacity plugin (plugins/capacity/capacity.go): user-set {@code deserved} as a soft share (queue
 * order and reclaim), {@code realCapability} as the hard cap of enqueue and allocation, {@code guarantee} as a
 * reclaim floor. With {@code enableHierarchy} the queues form a tree under {@code root}: unset capability
 * dimensions are inherited from the parent, realCapability is cut down level by level by the siblings'
 * guarantees, and every job's accounting is added to its leaf and all ancestors ({@link CapacityQueueAttrs}).
 * This class holds the plugin's decisions: the enqueue vote, the allocatable and preemptive gates and the
 * reclaim victims.
 */
final class CapacityPlugin implements Plugin {
  static final String NAME = "capacity";

  private final boolean hierarchy;
  private final int ancestorReclaimLevel;
  private CapacityQueueAttrs attrs;
  private Dims dims;
  private boolean ready = true;
  private Session ssn;

  CapacityPlugin(PluginSpec spec) {
    this.hierarchy = spec.hierarchy();
    String level = spec.argument("ancestorReclaimLevel");
    try {
      // Volcano falls back to 0 for a negative level.
      this.ancestorReclaimLevel = level == null ? 0 : Math.max(0, Integer.parseInt(level.trim()));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("capacity: ancestorReclaimLevel '" + level + "' is not an integer");
    }
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void onSessionOpen(Session ssn) {
    this.ssn = ssn;
    dims = ssn.dims;
    attrs = new CapacityQueueAttrs(ssn, hierarchy);
    if (hierarchy) {
      ready = attrs.buildHierarchical(ssn);
      if (ready) {
        ssn.plugins.addQueueOrderFn(NAME, attrs::compareHierarchical);
        ssn.plugins.addVictimQueueOrderFn(NAME, attrs::compareVictimQueues);
      }
    } else {
      attrs.buildFlat(ssn);
      ssn.plugins.addQueueOrderFn(NAME, attrs::compareFlat);
    }
    ssn.plugins.addReclaimableFn(NAME, this::reclaimable);
    ssn.plugins.addPreemptiveFn(NAME, this::preemptive);
    ssn.plugins.addAllocatableFn(NAME, this::allocatable);
    ssn.plugins.addJobEnqueueableFn(NAME, job -> enqueueable(ssn, job));
    ssn.plugins.addJobEnqueuedFn(NAME, attrs::enqueued);
    ssn.plugins.addEventHandler(new EventHandler(t -> attrs.account(t, 1), t -> attrs.account(t, -1)));
  }

  // ------------------------------------------------------------------ enqueue

  private int enqueueable(Session ssn, JobInfo job) {
    if (!ready) {
      return REJECT;
    }
    QueueAttr attr = attrs.attr(job.queue);
    if (attr == null || (hierarchy && !attr.isLeaf())) {
      return REJECT;
    }
    if (!job.queue.isOpen()) {
      return REJECT;
    }
    if (!job.hasMinResources()) {
      return PERMIT;
    }
    // Volcano: enqueue checks every ancestor, leaf first (PR #4119).
    for (int i = attr.ancestors.size(); i >= 0; i--) {
      QueueAttr q = i == attr.ancestors.size() ? attr : attr.ancestors.get(i);
      Res min = job.minResources();
      Res r = min.copy().add(q.allocated).add(q.inqueue).sub(q.elastic);
      if (!r.lessEqualWithDimension(q.realCapability, min, dims.pods)) {
        Res cap = q.realCapability;
        ssn.enqueueRejections.put(job, () -> "queue resource quota insufficient in " + q.name + ": "
            + r.exceededDimensions(cap, min, dims) + " (would use " + dims.format(r) + " of " + dims.format(cap) + ")");
        return REJECT;
      }
    }
    return PERMIT;
  }

  // ------------------------------------------------------------------ allocate

  private boolean allocatable(Queue queue, TaskInfo candidate) {
    if (!queue.isOpen() || !ready) {
      return false;
    }
    QueueAttr attr = attrs.attr(queue);
    if (attr == null || (hierarchy && !attr.isLeaf())) {
      return false;
    }
    // Volcano: the leaf and every ancestor (issue #3932, PR #3940); inqueue is not part of this check.
    for (int i = attr.ancestors.size(); i >= 0; i--) {
      QueueAttr q = i == attr.ancestors.size() ? attr : attr.ancestors.get(i);
      Res future = q.allocated.copy().add(candidate.resreq);
      if (!future.lessEqualWithDimension(q.realCapability, candidate.resreq, dims.pods)) {
        return false;
      }
    }
    return true;
  }

  // ------------------------------------------------------------------ reclaim

  /**
   * Preemptive (reclaim gate): the leaf's realCapability holds the request (leaf only, issue #5048), and the
   * leaf stays within its deserved on at least one requested dimension — or, with ancestorReclaimLevel, one
   * of its non-root ancestors up to that depth does.
   */
  private boolean preemptive(Queue queue, List<TaskInfo> candidates) {
    if (!ready || !queue.isOpen()) {
      return false;
    }
    QueueAttr attr = attrs.attr(queue);
    if (attr == null) {
      return false;
    }
    Res total = new Res(dims.size());
    for (TaskInfo t : candidates) {
      total.add(t.resreq);
    }
    Res future = attr.allocated.copy().add(total);
    if (!future.lessEqualWithDimension(attr.realCapability, total, dims.pods)) {
      return false;
    }
    if (future.lessEqualPartlyWithDimensionZeroFiltered(attr.deserved, total, dims.pods)) {
      return true;
    }
    if (hierarchy && ancestorReclaimLevel > 0) {
      for (int level = 1; level <= ancestorReclaimLevel; level++) {
        QueueAttr a = ancestorAtDepth(attr, level);
        if (a == null || a.name.equals(Queue.ROOT)) {
          continue;
        }
        Res fa = a.allocated.copy().add(total);
        if (fa.lessEqualPartlyWithDimensionZeroFiltered(a.deserved, total, dims.pods)) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * Reclaimable: in victim order, a task of another queue is a victim if it shares a requested dimension with
   * the reclaimer, taking it keeps its queue at or above guarantee, and its queue either has no deserved on the
   * task's dimensions (immediate victim) or is above its deserved on one of them; with ancestorReclaimLevel
   * the victim's differing non-root ancestors up to that depth must be over their deserved too (PR #5115).
   */
  private Victims reclaimable(TaskInfo reclaimer, List<TaskInfo> reclaimees) {
    List<TaskInfo> victims = new ArrayList<>();
    if (!ready) {
      return new Victims(victims, REJECT);
    }
    QueueAttr reclaimerAttr = attrs.attr(reclaimer.job.queue);
    if (reclaimerAttr == null) {
      return new Victims(victims, REJECT);
    }
    Map<QueueAttr, Res> allocations = new HashMap<>();
    GoHeap<TaskInfo> order = ssn.victimsQueue(reclaimees, reclaimer);
    while (!order.isEmpty()) {
      TaskInfo reclaimee = order.pop();
      QueueAttr attr = attrs.attr(reclaimee.job.queue);
      if (attr == null) {
        continue;
      }
      if (!Res.intersects(reclaimee.resreq, reclaimer.resreq, dims.pods, true)) {
        continue;
      }
      Res allocated = allocations.computeIfAbsent(attr, a -> a.allocated.copy());
      Map<QueueAttr, Res> ancestorAllocations = new LinkedHashMap<>();
      if (!attr.guarantee.lessEqual(allocated.copy().sub(reclaimee.resreq), false)) {
        continue;
      }
      boolean eligible = false;
      if (!Res.intersects(reclaimee.resreq, attr.deserved, dims.pods, false)) {
        if (hierarchy && ancestorReclaimLevel > 0 && sharesNonRootAncestor(reclaimerAttr, attr)
            && !Res.intersects(reclaimer.resreq, reclaimerAttr.deserved, dims.pods, false)) {
          continue; // both leaves lack deserved under a shared ancestor: no real contention
        }
        eligible = true;
      } else if (allocated.greaterPartlyWithRelevantDimensions(attr.deserved, reclaimee.resreq, dims.pods)) {
        eligible = true;
      }
      if (!eligible) {
        continue;
      }
      boolean ancestorsEligible = true;
      if (hierarchy && ancestorReclaimLevel > 0) {
        for (int level = 1; level <= ancestorReclaimLevel; level++) {
          QueueAttr va = ancestorAtDepth(attr, level);
          if (va == null || va.name.equals(Queue.ROOT)) {
            continue;
          }
          if (ancestorAtDepth(reclaimerAttr, level) == va) {
            continue;
          }
          Res aa = allocations.computeIfAbsent(va, a -> a.allocated.copy());
          ancestorAllocations.put(va, aa);
          if (!Res.intersects(reclaimee.resreq, va.deserved, dims.pods, false)) {
            continue;
          }
          if (!aa.greaterPartlyWithRelevantDimensions(va.deserved, reclaimee.resreq, dims.pods)) {
            ancestorsEligible = false;
            break;
          }
        }
      }
      if (!ancestorsEligible) {
        continue;
      }
      allocated.sub(reclaimee.resreq);
      for (Res aa : ancestorAllocations.values()) {
        aa.sub(reclaimee.resreq);
      }
      victims.add(reclaimee);
    }
    return new Victims(victims, PERMIT);
  }

  private boolean sharesNonRootAncestor(QueueAttr a, QueueAttr b) {
    Set<QueueAttr> as = new HashSet<>();
    for (int level = 1; level <= ancestorReclaimLevel; level++) {
      QueueAttr x = ancestorAtDepth(a, level);
      if (x != null) {
        as.add(x);
      }
    }
    for (int level = 1; level <= ancestorReclaimLevel; level++) {
      QueueAttr y = ancestorAtDepth(b, level);
      if (y != null && !y.name.equals(Queue.ROOT) && as.contains(y)) {
        return true;
      }
    }
    return false;
  }
}
