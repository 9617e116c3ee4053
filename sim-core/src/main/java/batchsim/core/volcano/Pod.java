package batchsim.core.volcano;

/**
 * A pod the engine schedules. Its state changes only through {@link VolcanoEngine}: sessions bind and evict
 * it, the host reports binds completing, pods finishing and evicted pods being gone.
 */
public final class Pod {
  final PodSpec spec;
  final PodGroup group;
  final Res request;
  final int podIndex;
  /** Per-pod constants the sessions read (Volcano's TaskInfo fields): UID, best-effort flag, priority. */
  final String uid;
  final boolean bestEffort;
  final int priority;
  PodState state = PodState.PENDING;
  Node node;
  long boundAtMs = -1;
  /** Free for the host (e.g. the simulation's per-pod bookkeeping). */
  public Object runtime;

  Pod(PodSpec spec, PodGroup group, Res request) {
    this.spec = spec;
    this.group = group;
    this.request = request;
    this.podIndex = indexOf(spec.name());
    this.uid = spec.uid();
    this.bestEffort = request.isEmpty(Dims.PODS);
    this.priority = spec.priority() == null ? 1 : spec.priority();
  }


  /**
   * Volcano's GetPodIndexUnderTask: the last '-'-separated part of a name with at least three parts, as a
   * number; {@link Integer#MIN_VALUE} when there is none.
   */
  static int indexOf(String name) {
    String[] parts = name.split("-", -1);
    if (parts.length < 3) {
      return Integer.MIN_VALUE;
    }
    try {
      return Integer.parseInt(parts[parts.length - 1]);
    } catch (NumberFormatException e) {
      return Integer.MIN_VALUE;
    }
  }

  public String id() {
    return spec.id();
  }

  public PodSpec spec() {
    return spec;
  }

  public PodGroup podGroup() {
    return group;
  }

  public PodState state() {
    return state;
  }

  /** The node's name, or null when unbound. */
  public String nodeName() {
    return node == null ? null : node.name;
  }

  /** Virtual time the bind was issued, or -1. */
  public long boundAtMs() {
    return boundAtMs;
  }

  @Override
  public String toString() {
    return spec.id();
  }
}
