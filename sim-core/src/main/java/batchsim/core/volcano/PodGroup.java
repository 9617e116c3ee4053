package batchsim.core.volcano;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** A PodGroup (Volcano job) between sessions: spec, phase and its pods in creation order. */
public final class PodGroup {
  /** Replaced when the job controller recreates a deleted PodGroup (new creation time). */
  PodGroupSpec spec;
  /** Re-pointed when a deleted queue of the same name is created again (the scheduler joins by name). */
  Queue queue;
  /** The PodGroup object is gone (deleted, not yet recreated, or its job deleted): sessions skip the job. */
  boolean detached;
  final Res minResources;
  final List<Pod> pods = new ArrayList<>();
  PodGroupPhase phase;
  long runningAtMs = -1;
  /** The last condition a session wrote, formatted on demand. */
  java.util.function.Supplier<String> condition = () -> "";
  /** Free for the host. */
  public Object runtime;

  PodGroup(PodGroupSpec spec, Queue queue, Res minResources, PodGroupPhase phase) {
    this.spec = spec;
    this.queue = queue;
    this.minResources = minResources;
    this.phase = phase;
  }

  public String id() {
    return spec.id();
  }

  public PodGroupSpec spec() {
    return spec;
  }

  public PodGroupPhase phase() {
    return phase;
  }

  public String queueName() {
    return queue.name;
  }

  public List<Pod> pods() {
    return Collections.unmodifiableList(pods);
  }


  /** First virtual time the group was Running, or -1. */
  public long runningAtMs() {
    return runningAtMs;
  }

  /** The gang condition of the last session that saw the group ("" before any). */
  public String lastCondition() {
    return condition.get();
  }

  @Override
  public String toString() {
    return spec.id();
  }
}
