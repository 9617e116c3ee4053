package batchsim.core.volcano;

import batchsim.core.model.Toleration;
import java.util.Map;

/**
 * The parts of Volcano's predicates plugin (plugins/predicates/predicates.go) a batch simulation needs: node
 * selector (NodeAffinity) and taints (TaintToleration), both UnschedulableAndUnresolvable, and the node's pod
 * count (NodePodNumber), which preemption may resolve.
 */
final class PredicatesPlugin implements Plugin {
  static final String NAME = "predicates";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void onSessionOpen(Session ssn) {
    int pods = ssn.dims.pods;
    ssn.plugins.addPredicateFn(NAME, (task, node) -> {
      for (Map.Entry<String, String> e : task.pod.spec.nodeSelector().entrySet()) {
        if (!e.getValue().equals(node.node.spec.labels().get(e.getKey()))) {
          return new FitError("node(s) didn't match Pod's node affinity/selector", false);
        }
      }
      if (!Toleration.toleratesAll(node.node.spec.taints(), task.pod.spec.tolerations())) {
        return new FitError("node(s) had untolerated taint", false);
      }
      if (node.allocatable.get(pods) <= node.tasks.size()) {
        return new FitError("node(s) pod number exceeded", true);
      }
      return null;
    });
  }
}
