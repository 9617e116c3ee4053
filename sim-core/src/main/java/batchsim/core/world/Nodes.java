package batchsim.core.world;

import batchsim.core.cluster.ClusterState;
import batchsim.core.cluster.Node;
import batchsim.core.cluster.PodBinder;
import batchsim.core.engine.Event;
import batchsim.core.engine.EventKind;
import batchsim.core.engine.EventLoop;
import batchsim.core.engine.EventTarget;
import batchsim.core.metrics.Recorder;
import batchsim.core.model.FailureModel;
import batchsim.core.model.SimulationSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Predicate;

/**
 * Nodes coming and going, under either engine: failures (timeline and per-pool failure models) and repairs,
 * cordon, drain and uncordon, nodes added and removed (timeline or autoscaler), and the capacity accounting
 * that follows them. The node's state changes here first (through the kube-scheduler emulation, which also
 * fails the pods it bound there); then the engine hears of it and says how many pods were lost.
 */
public final class Nodes implements EventTarget {
  private final SimulationSpec spec;
  private final EventLoop loop;
  private final ClusterState cluster;
  private final PodBinder binder;
  private final Recorder recorder;
  private final CapacityAccounting capacity;
  private final AdmissionEngine engine;
  private final FailureModels failures = new FailureModels();

  Nodes(SimulationSpec spec, EventLoop loop, ClusterState cluster, PodBinder binder, Recorder recorder,
      CapacityAccounting capacity, AdmissionEngine engine) {
    this.spec = spec;
    this.loop = loop;
    this.cluster = cluster;
    this.binder = binder;
    this.recorder = recorder;
    this.capacity = capacity;
    this.engine = engine;
  }

  /** A node of a failure-model pool fails, or a failed node is repaired. */
  private record NodeChange(Node node, boolean byModel) {
    @Override
    public String toString() {
      return node.name();
    }
  }

  /** Every node joins at time 0. */
  void start() {
    for (Node n : cluster.nodes()) {
      capacity.node(n.pool(), +1, loop.now());
    }
  }

  /** The failure models start, one random stream each, split in scenario order. */
  void startFailureModels(SplittableRandom root) {
    for (FailureModel m : spec.failureModels()) {
      int p = spec.poolIndex(m.pool());
      failures.add(p, m, root.split());
      for (Node n : cluster.nodesOf(m.pool(), null)) {
        scheduleFailure(n);
      }
    }
  }

  private void scheduleFailure(Node n) {
    if (failures.covers(n.pool())) {
      long at = loop.now() + failures.timeToFailure(n.pool());
      loop.schedule(at, EventKind.NODE_FAIL, this, new NodeChange(n, true));
    }
  }

  @Override
  public void handle(Event e) {
    NodeChange c = (NodeChange) e.payload();
    Node n = c.node();
    switch (e.kind()) {
      case NODE_FAIL -> {
        if (!n.failed() && !n.removed()) {
          fail(n, failures.repairTime(n.pool()));
        }
      }
      case NODE_REPAIR -> {
        if (n.failed() && !n.removed()) {
          binder.recoverNode(n);
          engine.nodeRepaired(n);
          recorder.poolFailed(n.pool(), -1, loop.now());
          if (c.byModel()) {
            scheduleFailure(n);
          }
        }
      }
      default -> throw new IllegalStateException(e.toString());
    }
  }

  /** Fails a node now; repairs it after {@code repairMs} (negative = never). */
  void fail(Node n, long repairMs) {
    recorder.poolFailed(n.pool(), +1, loop.now());
    int onNode = n.podCount();
    List<Object> owners = binder.failNode(n);
    recorder.podsLost(n.pool(), engine.nodeFailed(n, owners, onNode));
    if (repairMs >= 0) {
      loop.schedule(loop.now() + repairMs, EventKind.NODE_REPAIR, this, new NodeChange(n, failures.covers(n.pool())));
    }
  }

  /** Cordons a node; a drain also fails the pods on it. */
  void cordon(Node n, boolean drain) {
    int onNode = n.podCount();
    List<Object> owners = binder.cordonNode(n, drain);
    int lost = engine.nodeCordoned(n, drain, owners, onNode);
    if (drain) {
      recorder.podsLost(n.pool(), lost);
    }
  }

  void uncordon(Node n) {
    binder.uncordonNode(n);
    engine.nodeUncordoned(n);
  }

  /** New nodes join a pool (timeline or autoscaler): capacity, the engine's view and failure model follow. */
  public List<Node> addNodes(int pool, int count) {
    List<Node> added = binder.addNodes(pool, count);
    for (Node n : added) {
      capacity.node(n.pool(), +1, loop.now());
      engine.nodeAdded(n);
      scheduleFailure(n);
    }
    return added;
  }

  /** A node leaves (timeline or autoscaler scale-down); its pods fail as on a node failure. */
  public void removeNode(Node n) {
    if (n.failed()) {
      recorder.poolFailed(n.pool(), -1, loop.now());
    }
    int onNode = n.podCount();
    List<Object> owners = binder.removeNode(n);
    recorder.podsLost(n.pool(), engine.nodeRemoved(n, owners, onNode));
    capacity.node(n.pool(), -1, loop.now());
  }

  int poolIndex(String pool) {
    return spec.poolIndex(pool);
  }

  /** The last {@code count} present nodes of a pool, newest first. */
  List<Node> newest(String pool, int count) {
    List<Node> present = cluster.nodesOf(pool, null);
    List<Node> out = new ArrayList<>();
    for (int i = present.size() - 1; i >= 0 && out.size() < count; i--) {
      out.add(present.get(i));
    }
    return out;
  }

  /** The named nodes, or the first {@code count} eligible nodes of {@code pool}. */
  List<Node> pick(String pool, int count, List<String> names, Predicate<Node> eligible) {
    List<Node> out = new ArrayList<>();
    for (Node n : cluster.nodesOf(pool, names)) {
      if (eligible.test(n) && (names != null && !names.isEmpty() || out.size() < count)) {
        out.add(n);
      }
    }
    return out;
  }
}
