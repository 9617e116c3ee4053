package batchsim.core.volcano;

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
 * guarantees, and every job's accounting is added to its leaf and all ancestors.
 */
final class CapacityPlugin implements Plugin {
  static final String NAME = "capacity";

  private final boolean hierarchy;
  private final int ancestorReclaimLevel;
  private final Map<Queue, QueueAttr> attrs = new LinkedHashMap<>();
  private Res totalResource;
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

  /** The attributes of a queue this session (null when the plugin built none for it). */
  QueueAttr attr(Queue q) {
    return attrs.get(q);
  }

  @Override
  public void onSessionOpen(Session ssn) {
    this.ssn = ssn;
    dims = ssn.dims;
    totalResource = ssn.totalResource.copy();
    if (hierarchy) {
      ready = buildHierarchical(ssn);
    } else {
      buildFlat(ssn);
    }
    ssn.plugins.addReclaimableFn(NAME, this::reclaimable);
    ssn.plugins.addPreemptiveFn(NAME, this::preemptive);
    ssn.plugins.addAllocatableFn(NAME, this::allocatable);
    ssn.plugins.addJobEnqueueableFn(NAME, job -> enqueueable(ssn, job));
    ssn.plugins.addJobEnqueuedFn(NAME, this::enqueued);
    ssn.plugins.addEventHandler(new EventHandler(t -> account(t, 1), t -> account(t, -1)));
  }

  // ------------------------------------------------------------------ flat mode (buildQueueAttrs)

  private void buildFlat(Session ssn) {
    Res totalGuarantee = QueueAttr.totalGuarantee(ssn.queues, dims);
    for (JobInfo job : ssn.jobs) {
      QueueAttr attr = attrs.get(job.queue);
      if (attr == null) {
        attr = new QueueAttr(job.queue, dims.size());
        attr.deserved = dims.fromList(job.queue.spec.deserved());
        attr.setFlatLimits(dims, totalResource, totalGuarantee);
        attrs.put(job.queue, attr);
      }
      attr.accumulate(job, dims);
    }
    for (QueueAttr attr : attrs.values()) {
      attr.deserved.minDimension(attr.realCapability, true);
      attr.deserved = Res.max(attr.deserved, attr.guarantee);
      updateShare(attr);
    }
    ssn.plugins.addQueueOrderFn(NAME, (l, r) -> {
      if (l.spec.priority() != r.spec.priority()) {
        return r.spec.priority() - l.spec.priority();
      }
      return compareShareWithDeserved(attrs.get(l), attrs.get(r));
    });
  }

  // ------------------------------------------------------------------ hierarchical mode

  private QueueAttr newAttr(Queue q) {
    QueueAttr attr = new QueueAttr(q, dims.size());
    attr.deserved = dims.fromList(q.spec.deserved());
    attr.capability = q.spec.capability().isEmpty() ? new Res(dims.size()) : dims.fromList(q.spec.capability());
    if (!q.spec.guarantee().isEmpty()) {
      attr.guarantee = dims.fromList(q.spec.guarantee());
    }
    attr.realCapability = new Res(dims.size());
    return attr;
  }

  /** Links a queue to its parent (creating the parent's attributes); false on a cycle or unknown parent. */
  private boolean updateAncestors(Session ssn, Queue q, Set<Queue> visiting) {
    if (q.name.equals(Queue.ROOT)) {
      return true;
    }
    if (!visiting.add(q)) {
      return false; // cycle in the queue hierarchy
    }
    try {
      Queue parent = ssn.queuesByName.get(q.parentName());
      if (parent == null) {
        return false; // the queue names a parent that does not exist
      }
      if (!attrs.containsKey(parent)) {
        attrs.put(parent, newAttr(parent));
        if (!updateAncestors(ssn, parent, visiting)) {
          return false;
        }
      }
      QueueAttr p = attrs.get(parent);
      p.children.add(attrs.get(q));
      List<QueueAttr> anc = new ArrayList<>(p.ancestors);
      anc.add(p);
      attrs.get(q).ancestors = anc;
      return true;
    } finally {
      visiting.remove(q);
    }
  }

