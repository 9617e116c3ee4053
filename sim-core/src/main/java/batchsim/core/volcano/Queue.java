package batchsim.core.volcano;

/**
 * A queue as the scheduler holds it (Volcano's QueueInfo): the spec plus its declaration order. Queue UID is
 * its name; ties in queue order go to the older queue, then the name.
 */
final class Queue {
  static final String ROOT = "root";
  static final String DEFAULT = "default";

  /** Replaced by a queue update (QueueEdits); the name never changes. */
  VolcanoQueueSpec spec;
  final String name;
  final int index;
  /** Creation time: 0 for the scenario's queues, the time of its createVolcanoQueue for later ones. */
  long createdMs;
  /** Closed because its parent was closed (Volcano's volcano.sh/closed-by-parent annotation). */
  boolean closedByParent;

  Queue(VolcanoQueueSpec spec, int index) {
    this.spec = spec;
    this.name = spec.name();
    this.index = index;
  }

  boolean isOpen() {
    return spec.state() == QueueState.OPEN;
  }

  /** The parent in hierarchical mode: spec.parent, or root for every queue but root itself. */
  String parentName() {
    if (name.equals(ROOT)) {
      return null;
    }
    return spec.parent() == null || spec.parent().isEmpty() ? ROOT : spec.parent();
  }

  @Override
  public String toString() {
    return name;
  }
}
