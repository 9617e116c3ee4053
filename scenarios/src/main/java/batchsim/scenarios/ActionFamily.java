package batchsim.scenarios;

import batchsim.core.model.ClusterAction;
import java.util.List;

/**
 * One family of timeline actions (nodes, queues, workloads, ...): the {@code events:} keys it owns and how
 * each binds. A family reads its block with {@code outer.map(key, ...)} and reports problems against it;
 * it returns null when the block has a problem.
 */
interface ActionFamily {
  List<String> keys();

  ClusterAction bind(String key, Fields outer);
}