  /**
   * buildHierarchicalQueueAttrs: false makes the plugin "not ready" for the session (a cycle, an unknown
   * parent, a job in a queue with children, no root), and then every enqueue, allocate and reclaim vote
   * rejects.
   */
  private boolean buildHierarchical(Session ssn) {
    for (Queue q : ssn.queues) {
      if (attrs.containsKey(q)) {
        continue;
      }
      attrs.put(q, newAttr(q));
      if (!updateAncestors(ssn, q, new HashSet<>())) {
        return false;
      }
    }
    for (JobInfo job : ssn.jobs) {
      QueueAttr attr = attrs.get(job.queue);
      if (attr == null) {
        continue;
      }
      if (!attr.isLeaf()) {
        return false; // Volcano: jobs must sit in leaf queues
      }
      Res[] delta = attr.accumulate(job, dims);
      for (QueueAttr a : attr.ancestors) {
        a.allocated.add(delta[0]);
        a.request.add(delta[1]);
        a.inqueue.add(delta[2]);
        a.elastic.add(delta[3]);
      }
    }
    QueueAttr root = attrs.get(ssn.queuesByName.get(Queue.ROOT));
    if (root == null) {
      return false;
    }
    // Root is unbounded unless its capability is set: cpu/memory MaxFloat64, every cluster scalar MaxInt64.
    Res infinity = Res.infinite(dims.size());
    for (int i = 2; i < dims.size(); i++) {
      if (totalResource.has(i)) {
        infinity.setScalar(i, Res.INFINITE_SCALAR);
      }
    }
    if (root.capability.isEmpty(dims.pods)) {
      root.capability = infinity;
    }
    root.realCapability = root.capability;
    checkHierarchicalQueue(root);
    for (QueueAttr attr : attrs.values()) {
      updateShare(attr);
    }
    ssn.plugins.addQueueOrderFn(NAME, (l, r) -> {
      if (l.spec.priority() != r.spec.priority()) {
        return r.spec.priority() - l.spec.priority();
      }
      QueueAttr la = attrs.get(l);
      QueueAttr ra = attrs.get(r);
      if (la.isLeaf() != ra.isLeaf()) {
        return la.isLeaf() ? -1 : 1;
      }
      if (!la.isLeaf()) {
        return compareShareWithDeserved(la, ra);
      }
      // Two leaves compete through their subtrees below the lowest common ancestor.
      int level = queueLevel(la, ra);
      QueueAttr lp = level + 1 < la.ancestors.size() ? la.ancestors.get(level + 1) : la;
      QueueAttr rp = level + 1 < ra.ancestors.size() ? ra.ancestors.get(level + 1) : ra;
      return compareShareWithDeserved(lp, rp);
    });
    // Siblings before cousins: victims in queues sharing a deeper ancestor with the reclaimer go first.
    ssn.plugins.addVictimQueueOrderFn(NAME, (l, r, p) -> {
      int ll = queueLevel(attrs.get(l), attrs.get(p));
      int rl = queueLevel(attrs.get(r), attrs.get(p));
      if (ll == rl) {
        return 0;
      }
      return ll > rl ? -1 : 1;
    });
    return true;
  }

  /**
   * checkHierarchicalQueue: top-down, deserved := max(deserved, guarantee), unset capability dimensions are
   * inherited from the parent, realCapability(child) = min((realCapability(parent) - Σ sibling guarantees)⁺ +
   * guarantee(child), capability(child)). Root's deserved and guarantee become the sums of its children's.
   * Inconsistencies (a child above its parent, children deserving more than the parent) are only logged by
   * Volcano (PR #4864); scheduling continues.
   */
  private void checkHierarchicalQueue(QueueAttr attr) {
    Res childGuarantee = new Res(dims.size());
    Res childDeserved = new Res(dims.size());
    for (QueueAttr c : attr.children) {
      c.deserved = Res.max(c.deserved, c.guarantee);
      childDeserved.add(c.deserved);
      childGuarantee.add(c.guarantee);
      if (c.capability.v[Dims.CPU] <= 0) {
        c.capability.v[Dims.CPU] = attr.capability.v[Dims.CPU];
      }
      if (c.capability.v[Dims.MEMORY] <= 0) {
        c.capability.v[Dims.MEMORY] = attr.capability.v[Dims.MEMORY];
      }
      for (int i = 2; i < dims.size(); i++) {
        if (attr.capability.has(i) && !c.capability.has(i)) {
          c.capability.setScalar(i, attr.capability.get(i));
        }
      }
    }
    if (attr.name.equals(Queue.ROOT)) {
      attr.guarantee = childGuarantee;
      attr.deserved = childDeserved;
    }
    for (QueueAttr c : attr.children) {
      Res real = Res.exceededPart(attr.realCapability, childGuarantee).add(c.guarantee);
      c.realCapability = real.minDimension(c.capability, true);
    }
    for (QueueAttr c : attr.children) {
      checkHierarchicalQueue(c);
    }
  }

