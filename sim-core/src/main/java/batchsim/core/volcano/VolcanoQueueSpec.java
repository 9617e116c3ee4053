package batchsim.core.volcano;

/**
 * A Volcano Queue (scheduling.volcano.sh/v1beta1 QueueSpec).
 *
 * @param parent the parent queue in hierarchical mode; null means {@code root}
 * @param weight proportion's weight (Volcano's webhook defaults it to 1)
 * @param capability hard upper bound; null = unset
 * @param deserved the share that may be lent and reclaimed back (capacity plugin); null = unset
 * @param guarantee reserved floor; null = unset
 * @param priority higher first in queue order and last as a reclaim victim
 * @param reclaimable false protects the queue's tasks from reclaim (Volcano: nil means true)
 */
public record VolcanoQueueSpec(
    String name,
    String parent,
    int weight,
    ResourceList capability,
    ResourceList deserved,
    ResourceList guarantee,
    int priority,
    boolean reclaimable,
    QueueState state) {

  public VolcanoQueueSpec {
    if (name == null || name.isEmpty()) {
      throw new IllegalArgumentException("a queue needs a name");
    }
    capability = capability == null ? ResourceList.EMPTY : capability;
    deserved = deserved == null ? ResourceList.EMPTY : deserved;
    guarantee = guarantee == null ? ResourceList.EMPTY : guarantee;
    state = state == null ? QueueState.OPEN : state;
  }

  /** An open, reclaimable queue of weight 1 with nothing set. */
  public static VolcanoQueueSpec of(String name) {
    return new VolcanoQueueSpec(name, null, 1, null, null, null, 0, true, QueueState.OPEN);
  }

  public VolcanoQueueSpec withParent(String p) {
    return new VolcanoQueueSpec(name, p, weight, capability, deserved, guarantee, priority, reclaimable, state);
  }

  public VolcanoQueueSpec withCapability(ResourceList c) {
    return new VolcanoQueueSpec(name, parent, weight, c, deserved, guarantee, priority, reclaimable, state);
  }

  public VolcanoQueueSpec withDeserved(ResourceList d) {
    return new VolcanoQueueSpec(name, parent, weight, capability, d, guarantee, priority, reclaimable, state);
  }

  public VolcanoQueueSpec withGuarantee(ResourceList g) {
    return new VolcanoQueueSpec(name, parent, weight, capability, deserved, g, priority, reclaimable, state);
  }

  public VolcanoQueueSpec withWeight(int w) {
    return new VolcanoQueueSpec(name, parent, w, capability, deserved, guarantee, priority, reclaimable, state);
  }

  public VolcanoQueueSpec withPriority(int p) {
    return new VolcanoQueueSpec(name, parent, weight, capability, deserved, guarantee, p, reclaimable, state);
  }

  public VolcanoQueueSpec withReclaimable(boolean r) {
    return new VolcanoQueueSpec(name, parent, weight, capability, deserved, guarantee, priority, r, state);
  }

  public VolcanoQueueSpec withState(QueueState s) {
    return new VolcanoQueueSpec(name, parent, weight, capability, deserved, guarantee, priority, reclaimable, s);
  }
}
