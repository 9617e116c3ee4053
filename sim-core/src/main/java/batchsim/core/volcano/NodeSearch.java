package batchsim.core.volcano;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;

/**
 * Volcano's PredicateHelper.PredicateNodes (util/predicate_helper.go): checks nodes starting where the last
 * search stopped and stops after enough feasible nodes (CalculateNumOfFeasibleNodesToFind: every node up to
 * 100, then an adaptive percentage, at least 5%). Volcano checks nodes on 16 goroutines; here they are
 * checked in order, so the result is deterministic.
 */
final class NodeSearch {
  static final int MIN_NODES_TO_FIND = 100;
  static final int MIN_PERCENTAGE_OF_NODES_TO_FIND = 5;
  static final int BASELINE_PERCENTAGE_OF_NODES_TO_FIND = 50;

  private NodeSearch() {}

  static int numFeasibleNodesToFind(int all) {
    if (all <= MIN_NODES_TO_FIND) {
      return all;
    }
    int pct = BASELINE_PERCENTAGE_OF_NODES_TO_FIND - all / 125;
    if (pct < MIN_PERCENTAGE_OF_NODES_TO_FIND) {
      pct = MIN_PERCENTAGE_OF_NODES_TO_FIND;
    }
    int n = (int) ((long) all * pct / 100);
    return Math.max(n, MIN_NODES_TO_FIND);
  }

  /**
   * The feasible nodes for {@code task} among {@code nodes}; {@code fit} returns null when the node fits.
   * The first failure reason is stored in {@code firstError[0]} when given.
   */
  static List<NodeInfo> feasible(Session ssn, TaskInfo task, List<NodeInfo> nodes,
      BiFunction<TaskInfo, NodeInfo, Plugin.FitError> fit, String[] firstError) {
    List<NodeInfo> out = new ArrayList<>();
    int all = nodes.size();
    if (all == 0) {
      return out;
    }
    int want = numFeasibleNodesToFind(all);
    int start = (int) (ssn.engine.lastProcessedNodeIndex % all);
    int processed = 0;
    for (int k = 0; k < all && out.size() < want; k++) {
      NodeInfo n = nodes.get((start + k) % all);
      processed++;
      Plugin.FitError e = fit.apply(task, n);
      if (e == null) {
        out.add(n);
      } else if (firstError != null && firstError[0] == null) {
        firstError[0] = n.name + ": " + (e == INSUFFICIENT ? "Insufficient " + insufficient(ssn, task, n) : e.reason());
      }
    }
    ssn.engine.lastProcessedNodeIndex = (start + processed) % all;
    return out;
  }

  /** Not enough future idle on the node; the resources are named only for the error that is reported. */
  private static final Plugin.FitError INSUFFICIENT = new Plugin.FitError("Insufficient", true);

  /** The allocate action's predicate: resources fit the node's future idle, then the plugins' predicates. */
  static Plugin.FitError allocatePredicate(Session ssn, TaskInfo task, NodeInfo node) {
    if (!task.resreq.lessEqualAll(node.futureIdle())) {
      return INSUFFICIENT;
    }
    return ssn.plugins.predicate(task, node);
  }

  private static String insufficient(Session ssn, TaskInfo task, NodeInfo node) {
    Res idle = node.futureIdle();
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < ssn.dims.size(); i++) {
      if (task.resreq.has(i) && task.resreq.get(i) - idle.get(i) >= Res.MIN_RESOURCE) {
        sb.append(sb.length() == 0 ? "" : ", ").append(ssn.dims.name(i));
      }
    }
    return sb.toString();
  }
}
