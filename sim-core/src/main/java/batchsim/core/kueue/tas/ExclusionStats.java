package batchsim.core.kueue.tas;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/** Kueue tasExclusionStats. */
final class ExclusionStats {
  private final List<String> resourceNames;
  int totalNodes;
  int nodeSelector;
  int topologyDomain;
  final TreeMap<String, Integer> taints = new TreeMap<>();
  /** Per resource: nodes where no pod fits because of it. */
  private final int[] resources;

  ExclusionStats(List<String> resourceNames) {
    this.resourceNames = resourceNames;
    this.resources = new int[resourceNames.size()];
  }

  /** One more (+1) or one fewer (-1) node where resource {@code r} leaves no room for a pod. */
  void resourceFull(int r, int sign) {
    resources[r] += sign;
  }

  boolean any() {
    if (nodeSelector > 0 || topologyDomain > 0 || !taints.isEmpty()) {
      return true;
    }
    for (int n : resources) {
      if (n > 0) {
        return true;
      }
    }
    return false;
  }

  String format() {
    List<String> r = new ArrayList<>();
    if (nodeSelector > 0) {
      r.add("nodeSelector: " + nodeSelector);
    }
    if (topologyDomain > 0) {
      r.add("topologyDomain: " + topologyDomain);
    }
    taints.forEach((k, v) -> r.add(k + ": " + v));
    for (int i = 0; i < resources.length; i++) {
      if (resources[i] > 0) {
        r.add("resource \"" + resourceNames.get(i) + "\": " + resources[i]);
      }
    }
    java.util.Collections.sort(r);
    return String.join(", ", r);
  }
}
