package batchsim.core.volcano;

import batchsim.core.model.ActionRefused;
import batchsim.core.model.Durations;
import batchsim.core.model.Quantity;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Volcano queues created, updated, closed, opened and deleted while the engine runs, with what Volcano's queue
 * admission webhook ({@code pkg/webhooks/admission/queues/validate/validate_queue.go}) refuses and what its queue
 * controller ({@code pkg/controllers/queue}) does. A refusal is an {@link ActionRefused} with Volcano's message.
 *
 * <p>State: closing a queue that still has PodGroups makes it {@code Closing}, else {@code Closed}; a Closing queue
 * becomes Closed when its last PodGroup is deleted (the controller's open/closing state machines). Neither
 * enqueues nor allocates (the capacity and proportion plugins want {@code Open}); running pods keep running.
 * Closing a queue closes its open children ("closed-by-parent"); opening it reopens those.
 */
public final class QueueEdits {
  /** The webhook's {@code --max-queue-depth} default. */
  static final int MAX_QUEUE_DEPTH = 5;

  private final VolcanoEngine engine;
  private final Map<String, Long> deletedAtMs = new HashMap<>();

  public QueueEdits(VolcanoEngine engine) {
    this.engine = engine;
  }

  /** The queue's current spec, or null when there is no such queue now. */
  public VolcanoQueueSpec spec(String name) {
    Queue q = engine.queueMap().get(name);
    return q == null ? null : q.spec;
  }

  public QueueState state(String name) {
    return require(name).spec.state();
  }

  /** A new queue (Open). PodGroups left by a deleted queue of that name are scheduled again. */
  public void create(VolcanoQueueSpec spec, long nowMs) {
    if (engine.queueMap().containsKey(spec.name())) {
      throw new ActionRefused("queues.scheduling.volcano.sh \"" + spec.name() + "\" already exists");
    }
    quantities(spec);
    hierarchicalParent(spec);
    hierarchicalResources(spec);
    int index = 0;
    for (Queue q : engine.queueList()) {
      index = Math.max(index, q.index + 1);
    }
    Queue q = new Queue(spec.withState(QueueState.OPEN), index);
    q.createdMs = nowMs;
    engine.queueList().add(q);
    engine.queueMap().put(q.name, q);
    deletedAtMs.remove(q.name);
    for (PodGroup pg : engine.podGroupList()) {
      if (pg.queue.name.equals(q.name)) {
        pg.queue = q; // the scheduler joins jobs to queues by name
      }
    }
    Queue parent = explicitParent(q);
    if (parent != null && !parent.isOpen()) {
      closeTree(q, true); // syncHierarchicalQueue: a child of a closed or closing parent is closed too
    }
  }

  /** Replaces the queue's spec (its state stays); the webhook checks the result as on a Kubernetes update. */
  public void update(VolcanoQueueSpec spec) {
    Queue q = require(spec.name());
    quantities(spec);
    boolean resources = !spec.capability().equals(q.spec.capability()) || !spec.deserved().equals(q.spec.deserved())
        || !spec.guarantee().equals(q.spec.guarantee());
    if (q.name.equals(Queue.ROOT) && resources) {
      // --enable-root-queue-protection, on by default
      throw new ActionRefused("root queue's resource attributes (capability, deserved, guarantee) cannot be modified");
    }
    if (resources && !q.name.equals(Queue.ROOT)) {
      hierarchicalResources(spec);
    }
    q.spec = spec.withState(q.spec.state());
    if (resources) {
      lowered(q);
    }
  }

  /** The queue and its subtree (which inherits unset capability) may now hold more than their capability. */
  private void lowered(Queue q) {
    engine.capabilityLowered.add(q.name);
    childQueues(q).forEach(this::lowered);
  }

  /** Volcano's CloseQueueAction; returns the state reached (Closing while PodGroups remain, else Closed). */
  public QueueState close(String name) {
    Queue q = require(name);
    if (q.name.equals(Queue.ROOT)) {
      throw new ActionRefused("Root queue cannot be closed"); // closeHierarchicalQueue logs it and does nothing
    }
    closeTree(q, false);
    return q.spec.state();
  }

  /** Volcano's OpenQueueAction: the queue and the children its closing closed are Open again. */
  public void open(String name) {
    Queue q = require(name);
    Queue parent = explicitParent(q);
    if (parent != null && !parent.isOpen()) {
      throw new ActionRefused("Failed to open queue " + name + " because its parent queue " + parent.name
          + " is closing or closed. Open the parent queue first.");
    }
    openTree(q);
  }

  /**
   * Deletes the queue. The webhook refuses root, default and a queue with child queues; with its default flags
   * ({@code --enable-queue-allocated-pods-check=false}) it lets a queue with PodGroups go: the scheduler then ignores
   * their jobs ("The Queue of Job does not exist, ignore it"), pending ones stay pending, running pods run on.
   */
  public void delete(String name, long nowMs) {
    Queue q = require(name);
    if (name.equals(Queue.ROOT) || name.equals(Queue.DEFAULT)) {
      throw new ActionRefused("`" + name + "` queue can not be deleted");
    }
    List<String> children = children(q);
    if (!children.isEmpty()) {
      throw new ActionRefused("queue " + name + " can not be deleted because it has " + children.size()
          + " child queues: " + String.join(", ", children));
    }
    engine.queueList().remove(q);
    engine.queueMap().remove(name);
    deletedAtMs.put(name, nowMs);
  }

  /** Why the job admission webhook refuses a new job for {@code queue} (admit_job.go), or null. */
  public String jobRefusal(String queue) {
    Queue q = engine.queueMap().get(queue);
    if (q == null) {
      return "unable to find job queue: " + notFound(queue);
    }
    List<String> out = new ArrayList<>();
    if (!q.isOpen()) {
      out.add("can only submit job to queue with state `Open`, queue `" + queue + "` status is `"
          + q.spec.state().volcanoName() + "`");
    }
    if (q.name.equals(Queue.ROOT)) {
      out.add("can not submit job to root queue");
    } else if (!children(q).isEmpty()) {
      out.add("can only submit job to leaf queue, queue `" + queue + "` has " + children(q).size() + " child queues");
    }
    return out.isEmpty() ? null : String.join("; ", out);
  }

  /** Why the PodGroup webhook refuses (re)creating a PodGroup in {@code queue} (validate_podgroup.go), or null. */
  public String podGroupRefusal(String queue) {
    Queue q = engine.queueMap().get(queue);
    if (q == null) {
      return "unable to find queue: " + notFound(queue);
    }
    return q.isOpen() ? null : "can only submit PodGroup to queue with state `Open`, queue `" + queue
        + "` status is `" + q.spec.state().volcanoName() + "`.";
  }

  /** A PodGroup of {@code q} is gone: a Closing queue without PodGroups is Closed (the controller's sync). */
  static void podGroupGone(VolcanoEngine e, Queue q) {
    if (q.spec.state() == QueueState.CLOSING && !hasPodGroups(e, q)) {
      q.spec = q.spec.withState(QueueState.CLOSED);
    }
  }

  /** Recomputes a Closing queue after one of its PodGroups was deleted outside the engine's own deletion. */
  public void podGroupDeleted(String queue) {
    Queue q = engine.queueMap().get(queue);
    if (q != null) {
      podGroupGone(engine, q);
    }
  }

  // ------------------------------------------------------------------ state machine

  private void closeTree(Queue q, boolean byParent) {
    if (q.isOpen()) {
      q.closedByParent = byParent;
      for (Queue c : childQueues(q)) {
        closeTree(c, true);
      }
    }
    q.spec = q.spec.withState(hasPodGroups(engine, q) ? QueueState.CLOSING : QueueState.CLOSED);
  }

  private void openTree(Queue q) {
    q.spec = q.spec.withState(QueueState.OPEN);
    q.closedByParent = false;
    for (Queue c : childQueues(q)) {
      if (c.closedByParent) {
        openTree(c);
      }
    }
  }

  /** The queue controller counts the PodGroup objects naming the queue. */
  private static boolean hasPodGroups(VolcanoEngine e, Queue q) {
    for (PodGroup pg : e.podGroupList()) {
      if (pg.queue == q && !pg.detached) {
        return true;
      }
    }
    return false;
  }

  // ------------------------------------------------------------------ the webhook's checks

  /** validateResourceQuantityOfQueue: guarantee <= deserved (which must then be set) <= capability. */
  private static void quantities(VolcanoQueueSpec s) {
    List<String> errs = new ArrayList<>();
    for (Map.Entry<String, Long> g : s.guarantee().amounts().entrySet()) {
      String r = g.getKey();
      String gq = Quantity.format(r, g.getValue());
      if (!s.deserved().has(r)) {
        errs.add(invalid("deserved." + r, "<nil>", "deserved[" + r + "] must be >= guarantee[" + r + "]=" + gq));
      } else if (s.deserved().get(r) < g.getValue()) {
        String dq = Quantity.format(r, s.deserved().get(r));
        errs.add(invalid("deserved." + r, dq, "deserved[" + r + "]=" + dq + " must be >= guarantee[" + r + "]=" + gq));
      }
    }
    for (Map.Entry<String, Long> d : s.deserved().amounts().entrySet()) {
      String r = d.getKey();
      if (s.capability().has(r) && d.getValue() > s.capability().get(r)) {
        String dq = Quantity.format(r, d.getValue());
        errs.add(invalid("deserved." + r, dq, "deserved[" + r + "]=" + dq + " must be <= capability[" + r + "]="
            + Quantity.format(r, s.capability().get(r))));
      }
    }
    if (!errs.isEmpty()) {
      throw new ActionRefused(errs.size() == 1 ? errs.get(0) : "[" + String.join(", ", errs) + "]");
    }
  }

  private static String invalid(String field, String value, String detail) {
    return "requestBody.spec." + field + ": Invalid value: \"" + value + "\": " + detail;
  }

  /** validateHierarchicalQueue (on create): the parent exists, is not the queue, is not too deep, holds no pods. */
  private void hierarchicalParent(VolcanoQueueSpec s) {
    String parent = s.parent();
    if (parent == null || parent.isEmpty() || parent.equals(Queue.ROOT)) {
      return;
    }
    if (parent.equals(s.name())) {
      throw new ActionRefused("queue " + s.name() + " cannot use itself as parent");
    }
    int depth = 1;
    for (String p = parent; p != null && !p.isEmpty() && !p.equals(Queue.ROOT); p = spec(p).parent()) {
      if (++depth > MAX_QUEUE_DEPTH) {
        throw new ActionRefused("queue " + s.name() + " exceeds the maximum allowed depth of " + MAX_QUEUE_DEPTH);
      }
      if (spec(p) == null) {
        throw new ActionRefused("failed to get parent queue " + p + " of queue " + s.name() + ": " + notFound(p));
      }
    }
    Queue pq = engine.queueMap().get(parent);
    int pods = allocatedPods(pq);
    if (children(pq).isEmpty() && pods > 0) {
      throw new ActionRefused("queue " + parent + " cannot be the parent queue of queue " + s.name()
          + " because it has allocated Pods: " + pods);
    }
  }

  /**
   * validateHierarchicalQueueResources: capability within the nearest ancestor's, the siblings' guarantee and
   * deserved within the parent's, and the queue's own capability, guarantee and deserved covering its children.
   */
  private void hierarchicalResources(VolcanoQueueSpec s) {
    String parent = s.parent();
    if (parent != null && !parent.isEmpty() && !parent.equals(Queue.ROOT)) {
      for (Map.Entry<String, Long> c : s.capability().amounts().entrySet()) {
        Long limit = ancestorCapability(parent, c.getKey());
        if (c.getValue() > 0 && limit != null && c.getValue() > limit) {
          throw new ActionRefused("queue " + s.name() + " capability[" + c.getKey() + "]=" + typed(c.getKey(),
              c.getValue()) + " exceeds its ancestor's capability=" + typed(c.getKey(), limit));
        }
      }
      VolcanoQueueSpec p = spec(parent);
      List<VolcanoQueueSpec> siblings = new ArrayList<>();
      for (Queue q : childQueues(engine.queueMap().get(parent))) {
        if (!q.name.equals(s.name())) {
          siblings.add(q.spec);
        }
      }
      siblings.add(s);
      sums("parent queue " + parent, p, siblings);
    }
    Queue self = engine.queueMap().get(s.name());
    List<VolcanoQueueSpec> children = new ArrayList<>();
    if (self != null) {
      childQueues(self).forEach(c -> children.add(c.spec));
    }
    if (children.isEmpty()) {
      return;
    }
    for (Map.Entry<String, Long> c : s.capability().amounts().entrySet()) {
      long max = 0;
      for (Queue child : childQueues(self)) {
        max = Math.max(max, subtreeMaxCapability(child, c.getKey()));
      }
      if (c.getValue() > 0 && c.getValue() < max) {
        throw new ActionRefused("queue " + s.name() + " capability[" + c.getKey() + "]=" + typed(c.getKey(),
            c.getValue()) + " is smaller than its descendants' max capability=" + typed(c.getKey(), max));
      }
    }
    sums("queue " + s.name(), s, children);
  }

  /** Σ guarantee and Σ deserved of {@code children}, added one by one, never above the parent's (LessPartly). */
  private static void sums(String who, VolcanoQueueSpec parent, List<VolcanoQueueSpec> children) {
    TreeMap<String, Long> guarantee = new TreeMap<>();
    TreeMap<String, Long> deserved = new TreeMap<>();
    for (VolcanoQueueSpec c : children) {
      c.guarantee().amounts().forEach((r, v) -> guarantee.merge(r, v, Long::sum));
      if (exceeds(guarantee, parent.guarantee())) {
        throw new ActionRefused(who + " validation failed: sum of children's guarantee (" + resource(guarantee)
            + ") exceeds parent's guarantee limit (" + resource(parent.guarantee().amounts()) + ")");
      }
      c.deserved().amounts().forEach((r, v) -> deserved.merge(r, v, Long::sum));
      if (exceeds(deserved, parent.deserved())) {
        throw new ActionRefused(who + " validation failed: sum of children's deserved (" + resource(deserved)
            + ") exceeds parent's deserved limit (" + resource(parent.deserved().amounts()) + ")");
      }
    }
  }

  /** Volcano's LessPartly with Zero defaults: the limit lacks, or is below, some amount of the sum. */
  private static boolean exceeds(Map<String, Long> sum, ResourceList limit) {
    for (Map.Entry<String, Long> e : sum.entrySet()) {
      if (e.getValue() > (limit.has(e.getKey()) ? limit.get(e.getKey()) : 0)) {
        return true;
      }
    }
    return false;
  }

  /** findNearestAncestorCapability: the first ancestor below root that sets the resource (> 0). */
  private Long ancestorCapability(String parent, String resource) {
    for (String p = parent; p != null && !p.isEmpty() && !p.equals(Queue.ROOT); ) {
      VolcanoQueueSpec ps = spec(p);
      if (ps == null) {
        return null;
      }
      if (ps.capability().get(resource) > 0) {
        return ps.capability().get(resource);
      }
      p = ps.parent();
    }
    return null;
  }

  /** findSubtreeMaxCapability: the queue's own capability when set, else the largest of its children's. */
  private long subtreeMaxCapability(Queue q, String resource) {
    if (q.spec.capability().get(resource) > 0) {
      return q.spec.capability().get(resource);
    }
    long max = 0;
    for (Queue c : childQueues(q)) {
      max = Math.max(max, subtreeMaxCapability(c, resource));
    }
    return max;
  }

  // ------------------------------------------------------------------ helpers

  private Queue require(String name) {
    Queue q = engine.queueMap().get(name);
    if (q == null) {
      Long at = deletedAtMs.get(name);
      throw new ActionRefused("Volcano queue " + name + " does not exist"
          + (at == null ? ": it has not been created yet" : ": it was deleted at " + Durations.format(at)));
    }
    return q;
  }

  /** The parent the queue names (null for root's children): the one its state follows. */
  private Queue explicitParent(Queue q) {
    String p = q.spec.parent();
    return p == null || p.isEmpty() || p.equals(Queue.ROOT) ? null : engine.queueMap().get(p);
  }

  /** Queues naming {@code q} as their parent (Volcano's GetQueuesByParent), in declaration order. */
  private List<Queue> childQueues(Queue q) {
    List<Queue> out = new ArrayList<>();
    for (Queue c : engine.queueList()) {
      if (c != q && q.name.equals(c.spec.parent())) {
        out.add(c);
      }
    }
    return out;
  }

  private List<String> children(Queue q) {
    return childQueues(q).stream().map(c -> c.name).toList();
  }

  /** status.allocated[pods]: the queue's pods bound or running. */
  private int allocatedPods(Queue q) {
    int n = 0;
    for (PodGroup pg : engine.podGroupList()) {
      if (pg.queue == q && engine.scheduled(pg)) {
        for (Pod p : pg.pods) {
          n += p.state == PodState.BINDING || p.state == PodState.RUNNING ? 1 : 0;
        }
      }
    }
    return n;
  }

  private static String notFound(String queue) {
    return "queues.scheduling.volcano.sh \"" + queue + "\" not found";
  }

  /** formatResourceWithType: cpu and memory as quantities, other resources as their milli-value. */
  private static String typed(String resource, long amount) {
    if (resource.equals("cpu") || resource.equals("memory")) {
      return Quantity.format(resource, amount);
    }
    return String.format(Locale.ROOT, "%.2f", milli(resource, amount));
  }

  /** Volcano's Resource.String(): cpu in milli-cores, memory in bytes, scalars as milli-values. */
  private static String resource(Map<String, Long> amounts) {
    StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "cpu %.2f, memory %.2f",
        (double) amounts.getOrDefault("cpu", 0L), (double) amounts.getOrDefault("memory", 0L)));
    new TreeMap<>(amounts).forEach((r, v) -> {
      if (!r.equals("cpu") && !r.equals("memory")) {
        sb.append(String.format(Locale.ROOT, ", %s %.2f", r, milli(r, v)));
      }
    });
    return sb.toString();
  }

  private static double milli(String resource, long amount) {
    return Quantity.isMilli(resource) ? amount : amount * 1000.0;
  }
}
