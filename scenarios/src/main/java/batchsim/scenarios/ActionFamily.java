package batchsim.scenarios;

import batchsim.core.model.ClusterAction;
import java.util.List;

/**
 * One family of timeline actions (nodes, queues, workloads, ...): the {@code events:} keys it owns and how
 * each binds. A family reads its block with {@code outer.map(key, ...)} and reports problems against it;
 * {@link #bind} returns null when the block has a problem.
 */
abstract class ActionFamily {
  final ActionContext ctx;
  private final List<String> keys;

  ActionFamily(ActionContext ctx, List<String> keys) {
    this.ctx = ctx;
    this.keys = keys;
  }

  final List<String> keys() {
    return keys;
  }

  abstract ClusterAction bind(String key, Fields outer);
}
