package batchsim.core.volcano;

import batchsim.core.model.ActionRefused;
import batchsim.core.model.Durations;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Volcano queues created, updated, closed, opened and deleted while the engine runs: what Volcano's queue controller
 * ({@code pkg/controllers/queue}) does, after its webhooks ({@link QueueWebhook}) let the change through. A refusal
 * is an {@link ActionRefused} with Volcano's message.
 *
 * <p>State: closing a queue that still has PodGroups makes it {@code Closing}, else {@code Closed}; a Closing queue
 * becomes Closed when its last PodGroup is deleted (the controller's open/closing state machines). Neither
 * enqueues nor allocates (the capacity and proportion plugins want {@code Open}); running pods keep running.
 * Closing a queue closes its open children ("closed-by-parent"); opening it reopens those.
 */
public final class QueueEdits {
  private final VolcanoEngine engine;
  private final QueueWebhook webhook;
  private final Map<String, Long> deletedAtMs = new HashMap<>();

  public QueueEdits(VolcanoEngine engine) {
    this.engine = engine;
    this.webhook = new QueueWebhook(engine);
  }

  /** The queue's current spec, or null when there is no such queue now. */
  public VolcanoQueueSpec spec(String name) {
    Queue q = engine.queueMap().get(name);
    return q == null ? null : q.spec;
  }

  /** A new queue (Open). PodGroups left by a deleted queue of that name are scheduled again. */
  public void create(VolcanoQueueSpec spec, long nowMs) {
    webhook.admitCreate(spec);
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
    boolean resources = webhook.admitUpdate(q.spec, spec);
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
    webhook.admitDelete(q);
    engine.queueList().remove(q);
    engine.queueMap().remove(name);
    deletedAtMs.put(name, nowMs);
  }

  /** Why the job admission webhook refuses a new job for {@code queue}, or null. */
  public String jobRefusal(String queue) {
    return webhook.jobRefusal(queue);
  }

  /** Why the PodGroup webhook refuses (re)creating a PodGroup in {@code queue}, or null. */
  public String podGroupRefusal(String queue) {
    return webhook.podGroupRefusal(queue);
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

  private List<Queue> childQueues(Queue q) {
    return QueueWebhook.childQueues(engine, q);
  }
}
