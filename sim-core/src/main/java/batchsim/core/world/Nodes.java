package batchsim.core.world;

import batchsim.core.cluster.ClusterState;
import batchsim.core.cluster.Node;
import batchsim.core.cluster.PodBinder;
import batchsim.core.engine.Event;
import batchsim.core.engine.EventKind;
import batchsim.core.engine.EventLoop;
import batchsim.core.engine.EventTarget;
import batchsim.core.metrics.Recorder;
import batchsim.core.model.ActionRefused;
import batchsim.core.model.Durations;
import batchsim.core.model.FailureModel;
import batchsim.core.model.SimulationSpec;
import batchsim.core.model.Taint;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
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
  /**
   * Per node, bumped whenever it goes NotReady or Ready: a repair or eviction scheduled for an earlier
   * episode (a node made Ready by hand before its repair time) is stale.
   */
  private final Map<Node, Integer> episode = new HashMap<>();
  /** Nodes NotReady by a timeline action (not failed); and those whose model failure fell in that time. */
  private final Set<Node> stopped = new HashSet<>();
  private final Set<Node> modelFailureMissed = new HashSet<>();
  /** When each removed node left, for refusing actions that name it later. */
  private final Map<String, Long> removedAt = new HashMap<>();

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
  private record NodeChange(Node node, boolean byModel, int episode) {
    @Override
    public String toString() {
      return node.name();
    }
  }

  /** The node-lifecycle controller's eviction of a NotReady node's pods. */
  private record NotReadyEviction(Node node, int episode) {
    @Override
    public String toString() {
      return node.name();
    }
  }

  /**
   * kube's DefaultTolerationSeconds admission plugin gives every pod node.kubernetes.io/not-ready:NoExecute
   * for 300 s; the node-lifecycle controller's taint-based eviction then deletes the pods of a NotReady node.
   */
  static final long NOT_READY_EVICTION_MS = 300_000;

  private int nextEpisode(Node n) {
    return episode.merge(n, 1, Integer::sum);
  }

  private boolean current(Node n, int ep) {
    return episode.getOrDefault(n, 0) == ep;
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
      loop.schedule(at, EventKind.NODE_FAIL, this, new NodeChange(n, true, 0));
    }
  }

  @Override
  public void handle(Event e) {
    if (e.payload() instanceof NotReadyEviction ev) {
      if (ev.node().failed() && !ev.node().removed() && current(ev.node(), ev.episode())) {
        losePods(ev.node());
      }
      return;
    }
    NodeChange c = (NodeChange) e.payload();
    Node n = c.node();
    switch (e.kind()) {
      case NODE_FAIL -> {
        if (!n.failed() && !n.removed()) {
          fail(n, failures.repairTime(n.pool()));
        } else if (stopped.contains(n)) {
          modelFailureMissed.add(n); // the model's next failure is drawn when the node is Ready again
        }
      }
      case NODE_REPAIR -> {
        if (n.failed() && !n.removed() && current(n, c.episode())) {
          repair(n, c.byModel());
        }
      }
      default -> throw new IllegalStateException(e.toString());
    }
  }

  /** Fails a node now; repairs it after {@code repairMs} (negative = never). */
  void fail(Node n, long repairMs) {
    stopped.remove(n);
    recorder.poolFailed(n.pool(), +1, loop.now());
    int ep = nextEpisode(n);
    int onNode = n.podCount();
    List<Object> owners = binder.failNode(n);
    recorder.podsLost(n.pool(), engine.nodeFailed(n, owners, onNode));
    if (repairMs >= 0) {
      loop.schedule(loop.now() + repairMs, EventKind.NODE_REPAIR, this,
          new NodeChange(n, failures.covers(n.pool()), ep));
    }
  }

  /** The pods of a failed node are lost (the engine hears it as a node failure). */
  private void losePods(Node n) {
    int onNode = n.podCount();
    List<Object> owners = binder.evictNode(n);
    recorder.podsLost(n.pool(), engine.nodeFailed(n, owners, onNode));
  }

  /** A failed node is Ready again; a failure-model pool's node gets its next failure. */
  private void repair(Node n, boolean byModel) {
    stopped.remove(n);
    modelFailureMissed.remove(n);
    nextEpisode(n);
    binder.recoverNode(n);
    engine.nodeRepaired(n);
    recorder.poolFailed(n.pool(), -1, loop.now());
    if (byModel) {
      scheduleFailure(n);
    }
  }

  /**
   * The kubelet stops reporting (a timeline action): no new pods at once (kube's not-ready:NoSchedule
   * taint); the pods there run on until the node-lifecycle eviction, unless the node is Ready first.
   */
  void notReady(Node n) {
    recorder.poolFailed(n.pool(), +1, loop.now());
    int ep = nextEpisode(n);
    stopped.add(n);
    binder.notReady(n);
    engine.nodeNotReady(n);
    loop.schedule(loop.now() + NOT_READY_EVICTION_MS, EventKind.NODE_FAIL, this, new NotReadyEviction(n, ep));
  }

  /** A NotReady node (either way) is Ready again now; a pending repair or eviction is dropped. */
  void ready(Node n) {
    // A failed node's repair (dropped now) would have drawn the model's next failure; a stopped one's
    // model failure is still pending unless it fell while the node was NotReady.
    repair(n, failures.covers(n.pool()) && (!stopped.contains(n) || modelFailureMissed.contains(n)));
  }

  /** New labels and taints; pods that do not tolerate a NoExecute taint are evicted (kube's taint manager). */
  void edit(Node n, SortedMap<String, String> labels, List<Taint> taints) {
    boolean taintsChanged = !taints.equals(n.taints());
    boolean labelsChanged = !labels.equals(n.labels());
    if (!taintsChanged && !labelsChanged) {
      return;
    }
    int onNode = n.podCount();
    List<Object> owners = binder.edit(n, labels, taints);
    if (taintsChanged) {
      recorder.podsLost(n.pool(), engine.nodeTaintsChanged(n, owners, onNode - n.podCount()));
    }
    if (labelsChanged) {
      engine.nodeLabelsChanged(n);
    }
  }

  /**
   * The node named {@code name}, present now; refused when no node of that name was added yet, or it was
   * removed.
   */
  Node present(String name) {
    Node n = cluster.byName(name);
    if (n == null) {
      throw new ActionRefused("node " + name + " does not exist: no node of that name has joined the cluster");
    }
    if (n.removed()) {
      throw new ActionRefused("node " + name + " does not exist: it was removed at "
          + Durations.format(removedAt.get(name)));
    }
    return n;
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
    removedAt.put(n.name(), loop.now());
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

  /**
   * The named nodes (each present now, else refused), or the first {@code count} eligible nodes of
   * {@code pool}.
   */
  List<Node> pick(String pool, int count, List<String> names, Predicate<Node> eligible) {
    List<Node> out = new ArrayList<>();
    List<Node> candidates = new ArrayList<>();
    if (names != null && !names.isEmpty()) {
      for (String name : names) {
        candidates.add(present(name));
      }
    } else {
      candidates = cluster.nodesOf(pool, null);
    }
    for (Node n : candidates) {
      if (eligible.test(n) && (names != null && !names.isEmpty() || out.size() < count)) {
        out.add(n);
      }
    }
    return out;
  }
}
