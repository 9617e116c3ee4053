package batchsim.core.volcano;

import java.util.ArrayList;
import java.util.List;

/**
 * A queue's per-session attributes in the capacity and proportion plugins (their queueAttr): what it
 * deserves, may use (capability, realCapability), is guaranteed, and what its jobs have allocated, request,
 * hold as inqueue reservations and use beyond their minimum (elastic). Rebuilt from scratch every session.
 */
final class QueueAttr {
  final Queue queue;
  final String name;
  double share;
  /** Hierarchical mode: root first, down to the parent. */
  List<QueueAttr> ancestors = new ArrayList<>();
  final List<QueueAttr> children = new ArrayList<>();
  Res deserved;
  Res allocated;
  Res request;
  Res elastic;
  Res inqueue;
  /** All zero when the queue sets none (realCapability is then the bound). */
  Res capability;
  Res realCapability;
  Res guarantee;

  QueueAttr(Queue queue, int dims) {
    this.queue = queue;
    this.name = queue.name;
    this.allocated = new Res(dims);
    this.request = new Res(dims);
    this.elastic = new Res(dims);
    this.inqueue = new Res(dims);
    this.guarantee = new Res(dims);
  }

  /** Σ guarantee over all queues: what realCapability must leave to the others. */
  static Res totalGuarantee(List<Queue> queues, Dims dims) {
    Res total = new Res(dims.size());
    for (Queue q : queues) {
      if (!q.spec.guarantee().isEmpty()) {
        total.add(dims.fromList(q.spec.guarantee()));
      }
    }
    return total;
  }

  /** Flat mode: guarantee, capability and realCapability = min((total - Σ guarantees)⁺ + guarantee, capability). */
  void setFlatLimits(Dims dims, Res total, Res totalGuarantee) {
    VolcanoQueueSpec s = queue.spec;
    Res cap = null;
    if (!s.capability().isEmpty()) {
      cap = dims.fromList(s.capability());
      // A capability whose cpu or memory is <= 0 is unlimited there.
      if (cap.v[Dims.CPU] <= 0) {
        cap.v[Dims.CPU] = Res.INF;
      }
      if (cap.v[Dims.MEMORY] <= 0) {
        cap.v[Dims.MEMORY] = Res.INF;
      }
    }
    if (!s.guarantee().isEmpty()) {
      guarantee = dims.fromList(s.guarantee());
    }
    Res real = Res.exceededPart(total, totalGuarantee).add(guarantee);
    capability = cap == null ? new Res(dims.size()) : cap;
    realCapability = cap == null ? real : real.minDimension(cap, true);
  }

  boolean isLeaf() {
    return children.isEmpty();
  }

  /** This queue's jobs' allocated/request/inqueue/elastic contributions, from the session snapshot. */
  Res[] accumulate(JobInfo job, Dims dims) {
    Res alloc = new Res(dims.size());
    Res req = new Res(dims.size());
    for (TaskInfo t : job.tasks) {
      if (t.status.allocated()) {
        alloc.add(t.resreq);
        req.add(t.resreq);
      } else if (t.status == TaskStatus.PENDING) {
        req.add(t.resreq);
      }
    }
    Res inq = new Res(dims.size());
    // Inqueue PodGroups reserve minResources minus what they already hold (PR #5130); so do Running ones
    // whose allocated tasks still make the gang.
    if (job.reservesInqueue()) {
      inq.add(job.inqueueResource(dims));
    }
    Res el = job.elastic();
    allocated.add(alloc);
    request.add(req);
    inqueue.add(inq);
    elastic.add(el);
    return new Res[] {alloc, req, inq, el};
  }

  @Override
  public String toString() {
    return name;
  }
}
