package batchsim.core.sim;

import batchsim.core.cluster.Node;
import batchsim.core.engine.Event;
import batchsim.core.engine.EventKind;
import batchsim.core.model.ClusterAction;
import batchsim.core.model.FailureModel;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The timeline: one-off and recurring actions on nodes and queues, stochastic node failures, and the
 * capacity accounting that follows nodes coming and going. Each recurring event and each pool's failure
 * model draws from its own random stream, split from the run's seed in scenario order.
 */
final class ClusterEvents {
  private final Simulation sim;
  private final FailureModels failures = new FailureModels();
  private final TimelineSchedule timeline;

  ClusterEvents(Simulation sim) {
    this.sim = sim;
    this.timeline = new TimelineSchedule(sim.loop);
  }

  /** A node of a failure-model pool fails, or a failed node is repaired. */
  private record NodeChange(Node node, boolean byModel) {
    @Override
    public String toString() {
      return node.name();
    }
  }

  void start(SplittableRandom root) {
    for (Node n : sim.cluster.nodes()) {
      capacity(n, +1);
    }
    timeline.start(sim.spec.timeline(), root);
    for (FailureModel m : sim.spec.failureModels()) {
      int p = sim.spec.poolIndex(m.pool());
      failures.add(p, m, root.split());
      for (Node n : sim.cluster.nodesOf(m.pool(), null)) {
        scheduleFailure(n);
      }
    }
  }

  private void scheduleFailure(Node n) {
    if (failures.covers(n.pool())) {
      long at = sim.loop.now() + failures.timeToFailure(n.pool());
      sim.loop.schedule(at, EventKind.NODE_FAIL, new NodeChange(n, true));
    }
  }

  void handle(Event e) {
    switch (e.kind()) {
      case TIMELINE -> timeline.fire(e, this::apply);
      case NODE_FAIL -> {
        NodeChange c = (NodeChange) e.payload();
        if (!c.node().failed() && !c.node().removed()) {
          fail(c.node(), failures.repairTime(c.node().pool()));
        }
      }
      case NODE_REPAIR -> {
        NodeChange c = (NodeChange) e.payload();
        if (c.node().failed() && !c.node().removed()) {
          sim.binder.recoverNode(c.node());
          if (c.node().schedulable()) {
            sim.kueue.nodeRecovered(c.node().name()); // [TAS] back in the topology trees
          }
          sim.recorder.poolFailed(c.node().pool(), -1, sim.loop.now());
          sim.requestBind();
          if (c.byModel()) {
            scheduleFailure(c.node());
          }
        }
      }
      default -> throw new IllegalStateException(e.toString());
    }
  }

  /** Fails a node now; repairs it after {@code repairMs} (negative = never). */
  private void fail(Node n, long repairMs) {
    sim.recorder.poolFailed(n.pool(), +1, sim.loop.now());
    sim.recorder.podsLost(n.pool(), n.podCount());
    List<Object> owners = sim.binder.failNode(n);
    sim.kueue.nodeFailed(n.name()); // [TAS] out of the trees; TAS workloads there get a second pass
    sim.podsLost(owners);
    if (repairMs >= 0) {
      sim.loop.schedule(sim.loop.now() + repairMs, EventKind.NODE_REPAIR,
          new NodeChange(n, failures.covers(n.pool())));
    }
  }

