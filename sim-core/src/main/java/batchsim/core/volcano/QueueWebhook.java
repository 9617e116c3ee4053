package batchsim.core.volcano;

import batchsim.core.model.ActionRefused;
import batchsim.core.model.Quantity;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * What Volcano's admission webhooks refuse about queues and what goes into them: the queue webhook
 * ({@code pkg/webhooks/admission/queues/validate/validate_queue.go}, default flags), and the queue checks of the job
 * ({@code admit_job.go}) and PodGroup ({@code validate_podgroup.go}) webhooks. Refusals carry Volcano's messages.
 */
final class QueueWebhook {
  /** The webhook's {@code --max-queue-depth} default. */
  static final int MAX_QUEUE_DEPTH = 5;

  private final VolcanoEngine engine;

  QueueWebhook(VolcanoEngine engine) {
    this.engine = engine;
  }

  /** CREATE: a new name, sound quantities, and with a parent the hierarchy rules. */
  void admitCreate(VolcanoQueueSpec spec) {
    if (engine.queueMap().containsKey(spec.name())) {
      throw new ActionRefused("queues.scheduling.volcano.sh \"" + spec.name() + "\" already exists");
    }
    quantities(spec);
    hierarchicalParent(spec);
    hierarchicalResources(spec);
  }

  /** UPDATE: returns whether capability, deserved or guarantee changed (the hierarchy is checked only then). */
  boolean admitUpdate(VolcanoQueueSpec old, VolcanoQueueSpec spec) {
    quantities(spec);
    boolean resources = !spec.capability().equals(old.capability()) || !spec.deserved().equals(old.deserved())
        || !spec.guarantee().equals(old.guarantee());
    if (spec.name().equals(Queue.ROOT) && resources) {
      // --enable-root-queue-protection, on by default
      throw new ActionRefused("root queue's resource attributes (capability, deserved, guarantee) cannot be modified");
    }
    if (resources && !spec.name().equals(Queue.ROOT)) {
      hierarchicalResources(spec);
    }
    return resources;
  }

  /** DELETE: not root or default, no child queues ({@code --enable-queue-allocated-pods-check} is off by default). */
  void admitDelete(Queue q) {
    if (q.name.equals(Queue.ROOT) || q.name.equals(Queue.DEFAULT)) {
      throw new ActionRefused("`" + q.name + "` queue can not be deleted");
    }
    List<String> children = children(q);
    if (!children.isEmpty()) {
      throw new ActionRefused("queue " + q.name + " can not be deleted because it has " + children.size()
          + " child queues: " + String.join(", ", children));
    }
  }

  /** Why the job admission webhook refuses a new job for {@code queue} (admit_job.go), or null. */
  String jobRefusal(String queue) {
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
  String podGroupRefusal(String queue) {
    Queue q = engine.queueMap().get(queue);
    if (q == null) {
      return "unable to find queue: " + notFound(queue);
    }
    return q.isOpen() ? null : "can only submit PodGroup to queue with state `Open`, queue `" + queue
        + "` status is `" + q.spec.state().volcanoName() + "`.";
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

  private VolcanoQueueSpec spec(String name) {
    Queue q = engine.queueMap().get(name);
    return q == null ? null : q.spec;
  }

  /** Queues naming {@code q} as their parent (Volcano's GetQueuesByParent), in declaration order. */
  static List<Queue> childQueues(VolcanoEngine engine, Queue q) {
    List<Queue> out = new ArrayList<>();
    for (Queue c : engine.queueList()) {
      if (c != q && q.name.equals(c.spec.parent())) {
        out.add(c);
      }
    }
    return out;
  }

  private List<Queue> childQueues(Queue q) {
    return childQueues(engine, q);
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
