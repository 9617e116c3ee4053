package batchsim.core.volcano;

/**
 * A queue as the scheduler holds it (Volcano's QueueInfo): the spec plus its declaration order. Queue UID is
 * its name; all queues share one creation time, so the name breaks ties.
 */
final class Queue {
  static final String ROOT = "root";
  static final String DEFAULT = "default";

  final VolcanoQueueSpec spec;
  final String name;
  final int index;

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
