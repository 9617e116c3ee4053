package batchsim.core.volcano;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Volcano's proportion plugin (plugins/proportion/proportion.go), the default queue plugin: every session it
 * water-fills the cluster among the queues that have jobs by weight, each share capped by the queue's
 * realCapability and its own request and raised to its guarantee; that deserved is the hard cap of allocation
 * (a queue never allocates beyond its current fair share) while enqueue is bounded by realCapability. Flat
 * queues only.
 */
final class ProportionPlugin implements Plugin {
  static final String NAME = "proportion";

  private final Map<Queue, QueueAttr> attrs = new LinkedHashMap<>();
  private Dims dims;

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void onSessionOpen(Session ssn) {
    dims = ssn.dims;
    Res total = ssn.totalResource.copy();
    Res totalGuarantee = QueueAttr.totalGuarantee(ssn.queues, dims);
    for (JobInfo job : ssn.jobs) {
      QueueAttr attr = attrs.get(job.queue);
      if (attr == null) {
        attr = new QueueAttr(job.queue, dims.size());
        attr.deserved = new Res(dims.size());
        attr.setFlatLimits(dims, total, totalGuarantee);
        attrs.put(job.queue, attr);
      }
      attr.accumulate(job, dims);
    }
    waterFill(total);

    ssn.plugins.addQueueOrderFn(NAME, (l, r) -> {
      if (l.spec.priority() != r.spec.priority()) {
        return r.spec.priority() - l.spec.priority();
      }
      double ls = attrs.get(l).share;
      double rs = attrs.get(r).share;
      return ls == rs ? 0 : ls < rs ? -1 : 1;
    });
    ssn.plugins.addReclaimableFn(NAME, (reclaimer, reclaimees) -> {
      List<TaskInfo> victims = new ArrayList<>();
      Map<QueueAttr, Res> allocations = new HashMap<>();
      for (TaskInfo r : reclaimees) {
        QueueAttr attr = attrs.get(r.job.queue);
        if (attr == null) {
          continue;
        }
        Res allocated = allocations.computeIfAbsent(attr, a -> a.allocated.copy());
        if (!allocated.lessEqual(attr.deserved, false)) {
          allocated.sub(r.resreq);
          victims.add(r);
        }
      }
      return new Victims(victims, PERMIT);
    });
    // Overused: deserved <= allocated on every dimension.
    ssn.plugins.addOverusedFn(NAME, q -> {
      QueueAttr attr = attrs.get(q);
      return attr != null && attr.deserved.lessEqual(attr.allocated, false);
    });
    ssn.plugins.addAllocatableFn(NAME, (q, t) -> allocatable(q, List.of(t)));
    ssn.plugins.addPreemptiveFn(NAME, this::allocatable);
    ssn.plugins.addJobEnqueueableFn(NAME, job -> {
      QueueAttr attr = attrs.get(job.queue);
      if (!job.queue.isOpen()) {
        return REJECT;
      }
      if (attr == null || !job.hasMinResources()) {
        return PERMIT;
      }
      Res min = job.minResources();
      Res r = min.copy().add(attr.allocated).add(attr.inqueue).sub(attr.elastic);
      if (r.lessEqualWithDimension(attr.realCapability, min, dims.pods)) {
        return PERMIT;
      }
      Res cap = attr.realCapability;
      ssn.enqueueRejections.put(job, () -> "queue resource quota insufficient in " + attr.name + ": "
          + r.exceededDimensions(cap, min, dims) + " (would use " + dims.format(r) + " of " + dims.format(cap) + ")");
      return REJECT;
    });
    ssn.plugins.addJobEnqueuedFn(NAME, job -> {
      QueueAttr attr = attrs.get(job.queue);
      if (attr != null && job.hasMinResources()) {
        attr.inqueue.add(job.minResources());
      }
    });
    ssn.plugins.addEventHandler(new EventHandler(t -> {
      QueueAttr attr = attrs.get(t.job.queue);
      if (attr != null) {
        attr.allocated.add(t.resreq);
        updateShare(attr);
      }
    }, t -> {
      QueueAttr attr = attrs.get(t.job.queue);
      if (attr != null) {
        attr.allocated.sub(t.resreq);
        updateShare(attr);
      }
    }));
  }

  /** The water-filling loop of OnSessionOpen. */
  private void waterFill(Res total) {
    Res remaining = total.copy();
    Set<QueueAttr> met = new HashSet<>();
    while (true) {
      int totalWeight = 0;
      for (QueueAttr a : attrs.values()) {
        if (!met.contains(a)) {
          totalWeight += a.queue.spec.weight();
        }
      }
      if (totalWeight == 0) {
        break;
      }
      Res oldRemaining = remaining.copy();
      Res increased = new Res(dims.size());
      Res decreased = new Res(dims.size());
      for (QueueAttr a : attrs.values()) {
        if (met.contains(a)) {
          continue;
        }
        Res oldDeserved = a.deserved.copy();
        a.deserved.add(remaining.copy().multi((double) a.queue.spec.weight() / totalWeight));
        a.deserved.minDimension(a.realCapability, true);
        a.deserved.minDimension(a.request, false);
        a.deserved = Res.max(a.deserved, a.guarantee);
        updateShare(a);
        if (a.request.lessEqual(a.deserved, false) || a.deserved.sameAs(oldDeserved)) {
          met.add(a);
        }
        Res[] d = a.deserved.diff(oldDeserved, false);
        increased.add(d[0]);
        decreased.add(d[1]);
      }
      remaining = Res.exceededPart(remaining.copy().add(decreased), increased);
      if (remaining.isEmpty(dims.pods) || remaining.sameAs(oldRemaining)) {
        break;
      }
    }
  }

  /** Proportion's queueAllocatable: open, and allocated + request within deserved on the requested dims. */
  private boolean allocatable(Queue q, List<TaskInfo> candidates) {
    if (!q.isOpen()) {
      return false;
    }
    QueueAttr attr = attrs.get(q);
    if (attr == null) {
      return false;
    }
    Res total = new Res(dims.size());
    for (TaskInfo t : candidates) {
      total.add(t.resreq);
    }
    return attr.allocated.copy().add(total).lessEqualWithDimension(attr.deserved, total, dims.pods);
  }

  private void updateShare(QueueAttr attr) {
    double s = 0;
    for (int i = 0; i < dims.size(); i++) {
      if (attr.deserved.named(i)) {
        s = Math.max(s, Res.share(attr.allocated.get(i), attr.deserved.get(i)));
      }
    }
    attr.share = s;
  }
}
