package batchsim.scenarios;

import batchsim.scenarios.yaml.ScalarNode;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Refuses a workload that requests a resource no node has, before the run: it would pend until the horizon
 * with no word why. Pools that start empty count (they may grow). A pod merely larger than every node is
 * left to the run: Kueue admits it by quota and its pods wait (what waitForPodsReady scenarios rely on).
 */
final class NodeFit {
  private NodeFit() {}

  static void check(List<Spec.NodePool> pools, String kind, ScalarNode name, List<Spec.PodSet> podSets,
      Problems problems) {
    if (name == null || pools.isEmpty()) {
      return; // a missing name or pool list is reported where it is written
    }
    Set<String> onNodes = new HashSet<>();
    pools.forEach(p -> p.allocatable().forEach(a -> {
      if (a.value() > 0) {
        onNodes.add(a.resource().text());
      }
    }));
    for (Spec.PodSet ps : podSets) {
      for (Spec.Amount a : ps.requests()) {
        if (a.value() > 0 && !onNodes.contains(a.resource().text())) {
          problems.at(name, kind + " '" + name.text() + "' can never run: pod set '" + ps.name() + "' needs "
              + a.resource().text() + ", no node has it");
          break;
        }
      }
    }
  }
}
