package batchsim.core.model;

import java.util.List;

/**
 * A pod toleration. {@code operator} is Equal or Exists; an empty key with Exists tolerates everything;
 * a null effect matches every effect.
 */
public record Toleration(String key, String operator, String value, String effect) {
  public boolean tolerates(Taint t) {
    if (effect != null && !effect.isEmpty() && !effect.equals(t.effect())) {
      return false;
    }
    if ("Exists".equals(operator)) {
      return key == null || key.isEmpty() || key.equals(t.key());
    }
    return t.key().equals(key) && java.util.Objects.equals(nullToEmpty(value), nullToEmpty(t.value()));
  }

  private static String nullToEmpty(String s) {
    return s == null ? "" : s;
  }

  /** True when every hard taint is tolerated by one of the tolerations. */
  public static boolean toleratesAll(List<Taint> taints, List<Toleration> tolerations) {
    for (Taint t : taints) {
      if (!t.isHard()) {
        continue;
      }
      boolean ok = false;
      for (Toleration tol : tolerations) {
        if (tol.tolerates(t)) {
          ok = true;
          break;
        }
      }
      if (!ok) {
        return false;
      }
    }
    return true;
  }
}
