package batchsim.scenarios;

import batchsim.core.model.ClusterAction;
import batchsim.core.model.MultiKueueAction;
import batchsim.scenarios.yaml.ScalarNode;
import java.util.List;

/**
 * MultiKueue's timeline actions: the manager loses its connection to a worker ({@code loseWorker}) and gets it
 * back ({@code reconnectWorker}); the worker is one {@code multiKueue.workers} declares.
 */
final class MultiKueueActions extends ActionFamily {
  static final List<String> KEYS = List.of("loseWorker", "reconnectWorker");

  MultiKueueActions(ActionContext ctx) {
    super(ctx, KEYS);
  }

  @Override
  ClusterAction bind(String kind, Fields outer) {
    Fields f = outer.map(kind, "worker");
    ScalarNode worker = f.reference("worker", MultiKueueBinder.workerNames(ctx.root), "MultiKueue worker");
    return worker == null ? null : new MultiKueueAction.WorkerConnection(worker.text(), kind.equals("reconnectWorker"));
  }
}
