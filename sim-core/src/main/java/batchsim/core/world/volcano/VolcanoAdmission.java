package batchsim.core.world.volcano;

import batchsim.core.cluster.Node;
import batchsim.core.engine.Event;
import batchsim.core.engine.EventKind;
import batchsim.core.engine.EventLoop;
import batchsim.core.engine.EventTarget;
import batchsim.core.metrics.Recorder;
import batchsim.core.model.ClusterAction;
import batchsim.core.model.NodeAction;
import batchsim.core.model.SimulationSpec;
import batchsim.core.model.Taint;
import batchsim.core.model.TimelineEvent;
import batchsim.core.model.Toleration;
import batchsim.core.model.WorkloadAction;
import batchsim.core.model.WorkloadSpec;
import batchsim.core.volcano.HierarchyInvariant;
import batchsim.core.volcano.Pod;
import batchsim.core.volcano.PodGroup;
import batchsim.core.volcano.PodGroupEdits;
import batchsim.core.volcano.QueueEdits;
import batchsim.core.volcano.PodState;
import batchsim.core.volcano.SessionOutcome;
import batchsim.core.volcano.VolcanoEngine;
import batchsim.core.volcano.VolcanoNodeSpec;
import batchsim.core.volcano.VolcanoSetup;
import batchsim.core.world.AdmissionEngine;
import batchsim.core.world.SampleSource;
import batchsim.core.world.WorldContext;
import batchsim.core.world.volcano.VolcanoWorkload.PodRun;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Volcano as the world's admission engine: {@link VolcanoEngine} decides in place of Kueue and the
 * kube-scheduler (Volcano admits and places pods itself).
 *
 * <p><b>Sessions.</b> Volcano runs a session every schedule period ({@code wait.Until(runOnce, period)}); here
 * sessions run on that grid (multiples of the period) at the first tick after something changed — an arrival,
 * a finished workload, a bind completing, an evicted pod gone, a node failing, cordoned, added, removed or
 * coming back, or a session that itself changed something (binds, evictions, a PodGroup phase). A session
 * whose inputs did not change would decide the same, so idle ticks are skipped. (Above 100 nodes Volcano's
 * node search starts where the previous search stopped; skipped ticks do not advance that start.)
 *
 * <p><b>Workloads.</b> Each workload is one PodGroup with minMember = all its pods and minResources = all
 * their requests (the gang must fit whole; partial admission is Kueue's). A bind completes after
 * {@code bindDelay} plus the cluster's {@code podStartup}. <i>Time to admission</i> under Volcano is the time
 * the last pod of the gang got its bind (the quota-reserved columns), <i>time to start</i> the time every pod
 * runs; the runtime starts then. An evicted pod (reclaim, preempt) leaves its node after the termination
 * grace period and is Pending again (its controller recreates it); the workload loses its progress and
 * restarts once every pod runs again. Pods of a failed, drained or removed node fail the same way, without an
 * eviction; a cordoned or failed node is not Ready for sessions (a node the timeline made NotReady stays in
 * them, tainted, until its pods are evicted). A finished workload's PodGroup is deleted.
 */
public final class VolcanoAdmission implements AdmissionEngine, EventTarget {
  private final WorldContext world;
  private final SimulationSpec spec;
  private final EventLoop loop;
  private final VolcanoSetup setup;
  private final VolcanoEngine engine;
  private final VolcanoQueues queues;
  private final Map<String, Integer> poolOfNode = new HashMap<>();
  private final GangLifecycle gangs;
  private final QueueEdits queueEdits;
  private final VolcanoTimeline timeline;
  /** Workload id → why its arrival was rejected (Volcano's job webhook, the queue closed or deleted mid-run). */
  private final Map<String, String> rejectedIds = new HashMap<>();
  private boolean sessionScheduled;
  private long lastSessionMs = -1;

  /** @throws IllegalArgumentException when the scenario uses something Volcano runs do not support */
  public VolcanoAdmission(WorldContext world, VolcanoSetup setup) {
    List<String> unsupported = unsupported(world.spec());
    if (!unsupported.isEmpty()) {
      throw new IllegalArgumentException(String.join("; ", unsupported));
    }
    this.world = world;
    this.spec = world.spec();
    this.loop = world.loop();
    this.setup = setup;
    List<VolcanoNodeSpec> nodes = new ArrayList<>();
    for (Node n : world.cluster().nodes()) {
      nodes.add(nodeSpec(n));
    }
    this.engine = new VolcanoEngine(spec.resources(), setup.config(), setup.queues(), nodes, loop::now);
    this.queues = new VolcanoQueues(setup, spec.resources(), VolcanoTimeline.createdQueues(spec.timeline()));
    this.gangs = new GangLifecycle(world, engine, queues, poolOfNode::get, this::requestSession,
        setup.config().bindDelayMs() + spec.podScheduling().podStartupMs(), setup.terminationGraceMs());
    engine.setHost(gangs);
    this.queueEdits = new QueueEdits(engine);
    GangDeletion deletions = new GangDeletion(gangs, new PodGroupEdits(engine, queueEdits), queueEdits, loop,
        setup.terminationGraceMs(), this::requestSession, rejectedIds);
    this.timeline = new VolcanoTimeline(queueEdits, deletions, loop, this::requestSession);
  }

  /** What a run under Volcano cannot do (the scenario loader reports these with their location). */
  public static List<String> unsupported(SimulationSpec spec) {
    List<String> out = new ArrayList<>();
    for (TimelineEvent e : spec.timeline()) {
      if (!isWorldAction(e.action()) && !VolcanoTimeline.applies(e.action())) {
        out.add((e.source() == null ? "timeline" : e.source()) + ": timeline action " + e.action()
            + " is not supported under Volcano"
            + (e.action() instanceof WorkloadAction ? " (a Kueue workload action)" : ""));
      }
    }
    return out;
  }

  private static boolean isWorldAction(ClusterAction a) {
    return a instanceof ClusterAction.FailNodes || a instanceof ClusterAction.CordonNodes
        || a instanceof ClusterAction.UncordonNodes || a instanceof ClusterAction.AddNodes
        || a instanceof ClusterAction.RemoveNodes || a instanceof ClusterAction.ScaleArrivals
        || a instanceof NodeAction;
  }

  /**
   * The node as Volcano sees it; the world's nodes carry the same name, labels and taints. A NotReady node
   * also has kube's node.kubernetes.io/not-ready:NoSchedule taint (taint-node-by-condition).
   */
  private VolcanoNodeSpec nodeSpec(Node n) {
    poolOfNode.put(n.name(), n.pool());
    List<Taint> taints = n.taints();
    if (n.failed()) {
      taints = new ArrayList<>(taints);
      taints.add(Taint.NOT_READY);
    }
    return new VolcanoNodeSpec(n.name(), n.labels(), taints, spec.nodePools().get(n.pool()).allocatable());
  }

  /** The engine, for tests that inspect state after a run. */
  public VolcanoEngine engine() {
    return engine;
  }

  private Recorder recorder() {
    return world.recorder();
  }

  @Override
  public String engineName() {
    return batchsim.core.metrics.RunResult.VOLCANO;
  }

  @Override
  public List<String> reportedQueues() {
    return queues.leaves();
  }

  @Override
  public int usageSlots() {
    return queues.usageSlots();
  }

  /**
   * Checks the engine's invariants (capacity at every level of the queue tree, node capacity, the admission
   * audit) and this run's own bookkeeping against the engine's.
   */
  @Override
  public void checked(boolean on) {
    engine.checked(on);
  }

  @Override
  public void explain(boolean on) {
    gangs.explain = on;
  }

  @Override
  public void start(SplittableRandom root) {
    // Volcano draws no random numbers: ties go to the node declared first.
  }

  /** A session; the gangs' own events go to {@link GangLifecycle}. */
  @Override
  public void handle(Event e) {
    session();
  }

  // ------------------------------------------------------------------ sessions

  /** Asks for a session at the next tick of the schedule-period grid that has not run yet. */
  private void requestSession() {
    if (sessionScheduled) {
      return;
    }
    sessionScheduled = true;
    long period = setup.config().schedulePeriodMs();
    long at = Math.floorDiv(loop.now() + period - 1, period) * period;
    if (at <= lastSessionMs) {
      at = lastSessionMs + period;
    }
    loop.schedule(at, EventKind.SCHEDULE, this, null);
  }

  private void session() {
    sessionScheduled = false;
    lastSessionMs = loop.now();
    SessionOutcome o = engine.runSession();
    gangs.sessionClosed();
    if (o.changed()) {
      requestSession();
    }
  }

  // ------------------------------------------------------------------ VolcanoHost

  // ------------------------------------------------------------------ lifecycle

  @Override
  public boolean submit(WorkloadSpec s) {
    return submit(s, false) != null;
  }

  private VolcanoWorkload submit(WorkloadSpec s, boolean serving) {
    String q = setup.queueFor().get(s.localQueue());
    if (q == null) {
      return null;
    }
    String refused = queueEdits.jobRefusal(q); // the job admission webhook: a queue closed or deleted mid-run
    if (refused != null) {
      rejectedIds.put(s.id(), refused);
      return null;
    }
    PodGroup pg = engine.submit(s, q);
    VolcanoWorkload w = new VolcanoWorkload(s, queues.leaf(q), q, pg);
    w.serving = serving;
    pg.runtime = w;
    for (Pod p : pg.pods()) {
      p.runtime = new PodRun(w, p, spec.resources());
    }
    gangs.arrived(w);
    requestSession();
    return w;
  }

  @Override
  public String rejection(String localQueue) {
    return "LocalQueue " + localQueue + " has no Volcano queue";
  }

  @Override
  public String rejection(WorkloadSpec s) {
    return rejectedIds.getOrDefault(s.id(), rejection(s.localQueue()));
  }

  // ------------------------------------------------------------------ nodes

  @Override
  public int nodeFailed(Node n, List<Object> owners, int podsOnNode) {
    List<Pod> pods = engine.podsOn(n.name());
    engine.setNodeReady(n.name(), false);
    int lost = gangs.podsLost(pods);
    requestSession();
    return lost;
  }

  @Override
  public void nodeRepaired(Node n) {
    engine.updateNode(nodeSpec(n));
    engine.setNodeReady(n.name(), n.schedulable());
    requestSession();
  }

  /** A cordoned node is not Ready for sessions (Volcano's predicates skip unschedulable nodes). */
  @Override
  public int nodeCordoned(Node n, boolean drain, List<Object> owners, int podsOnNode) {
    engine.setNodeReady(n.name(), false);
    int lost = drain ? gangs.podsLost(engine.podsOn(n.name())) : 0;
    requestSession();
    return lost;
  }

  @Override
  public void nodeUncordoned(Node n) {
    engine.setNodeReady(n.name(), n.schedulable());
    requestSession();
  }

  /**
   * A NotReady node stays in Volcano's sessions (node_info.go setNodeState ignores node conditions; the
   * not-ready taint keeps pods off through the predicates' TaintToleration), and its pods run on until kube
   * evicts them ({@link #nodeFailed}, which then takes the node out of sessions as for a failed node).
   */
  @Override
  public void nodeNotReady(Node n) {
    engine.updateNode(nodeSpec(n));
    requestSession();
  }

  /** Sessions see the new taints; Volcano's pods there that do not tolerate a NoExecute taint are evicted. */
  @Override
  public int nodeTaintsChanged(Node n, List<Object> owners, int podsEvicted) {
    engine.updateNode(nodeSpec(n));
    List<Pod> untolerating = new ArrayList<>();
    for (Pod p : engine.podsOn(n.name())) {
      for (Taint t : n.taints()) {
        if ("NoExecute".equals(t.effect()) && !Toleration.toleratesAll(List.of(t), p.spec().tolerations())) {
          untolerating.add(p);
          break;
        }
      }
    }
    int lost = gangs.podsLost(untolerating);
    requestSession();
    return lost;
  }

  @Override
  public void nodeLabelsChanged(Node n) {
    engine.updateNode(nodeSpec(n));
    requestSession();
  }

  @Override
  public void nodeAdded(Node n) {
    engine.addNode(nodeSpec(n));
    requestSession();
  }

  @Override
  public int nodeRemoved(Node n, List<Object> owners, int podsOnNode) {
    int lost = gangs.podsLost(engine.podsOn(n.name()));
    engine.removeNode(n.name());
    requestSession();
    return lost;
  }

  // ------------------------------------------------------------------ timeline and serving

  @Override
  public boolean apply(ClusterAction action) {
    return timeline.apply(action); // the rest is refused by unsupported() before the run
  }

  @Override
  public void timelineActionApplied() {
    // node actions asked for a session themselves; arrival scaling changes nothing a session sees
  }

  /** A serving Deployment scaled up: one PodGroup of its replicas (minMember = replicas), Volcano's own style. */
  @Override
  public Object submitServing(WorkloadSpec s) {
    return submit(s, true);
  }

  @Override
  public void deleteServing(Object workload) {
    gangs.deleteServing((VolcanoWorkload) workload);
  }

  @Override
  public boolean servingRan(Object workload) {
    VolcanoWorkload w = (VolcanoWorkload) workload;
    return w.startedMs != VolcanoWorkload.NEVER || w.running;
  }

  @Override
  public boolean servingDeleted(Object workload) {
    return ((VolcanoWorkload) workload).deleted;
  }

  // ------------------------------------------------------------------ sampling, invariants, result

  @Override
  public SampleSource queueSamples() {
    return new VolcanoSamples(queues, gangs.pending, gangs.holding, gangs.inqueue);
  }

  @Override
  public SampleSource topologySamples() {
    return SampleSource.NONE;
  }

  @Override
  public String stuck() {
    int n = 0;
    VolcanoWorkload first = null;
    for (VolcanoWorkload w : gangs.live) { // with no event left, none binds, runs or is evicted
      if (!w.running && !w.finished && !w.deleted && !w.serving) {
        n++;
        first = first == null ? w : first;
      }
    }
    if (first == null) {
      return null;
    }
    String why = first.pg.lastCondition().isEmpty() ? "never scheduled" : first.pg.lastCondition();
    return n + " workload" + (n == 1 ? "" : "s") + " pending (first: " + first.spec.id() + ": " + why + ")";
  }

  /** The engine's invariants, and this run's view of every live gang against the engine's pods. */
  @Override
  public List<String> checkInvariants() {
    List<String> v = new ArrayList<>();
    for (HierarchyInvariant.Violation x : engine.checkInvariants()) {
      v.add(x.toString());
    }
    for (PodGroup pg : engine.podGroups()) {
      VolcanoWorkload w = (VolcanoWorkload) pg.runtime;
      int bound = 0;
      int up = 0;
      int releasing = 0;
      for (Pod p : pg.pods()) {
        bound += p.state() == PodState.BINDING || p.state() == PodState.RUNNING ? 1 : 0;
        up += p.state() == PodState.RUNNING ? 1 : 0;
        releasing += p.state() == PodState.RELEASING ? 1 : 0;
      }
      if (bound != w.bound || up != w.up || releasing != w.releasing) {
        v.add(w + ": simulation counts " + w.bound + " bound / " + w.up + " running / " + w.releasing
            + " releasing pods, the engine " + bound + " / " + up + " / " + releasing);
      }
      if (w.running && up != w.pods) {
        v.add(w + " is running with " + up + " of " + w.pods + " pods running");
      }
    }
    return v;
  }

  @Override
  public EngineReport report(long end) {
    int n = queues.leaves().size();
    long[] pendingEnd = new long[n];
    long[] boundEnd = new long[n];
    long[] runningEnd = new long[n];
    for (VolcanoWorkload w : gangs.live) {
      if (!w.finished && !w.serving && !w.deleted) {
        if (w.running) {
          runningEnd[w.queue]++;
        } else if (w.admitted) {
          boundEnd[w.queue]++;
        } else {
          pendingEnd[w.queue]++;
        }
      }
      gangs.emit(w);
    }
    return new EngineReport(pendingEnd, boundEnd, runningEnd, queues.usageStats(recorder(), end), null, null, null);
  }
}
