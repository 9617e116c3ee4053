package batchsim.core.volcano;

/**
 * What the Volcano engine needs from the simulation around it: binds and evictions take time, so the host
 * completes them and calls the engine back ({@link VolcanoEngine}).
 */
public interface VolcanoHost {
  /** A bind was issued: call {@link VolcanoEngine#bindComplete} once it (plus pod start-up) is done. */
  void onBind(Pod pod, String node);

  /** An eviction was issued: call {@link VolcanoEngine#evictionComplete} once the pod is gone. */
  void onEvict(Pod pod, String node, String reason);

  /** A PodGroup's phase changed at the end of a session. */
  default void onPhaseChange(PodGroup pg, PodGroupPhase from, PodGroupPhase to) {}

  /** A host that ignores everything (conformance, tests). */
  VolcanoHost NONE = new VolcanoHost() {
    @Override
    public void onBind(Pod pod, String node) {}

    @Override
    public void onEvict(Pod pod, String node, String reason) {}
  };
}
