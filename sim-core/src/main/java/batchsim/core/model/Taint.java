package batchsim.core.model;

/** A node taint; {@code effect} is NoSchedule, PreferNoSchedule or NoExecute. */
public record Taint(String key, String value, String effect) {
  /** Taints that keep pods off a node (PreferNoSchedule only scores). */
  public boolean isHard() {
    return "NoSchedule".equals(effect) || "NoExecute".equals(effect);
  }
}
