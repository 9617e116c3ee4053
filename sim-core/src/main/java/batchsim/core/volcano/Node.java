package batchsim.core.volcano;

import java.util.LinkedHashMap;
import java.util.Map;

/** A cluster node between sessions: its spec, readiness and the non-terminated pods bound to it. */
final class Node {
  /** Replaced when the node's labels or taints change. */
  VolcanoNodeSpec spec;
  final String name;
  final int index;
  final Res allocatable;
  boolean ready = true;
  /** Pods bound here (Binding, Running, Releasing), in bind order. */
  final Map<String, Pod> pods = new LinkedHashMap<>();

  Node(VolcanoNodeSpec spec, int index, Res allocatable) {
    this.spec = spec;
    this.name = spec.name();
    this.index = index;
    this.allocatable = allocatable;
  }

  @Override
  public String toString() {
    return name;
  }
}
