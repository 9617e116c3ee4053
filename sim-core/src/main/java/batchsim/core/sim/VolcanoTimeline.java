package batchsim.core.sim;

import batchsim.core.engine.Event;
import batchsim.core.engine.EventKind;
import batchsim.core.model.ClusterAction;
import batchsim.core.model.FailureModel;
import batchsim.core.model.NodePoolSpec;
import batchsim.core.model.SimulationSpec;
import batchsim.core.model.TimelineEvent;
import batchsim.core.volcano.Pod;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Predicate;

/**
 * The timeline of a run under Volcano: node failures (timeline {@code failNodes} and per-pool failure models)
 * and arrival scaling. A failed node is NotReady — sessions skip it ({@link
 * batchsim.core.volcano.VolcanoEngine#setNodeReady}) — and its pods fail and are recreated Pending by their
 * controller, as under Kueue. Random streams are split from the run's seed in the same order as under Kueue
 * (one per timeline event, then one per failure model), so both engines see the same failures.
 */
final class VolcanoTimeline {
  private final VolcanoSimulation sim;
  private final List<VNode> nodes = new ArrayList<>();
  private final FailureModels failures = new FailureModels();
  private final TimelineSchedule timeline;

  VolcanoTimeline(VolcanoSimulation sim) {
    this.sim = sim;
    this.timeline = new TimelineSchedule(sim.loop);
    List<NodePoolSpec> pools = sim.spec.nodePools();
    for (int p = 0; p < pools.size(); p++) {
      for (int i = 0; i < pools.get(p).count(); i++) {
        nodes.add(new VNode(pools.get(p).name() + "-" + i, p)); // VolcanoNodeSpec.fromPools' names
      }
    }
  }

  /** What a run under Volcano cannot do (the scenario loader reports these with their location). */
  static List<String> unsupported(SimulationSpec spec) {
    List<String> out = new ArrayList<>();
    for (TimelineEvent e : spec.timeline()) {
      if (!(e.action() instanceof ClusterAction.FailNodes) && !(e.action() instanceof ClusterAction.ScaleArrivals)) {
        out.add("timeline action " + e.action().getClass().getSimpleName() + " is not supported under Volcano");
      }
    }
    if (!spec.serving().isEmpty()) {
      out.add("serving Deployments are not supported under Volcano");
    }
    return out;
  }

  /** A node as the timeline sees it. */
  static final class VNode {
    final String name;
    final int pool;
    boolean failed;

    VNode(String name, int pool) {
      this.name = name;
      this.pool = pool;
    }

    @Override
    public String toString() {
      return name;
    }
  }

  private record NodeChange(VNode node, boolean byModel) {
    @Override
    public String toString() {
      return node.name;
    }
  }

  /** Every node joins at time 0; the timeline and failure models start (streams split in scenario order). */
  void start(SplittableRandom root) {
    for (VNode n : nodes) {
      sim.capacity.node(n.pool, +1, sim.loop.now());
    }
    timeline.start(sim.spec.timeline(), root);
    for (FailureModel m : sim.spec.failureModels()) {
      int p = sim.spec.poolIndex(m.pool());
      failures.add(p, m, root.split());
      for (VNode n : nodes) {
        if (n.pool == p) {
          scheduleFailure(n);
        }
      }
    }
  }

  private void scheduleFailure(VNode n) {
    if (failures.covers(n.pool)) {
      long at = sim.loop.now() + failures.timeToFailure(n.pool);
      sim.loop.schedule(at, EventKind.NODE_FAIL, new NodeChange(n, true));
    }
  }

  void handle(Event e) {
    switch (e.kind()) {
      case TIMELINE -> timeline.fire(e, this::apply);
      case NODE_FAIL -> {
        NodeChange c = (NodeChange) e.payload();
        if (!c.node().failed) {
          fail(c.node(), failures.repairTime(c.node().pool));
        }
      }
      case NODE_REPAIR -> {
        NodeChange c = (NodeChange) e.payload();
        if (c.node().failed) {
          c.node().failed = false;
          sim.engine.setNodeReady(c.node().name, true);
          sim.recorder.poolFailed(c.node().pool, -1, sim.loop.now());
          sim.requestSession();
          if (c.byModel()) {
            scheduleFailure(c.node());
          }
        }
      }
      default -> throw new IllegalStateException(e.toString());
    }
  }

  private void apply(ClusterAction action, SplittableRandom random) {
    if (action instanceof ClusterAction.FailNodes a) {
      for (VNode n : pick(a.pool(), a.count(), a.nodes(), n -> !n.failed)) {
        fail(n, a.repairAfter() == null ? -1 : a.repairAfter().sample(random));
      }
    } else if (action instanceof ClusterAction.ScaleArrivals a) {
      sim.arrivals.scale(a.workloadClass(), a.factor());
    } else {
      throw new IllegalStateException(action + " is not supported under Volcano");
    }
  }

  /** The named nodes, or the first {@code count} eligible nodes of {@code pool}, in node order. */
  private List<VNode> pick(String pool, int count, List<String> names, Predicate<VNode> eligible) {
    boolean byName = names != null && !names.isEmpty();
    List<VNode> out = new ArrayList<>();
    for (VNode n : nodes) {
      boolean selected = byName ? names.contains(n.name) : sim.spec.nodePools().get(n.pool).name().equals(pool);
      if (selected && eligible.test(n) && (byName || out.size() < count)) {
        out.add(n);
      }
    }
    return out;
  }

  /** Fails a node now: NotReady for sessions, its pods fail; repaired after {@code repairMs} (negative = never). */
  private void fail(VNode n, long repairMs) {
    n.failed = true;
    sim.recorder.poolFailed(n.pool, +1, sim.loop.now());
    List<Pod> pods = sim.engine.podsOn(n.name);
    sim.engine.setNodeReady(n.name, false);
    sim.recorder.podsLost(n.pool, sim.podsLost(pods));
    if (repairMs >= 0) {
      sim.loop.schedule(sim.loop.now() + repairMs, EventKind.NODE_REPAIR,
          new NodeChange(n, failures.covers(n.pool)));
    }
    sim.requestSession();
  }
}
