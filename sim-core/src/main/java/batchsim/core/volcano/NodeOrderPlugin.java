package batchsim.core.volcano;

/**
 * Volcano's nodeorder plugin with its default weights reduced to the two scores that depend on resources:
 * kube-scheduler's LeastAllocated and BalancedAllocation over cpu and memory (weight 1 each), computed on the
 * node's used resources plus the task's request. Ties go to the node declared first.
 */
final class NodeOrderPlugin implements Plugin {
  static final String NAME = "nodeorder";
  private static final long MAX_NODE_SCORE = 100;

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void onSessionOpen(Session ssn) {
    ssn.plugins.addNodeOrderFn(NAME, (task, node) -> leastAllocated(task, node) + balanced(task, node));
  }

  private static long leastAllocated(TaskInfo task, NodeInfo node) {
    long sum = 0;
    for (int r = Dims.CPU; r <= Dims.MEMORY; r++) {
      double cap = node.allocatable.get(r);
      double req = node.used.get(r) + task.resreq.get(r);
      if (cap <= 0 || req > cap) {
        continue;
      }
      sum += (long) ((cap - req) * MAX_NODE_SCORE / cap);
    }
    return sum / 2;
  }

  private static long balanced(TaskInfo task, NodeInfo node) {
    double[] f = new double[2];
    for (int r = Dims.CPU; r <= Dims.MEMORY; r++) {
      double cap = node.allocatable.get(r);
      double req = node.used.get(r) + task.resreq.get(r);
      f[r] = cap <= 0 ? 0 : Math.min(1, req / cap);
    }
    double std = Math.abs(f[0] - f[1]) / 2;
    return (long) ((1 - std) * MAX_NODE_SCORE);
  }
}
