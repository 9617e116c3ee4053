package batchsim.core.volcano;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The capacity plugin's queue attributes for one session (capacity.go's queueOpts): built flat from the queues
 * that have jobs, or, with {@code enableHierarchy}, as the tree under {@code root} with inherited capabilities
 * and realCapability cut down level by level; kept up to date as tasks are allocated, deallocated and jobs
 * enqueued; and the queue orders that follow from their shares. {@link CapacityPlugin} makes its decisions on
 * them.
 */
final class CapacityQueueAttrs {
  private final boolean hierarchy;
  private final Map<Queue, QueueAttr> attrs = new LinkedHashMap<>();
  private final Res totalResource;
  private final Dims dims;

  CapacityQueueAttrs(Session ssn, boolean hierarchy) {
    this.hierarchy = hierarchy;
    this.dims = ssn.dims;
    this.totalResource = ssn.totalResource.copy();
  }

  /** The attributes of a queue this session (null when none were built for it). */
  QueueAttr attr(Queue q) {
    return attrs.get(q);
  }

  // ------------------------------------------------------------------ flat mode (buildQueueAttrs)

  /** buildQueueAttrs: the queues that have jobs, their limits, deserved and shares. */
  void buildFlat(Session ssn) {
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
  }

  /** Flat queue order: higher priority first, then the lower share (see {@link #compareShareWithDeserved}). */
  int compareFlat(Queue l, Queue r) {
    if (l.spec.priority() != r.spec.priority()) {
      return r.spec.priority() - l.spec.priority();
    }
    return compareShareWithDeserved(attrs.get(l), attrs.get(r));
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
  boolean buildHierarchical(Session ssn) {
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

  /** Hierarchical queue order: priority, leaves before inner queues, then shares (of the subtrees, for leaves). */
  int compareHierarchical(Queue l, Queue r) {
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
  }

  /** Siblings before cousins: victims in queues sharing a deeper ancestor with the reclaimer go first. */
  int compareVictimQueues(Queue l, Queue r, Queue p) {
    int ll = queueLevel(attrs.get(l), attrs.get(p));
    int rl = queueLevel(attrs.get(r), attrs.get(p));
    if (ll == rl) {
      return 0;
    }
    return ll > rl ? -1 : 1;
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
  static QueueAttr ancestorAtDepth(QueueAttr a, int depth) {
    if (a == null || depth <= 0 || a.ancestors.size() < depth) {
      return null;
    }
    return a.ancestors.get(a.ancestors.size() - depth);
  }

  // ------------------------------------------------------------------ shares

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

  // ------------------------------------------------------------------ bookkeeping during the session

  /** JobEnqueued: commit the reservation to the leaf and, in hierarchy mode, every ancestor (PR #5339). */
  void enqueued(JobInfo job) {
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

  /** The allocate (+1) / deallocate (-1) event: the leaf's allocated and share, and its ancestors' allocated. */
  void account(TaskInfo t, int sign) {
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
}