  /** getQueueLevel: the depth of the deepest common ancestor of two queues. */
  private static int queueLevel(QueueAttr l, QueueAttr r) {
    int level = 0;
    for (int i = 0; i < Math.min(l.ancestors.size(), r.ancestors.size()); i++) {
      if (l.ancestors.get(i) == r.ancestors.get(i)) {
        level = i;
      } else {
        return level;
      }
    }
    return level;
  }

  /** The ancestor {@code depth} levels up (1 = parent), or null. */
  private static QueueAttr ancestorAtDepth(QueueAttr a, int depth) {
    if (a == null || depth <= 0 || a.ancestors.size() < depth) {
      return null;
    }
    return a.ancestors.get(a.ancestors.size() - depth);
  }

  // ------------------------------------------------------------------ shares and order

  /** updateQueueAttrShare: a queue without deserved is best-effort with share 1. */
  private void updateShare(QueueAttr attr) {
    if (attr.deserved.isEmpty(dims.pods)) {
      attr.share = 1;
      return;
    }
    double s = 0;
    for (int i = 0; i < dims.size(); i++) {
      if (attr.deserved.named(i)) {
        s = Math.max(s, Res.share(attr.allocated.get(i), attr.deserved.get(i)));
      }
    }
    attr.share = s;
  }

  /** Lower share first; on equal shares a queue with deserved goes before a best-effort one. */
  private int compareShareWithDeserved(QueueAttr l, QueueAttr r) {
    if (l.share == r.share) {
      boolean lh = !l.deserved.isEmpty(dims.pods);
      boolean rh = !r.deserved.isEmpty(dims.pods);
      if (lh == rh) {
        return 0;
      }
      return lh ? -1 : 1;
    }
    return l.share < r.share ? -1 : 1;
  }

  // ------------------------------------------------------------------ enqueue

  private int enqueueable(Session ssn, JobInfo job) {
    if (!ready) {
      return REJECT;
    }
    QueueAttr attr = attrs.get(job.queue);
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

  /** JobEnqueued: commit the reservation to the leaf and, in hierarchy mode, every ancestor (PR #5339). */
  private void enqueued(JobInfo job) {
    QueueAttr attr = attrs.get(job.queue);
    if (attr == null || !job.hasMinResources()) {
      return;
    }
    attr.inqueue.add(job.minResources());
    if (hierarchy) {
      for (QueueAttr a : attr.ancestors) {
        a.inqueue.add(job.minResources());
      }
    }
  }

  // ------------------------------------------------------------------ allocate

  private boolean allocatable(Queue queue, TaskInfo candidate) {
    if (!queue.isOpen() || !ready) {
      return false;
    }
    QueueAttr attr = attrs.get(queue);
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

  private void account(TaskInfo t, int sign) {
    QueueAttr attr = attrs.get(t.job.queue);
    if (attr == null) {
      return;
    }
    if (sign > 0) {
      attr.allocated.add(t.resreq);
    } else {
      attr.allocated.sub(t.resreq);
    }
    updateShare(attr);
    if (hierarchy) {
      // Ancestors' allocated follows, their shares do not (as in Volcano).
      for (QueueAttr a : attr.ancestors) {
        if (sign > 0) {
          a.allocated.add(t.resreq);
        } else {
          a.allocated.sub(t.resreq);
        }
      }
    }
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
    QueueAttr attr = attrs.get(queue);
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
    QueueAttr reclaimerAttr = attrs.get(reclaimer.job.queue);
    if (reclaimerAttr == null) {
      return new Victims(victims, REJECT);
    }
    Map<QueueAttr, Res> allocations = new HashMap<>();
    GoHeap<TaskInfo> order = ssn.victimsQueue(reclaimees, reclaimer);
    while (!order.isEmpty()) {
      TaskInfo reclaimee = order.pop();
      QueueAttr attr = attrs.get(reclaimee.job.queue);
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
