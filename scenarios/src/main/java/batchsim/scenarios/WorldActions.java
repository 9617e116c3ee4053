package batchsim.scenarios;

import batchsim.core.model.ClusterAction;
import batchsim.core.model.LongDistribution;
import batchsim.scenarios.yaml.ScalarNode;
import java.util.List;

/** The world's actions, which work under every engine: nodes of a pool or by name, and arrival rates. */
final class WorldActions extends ActionFamily {
  static final List<String> KEYS = List.of("failNodes", "cordonNodes", "drainNodes", "uncordonNodes", "addNodes", "removeNodes",
        "scaleArrivals");

  WorldActions(ActionContext ctx) {
    super(ctx, KEYS);
  }

  @Override
  ClusterAction bind(String kind, Fields outer) {
    switch (kind) {
      case "failNodes": {
        Fields f = outer.map(kind, "pool", "count", "nodes", "for");
        NodeSelection s = nodes(f);
        LongDistribution repair = f.has("for") ? ctx.dist(f.get("for")) : null;
        return s == null ? null : new ClusterAction.FailNodes(s.pool, s.count, s.names, repair);
      }
      case "cordonNodes":
      case "drainNodes": {
        NodeSelection s = nodes(outer.map(kind, "pool", "count", "nodes"));
        return s == null ? null : new ClusterAction.CordonNodes(s.pool, s.count, s.names, kind.equals("drainNodes"));
      }
      case "uncordonNodes": {
        NodeSelection s = nodes(outer.map(kind, "pool", "count", "nodes"));
        return s == null ? null : new ClusterAction.UncordonNodes(s.pool, s.count, s.names);
      }
      case "addNodes":
      case "removeNodes": {
        Fields f = outer.map(kind, "pool", "count");
        ScalarNode pool = f.reference("pool", ctx.pools, "node pool");
        int count = f.int32("count", 1, 1);
        if (pool == null) {
          return null;
        }
        return kind.equals("addNodes") ? new ClusterAction.AddNodes(pool.text(), count)
            : new ClusterAction.RemoveNodes(pool.text(), count);
      }
      default: {
        Fields f = outer.map(kind, "class", "factor");
        ScalarNode c = f.reference("class", ctx.classes, "workload class");
        double factor = f.decimal("factor", 1, 0);
        if (factor <= 0) {
          ctx.problems.at(f.get("factor"), "factor must be > 0");
          return null;
        }
        return c == null ? null : new ClusterAction.ScaleArrivals(c.text(), factor);
      }
    }
  }

  private record NodeSelection(String pool, int count, List<String> names) {}

  /** The named {@code nodes} (each must be able to exist), or {@code count} nodes of {@code pool}. */
  private NodeSelection nodes(Fields f) {
    if (f.has("nodes")) {
      if (!f.atMostOne("pool", "nodes") || !f.atMostOne("count", "nodes")) {
        return null;
      }
      List<String> names = ctx.nodeNames.read(f, ctx.problems);
      return names == null ? null : new NodeSelection(null, names.size(), names);
    }
    ScalarNode pool = f.reference("pool", ctx.pools, "node pool");
    int count = f.int32("count", 1, 1);
    if (pool == null) {
      return null;
    }
    String why = ctx.nodeNames.tooMany(pool.text(), count);
    if (why != null) {
      ctx.problems.at(f.has("count") ? f.get("count") : f.get("pool"), why);
      return null;
    }
    return new NodeSelection(pool.text(), count, List.of());
  }
}
