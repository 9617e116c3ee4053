package batchsim.core.kueue.tas;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/** Kueue tasExclusionStats. */
final class ExclusionStats {
  int totalNodes;
  int nodeSelector;
  int topologyDomain;
  final TreeMap<String, Integer> taints = new TreeMap<>();
  final TreeMap<String, Integer> resources = new TreeMap<>();

  boolean any() {
    return nodeSelector > 0 || topologyDomain > 0 || !taints.isEmpty() || !resources.isEmpty();
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
    resources.forEach((k, v) -> r.add("resource \"" + k + "\": " + v));
    java.util.Collections.sort(r);
    return String.join(", ", r);
  }
}
