package batchsim.scenarios;

import batchsim.core.model.ClusterAction;
import batchsim.core.model.ClusterAction.StopPolicy;
import batchsim.core.model.QuotaSpec;
import batchsim.scenarios.yaml.ScalarNode;
import java.util.List;

/** Kueue's queue objects changed mid-run (quotas, preemption, stopPolicy, deletions) and its controller restarted. */
final class QueueActions extends ActionFamily {
  static final List<String> KEYS = List.of("setQuota", "setPreemption", "stopClusterQueue", "deleteClusterQueue", "stopLocalQueue",
        "deleteLocalQueue", "restartKueue");

  QueueActions(ActionContext ctx) {
    super(ctx, KEYS);
  }

  @Override
  ClusterAction bind(String kind, Fields outer) {
    switch (kind) {
      case "setQuota": {
        Fields f = outer.map(kind, "clusterQueue", "flavor", "resource", "nominalQuota", "borrowingLimit", "lendingLimit");
        ScalarNode cq = f.reference("clusterQueue", ctx.clusterQueues, "ClusterQueue");
        ScalarNode flavor = f.reference("flavor", ctx.flavors, "ResourceFlavor");
        ScalarNode resource = f.reference("resource", ctx.resources, "resource");
        if (cq == null || flavor == null || resource == null) {
          return null;
        }
        Long nominal = ctx.quantity(resource.text(), f.required("nominalQuota"));
        Long bl = f.has("borrowingLimit") ? ctx.quantity(resource.text(), f.get("borrowingLimit")) : null;
        Long ll = f.has("lendingLimit") ? ctx.quantity(resource.text(), f.get("lendingLimit")) : null;
        if (nominal == null) {
          return null;
        }
        return new ClusterAction.SetQuota(cq.text(), flavor.text(), resource.text(), new QuotaSpec(nominal,
            bl == null ? QuotaSpec.UNLIMITED : bl, ll == null ? QuotaSpec.UNLIMITED : ll));
      }
      case "setPreemption": {
        Fields f = outer.map(kind, "clusterQueue", "withinClusterQueue", "reclaimWithinCohort", "borrowWithinCohort");
        ScalarNode cq = f.reference("clusterQueue", ctx.clusterQueues, "ClusterQueue");
        return cq == null ? null : new ClusterAction.SetPreemption(cq.text(), ctx.queues.preemption(f));
      }
      case "stopClusterQueue":
      case "stopLocalQueue": {
        Fields f = outer.map(kind, "name", "policy");
        boolean cq = kind.equals("stopClusterQueue");
        ScalarNode name = f.reference("name", cq ? ctx.clusterQueues : ctx.localQueues,
            cq ? "ClusterQueue" : "LocalQueue");
        StopPolicy policy = f.enumeration("policy", StopPolicy.class, StopPolicy.HOLD);
        if (name == null) {
          return null;
        }
        return new ClusterAction.StopQueue(cq ? name.text() : null, cq ? null : name.text(), policy);
      }
      case "restartKueue": {
        Fields f = outer.map(kind, "downFor");
        return new ClusterAction.RestartKueue(f.has("downFor") ? ctx.dist(f.get("downFor")) : null);
      }
      default: {
        Fields f = outer.map(kind, "name");
        boolean cq = kind.equals("deleteClusterQueue");
        ScalarNode name = f.reference("name", cq ? ctx.clusterQueues : ctx.localQueues,
            cq ? "ClusterQueue" : "LocalQueue");
        return name == null ? null : new ClusterAction.DeleteQueue(cq ? name.text() : null, cq ? null : name.text());
      }
    }
  }
}