  private void apply(ClusterAction action, SplittableRandom random) {
    var kueue = sim.kueue;
    if (action instanceof ClusterAction.FailNodes a) {
      for (Node n : pick(a.pool(), a.count(), a.nodes(), n -> !n.failed() && !n.removed())) {
        fail(n, a.repairAfter() == null ? -1 : a.repairAfter().sample(random));
      }
    } else if (action instanceof ClusterAction.CordonNodes a) {
      for (Node n : pick(a.pool(), a.count(), a.nodes(), n -> !n.cordoned() && !n.removed())) {
        int pods = n.podCount();
        List<Object> owners = sim.binder.cordonNode(n, a.drain());
        // [TAS] unschedulable nodes leave the trees; drained pods make the node unhealthy for TAS workloads
        if (a.drain()) {
          kueue.nodeFailed(n.name());
        } else {
          kueue.nodeSchedulable(n.name(), false);
        }
        if (a.drain()) {
          sim.recorder.podsLost(n.pool(), pods);
        }
        sim.podsLost(owners);
      }
    } else if (action instanceof ClusterAction.UncordonNodes a) {
      for (Node n : pick(a.pool(), a.count(), a.nodes(), n -> n.cordoned() && !n.removed())) {
        sim.binder.uncordonNode(n);
        if (n.schedulable()) {
          kueue.nodeRecovered(n.name()); // [TAS]
        }
      }
      sim.requestBind();
    } else if (action instanceof ClusterAction.AddNodes a) {
      addNodes(sim.spec.poolIndex(a.pool()), a.count());
    } else if (action instanceof ClusterAction.RemoveNodes a) {
      List<Node> present = sim.cluster.nodesOf(a.pool(), null);
      for (int i = present.size() - 1, k = 0; i >= 0 && k < a.count(); i--, k++) {
        removeNode(present.get(i));
      }
    } else if (action instanceof ClusterAction.SetQuota a) {
      kueue.setQuota(a.clusterQueue(), a.flavor(), a.resource(), a.quota());
    } else if (action instanceof ClusterAction.SetPreemption a) {
      kueue.setPreemption(a.clusterQueue(), a.preemption());
    } else if (action instanceof ClusterAction.StopQueue a) {
      if (a.clusterQueue() != null) {
        kueue.stopClusterQueue(a.clusterQueue(), a.policy());
      } else {
        kueue.stopLocalQueue(a.localQueue(), a.policy());
      }
    } else if (action instanceof ClusterAction.DeleteQueue a) {
      if (a.clusterQueue() != null) {
        kueue.deleteClusterQueue(a.clusterQueue());
      } else {
        kueue.deleteLocalQueue(a.localQueue());
      }
    } else if (action instanceof ClusterAction.ScaleArrivals a) {
      sim.scaleArrivals(a.workloadClass(), a.factor());
    }
    sim.requestCycle();
  }

  /** New nodes join a pool (timeline or autoscaler): capacity, TAS tree and failure model follow. */
  List<Node> addNodes(int pool, int count) {
    List<Node> added = sim.binder.addNodes(pool, count);
    for (Node n : added) {
      capacity(n, +1);
      sim.kueue.nodeAdded(sim.tas.tasNode(n)); // [TAS]
      scheduleFailure(n);
    }
    sim.requestBind();
    return added;
  }

  /** A node leaves (timeline or autoscaler scale-down); its pods fail as on a node failure. */
  void removeNode(Node n) {
    if (n.failed()) {
      sim.recorder.poolFailed(n.pool(), -1, sim.loop.now());
    }
    sim.recorder.podsLost(n.pool(), n.podCount());
    List<Object> lost = sim.binder.removeNode(n);
    sim.kueue.nodeFailed(n.name()); // [TAS] a deleted node is unhealthy at once
    sim.podsLost(lost);
    capacity(n, -1);
  }

  private List<Node> pick(String pool, int count, List<String> names, java.util.function.Predicate<Node> eligible) {
    List<Node> out = new ArrayList<>();
    for (Node n : sim.cluster.nodesOf(pool, names)) {
      if (eligible.test(n) && (names != null && !names.isEmpty() || out.size() < count)) {
        out.add(n);
      }
    }
    return out;
  }

  /** Adds (+1) or removes (-1) a node's allocatable to the capacity of every flavor it belongs to. */
  private void capacity(Node n, int sign) {
    sim.capacity.node(n.pool(), sign, sim.loop.now());
  }
}
