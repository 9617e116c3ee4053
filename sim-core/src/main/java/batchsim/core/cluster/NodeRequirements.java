package batchsim.core.cluster;

import batchsim.core.model.Taint;
import batchsim.core.model.Toleration;
import java.util.List;
import java.util.Map;

/**
 * What a pod asks of its node (kube-scheduler's NodeAffinity and TaintToleration filters): every selector
 * matched (its flavors' node labels, which Kueue injects, and its own node selector) and every hard taint
 * tolerated (its tolerations plus its flavors').
 */
record NodeRequirements(List<Map<String, String>> selectors, List<Toleration> tolerations) {
  boolean matches(Map<String, String> labels, List<Taint> taints) {
    if (!Toleration.toleratesAll(taints, tolerations)) {
      return false;
    }
    for (Map<String, String> selector : selectors) {
      for (var e : selector.entrySet()) {
        if (!e.getValue().equals(labels.get(e.getKey()))) {
          return false;
        }
      }
    }
    return true;
  }

  boolean matches(Node n) {
    return matches(n.labels, n.taints);
  }

  /** Whether a pod may stay on a node with {@code taint} (kube's taint manager evicts for NoExecute). */
  boolean toleratesExecute(List<Taint> taints) {
    for (Taint t : taints) {
      if ("NoExecute".equals(t.effect()) && !Toleration.toleratesAll(List.of(t), tolerations)) {
        return false;
      }
    }
    return true;
  }
}
