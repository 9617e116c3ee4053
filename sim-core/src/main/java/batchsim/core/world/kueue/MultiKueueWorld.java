package batchsim.core.world.kueue;

import batchsim.core.metrics.ClusterResult;
import batchsim.core.metrics.RunResult;
import batchsim.core.model.MultiKueueSpec;
import batchsim.core.world.World;
import java.util.ArrayList;
import java.util.List;

/**
 * Makes a world of one Kueue cluster MultiKueue's manager: each worker of the spec becomes a cluster of its own
 * (nodes, queues, Kueue) on the world's loop, connected to the manager's {@link MultiKueueController}.
 */
public final class MultiKueueWorld {
  private MultiKueueWorld() {}

  /** Adds {@code spec}'s workers to {@code world}, whose first cluster runs {@code manager}. */
  public static void connect(World world, KueueAdmission manager, MultiKueueSpec spec) {
    MultiKueueController controller = new MultiKueueController(manager, spec);
    for (MultiKueueSpec.Worker w : spec.workers()) {
      controller.addWorker(w.name(), (KueueAdmission) world.addCluster(w.name(), w.spec(), KueueAdmission::new));
    }
    world.workerResults(results -> {
      List<ClusterResult> out = new ArrayList<>();
      for (int i = 0; i < results.size(); i++) {
        RunResult r = results.get(i);
        out.add(controller.workers.get(i).result(r, r.endTimeMs()));
      }
      return out;
    });
  }
}
