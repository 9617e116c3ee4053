package batchsim.core.model;

/** A node taint; {@code effect} is NoSchedule, PreferNoSchedule or NoExecute. */
public record Taint(String key, String value, String effect) {
  /** What kube's node lifecycle controller puts on a NotReady node (taint-node-by-condition). */
  public static final Taint NOT_READY = new Taint("node.kubernetes.io/not-ready", "", "NoSchedule");
  /** What it puts on a cordoned node ({@code spec.unschedulable}); the NodeUnschedulable filter honours it. */
  public static final Taint UNSCHEDULABLE = new Taint("node.kubernetes.io/unschedulable", "", "NoSchedule");

  /** Taints that keep pods off a node (PreferNoSchedule only scores). */
  public boolean isHard() {
    return "NoSchedule".equals(effect) || "NoExecute".equals(effect);
  }
}
