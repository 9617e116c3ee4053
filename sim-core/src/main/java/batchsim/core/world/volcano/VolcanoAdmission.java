package batchsim.core.world.volcano;

import batchsim.core.cluster.Node;
import batchsim.core.engine.Event;
import batchsim.core.engine.EventKind;
import batchsim.core.engine.EventLoop;
import batchsim.core.metrics.Recorder;
import batchsim.core.model.ClusterAction;
import batchsim.core.model.PodSetSpec;
import batchsim.core.model.SimulationSpec;
import batchsim.core.model.TimelineEvent;
import batchsim.core.model.WorkloadSpec;
import batchsim.core.volcano.HierarchyInvariant;
import batchsim.core.volcano.Pod;
import batchsim.core.volcano.PodGroup;
import batchsim.core.volcano.PodGroupPhase;
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
import java.util.LinkedHashMap;
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
 * eviction; a cordoned or failed node is not Ready for sessions. A finished workload's PodGroup is deleted.
 */
public final class VolcanoAdmission implements AdmissionEngine, VolcanoEngine.Host {
  private final WorldContext world;
  private final SimulationSpec spec;
  private final EventLoop loop;
  private final VolcanoSetup setup;
  private final VolcanoEngine engine;
  private final VolcanoQueues queues;
  private final Map<String, Integer> poolOfNode = new HashMap<>();
  private final List<VolcanoWorkload> workloads = new ArrayList<>();
  /** Binds of the session being closed, per workload in bind order. */
  private final Map<VolcanoWorkload, List<Pod>> sessionBinds = new LinkedHashMap<>();
  /** Per leaf queue: workloads waiting for their gang, holding it (admitted, not finished), and Inqueue. */
  private final int[] pending;
  private final int[] holding;
  private final int[] inqueue;
  private final long bindMs;
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
    engine.setHost(this);
    this.queues = new VolcanoQueues(setup, spec.resources());
    this.pending = new int[queues.leaves().size()];
    this.holding = new int[pending.length];
    this.inqueue = new int[pending.length];
    this.bindMs = setup.config().bindDelayMs() + spec.podScheduling().podStartupMs();
  }

  /** What a run under Volcano cannot do (the scenario loader reports these with their location). */
  public static List<String> unsupported(SimulationSpec spec) {
    List<String> out = new ArrayList<>();
    for (TimelineEvent e : spec.timeline()) {
      if (!isWorldAction(e.action())) {
        out.add("timeline action " + e.action().getClass().getSimpleName() + " is not supported under Volcano");
      }
    }
    if (!spec.serving().isEmpty()) {
      out.add("serving Deployments are not supported under Volcano");
    }
    return out;
  }

  private static boolean isWorldAction(ClusterAction a) {
    return a instanceof ClusterAction.FailNodes || a instanceof ClusterAction.CordonNodes
        || a instanceof ClusterAction.UncordonNodes || a instanceof ClusterAction.AddNodes
        || a instanceof ClusterAction.RemoveNodes || a instanceof ClusterAction.ScaleArrivals;
  }

  /** The node as Volcano sees it; the world's nodes carry the same name, labels and taints. */
  private VolcanoNodeSpec nodeSpec(Node n) {
    poolOfNode.put(n.name(), n.pool());
    return new VolcanoNodeSpec(n.name(), n.labels(), n.taints(), spec.nodePools().get(n.pool()).allocatable());
  }

  /** The engine, for tests that inspect state after a run. */
  public VolcanoEngine engine() {
    return engine;
  }

  private Recorder recorder() {
    return world.recorder();
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
    // Volcano keeps no per-workload condition history: PodGroup conditions are in workloads.csv.
  }

  @Override
  public void start(SplittableRandom root) {
    // Volcano draws no random numbers: ties go to the node declared first.
  }

  @Override
  public void handle(Event e) {
    switch (e.kind()) {
      case SCHEDULE -> session();
      case PODS_READY -> bindsDone((BindsDone) e.payload());
      case FINISH -> finish((Timed) e.payload());
      case EVICTION_COMPLETE -> gone(((Gone) e.payload()).pod());
      default -> throw new IllegalStateException("unexpected event under Volcano: " + e);
    }
  }

  private record Timed(VolcanoWorkload w, int generation) {
    @Override
    public String toString() {
      return w.toString();
    }
  }

  /** Pods of one workload bound in one session, whose binds complete together. */
  private record BindsDone(VolcanoWorkload w, List<Pod> pods, long boundAtMs) {
    @Override
    public String toString() {
      return w + " (" + pods.size() + " pods)";
    }
  }

  private record Gone(Pod pod) {
    @Override
    public String toString() {
      return pod.id();
    }
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
    loop.schedule(at, EventKind.SCHEDULE, null);
  }

  private void session() {
    sessionScheduled = false;
    lastSessionMs = loop.now();
    SessionOutcome o = engine.runSession();
    for (Map.Entry<VolcanoWorkload, List<Pod>> b : sessionBinds.entrySet()) {
      VolcanoWorkload w = b.getKey();
      if (!w.admitted && w.bound == w.pods) {
        admitted(w);
      }
      loop.schedule(loop.now() + bindMs, EventKind.PODS_READY, new BindsDone(w, b.getValue(), loop.now()));
    }
    sessionBinds.clear();
    if (o.changed()) {
      requestSession();
    }
  }

  // ------------------------------------------------------------------ VolcanoEngine.Host

  @Override
  public void onBind(Pod pod, String node) {
    PodRun r = (PodRun) pod.runtime;
    VolcanoWorkload w = r.workload;
    r.pool = poolOfNode.get(node);
    r.up = false;
    w.bound++;
    hold(r, +1);
    sessionBinds.computeIfAbsent(w, k -> new ArrayList<>()).add(pod);
  }

  /** Volcano evicts tasks, not jobs: the rest of the gang keeps its nodes while the evicted pods terminate. */
  @Override
  public void onEvict(Pod pod, String node, String reason) {
    PodRun r = (PodRun) pod.runtime;
    VolcanoWorkload w = r.workload;
    unbound(r);
    w.releasing++;
    if (w.evictionSession != engine.sessions()) { // one eviction per workload and session
      w.evictionSession = engine.sessions();
      w.evictions++;
      recorder().evicted(w.queue, "Preempted", reasonName(reason));
      stop(w);
      if (w.admitted) {
        w.admitted = false;
        holding[w.queue]--;
        pending[w.queue]++;
      }
      w.evictedAtMs = loop.now();
    }
    loop.schedule(loop.now() + setup.terminationGraceMs(), EventKind.EVICTION_COMPLETE, new Gone(pod));
  }

  /** Volcano's eviction reasons ("reclaim", "preempt") as preemption reasons: Reclaim, Preempt. */
  private static String reasonName(String reason) {
    return reason.isEmpty() ? reason : Character.toUpperCase(reason.charAt(0)) + reason.substring(1);
  }

  @Override
  public void onPhaseChange(PodGroup pg, PodGroupPhase from, PodGroupPhase to) {
    VolcanoWorkload w = (VolcanoWorkload) pg.runtime;
    if (from == PodGroupPhase.INQUEUE) {
      inqueue[w.queue]--;
    }
    if (to == PodGroupPhase.INQUEUE) {
      inqueue[w.queue]++;
    }
  }

  // ------------------------------------------------------------------ lifecycle

  @Override
  public boolean submit(WorkloadSpec s) {
    String q = setup.queueFor().get(s.localQueue());
    if (q == null) {
      return false;
    }
    PodGroup pg = engine.submit(s, q);
    VolcanoWorkload w = new VolcanoWorkload(s, queues.leaf(q), q, pg);
    pg.runtime = w;
    for (Pod p : pg.pods()) {
      p.runtime = new PodRun(w, p, spec.resources());
    }
    workloads.add(w);
    recorder().arrival(w.queue);
    pending[w.queue]++;
    requestSession();
    return true;
  }

  @Override
  public String rejection(String localQueue) {
    return "LocalQueue " + localQueue + " has no Volcano queue";
  }

  /** Every pod of the gang got its bind: Volcano's admission. */
  private void admitted(VolcanoWorkload w) {
    long now = loop.now();
    w.admitted = true;
    w.admittedMs = now;
    pending[w.queue]--;
    holding[w.queue]++;
    long first = -1;
    if (w.firstAdmittedMs == VolcanoWorkload.NEVER) {
      w.firstAdmittedMs = now;
      first = now - w.spec.createdMs();
    }
    recorder().admitted(w.queue, first);
    if (w.evictedAtMs != VolcanoWorkload.NEVER) {
      recorder().readmitted(w.queue, now - w.evictedAtMs);
      w.evictedAtMs = VolcanoWorkload.NEVER;
    }
  }

  private void bindsDone(BindsDone b) {
    VolcanoWorkload w = b.w();
    for (Pod p : b.pods()) {
      if (p.state() == PodState.BINDING && p.boundAtMs() == b.boundAtMs()) { // else evicted or lost since
        engine.bindComplete(p);
        ((PodRun) p.runtime).up = true;
        w.up++;
      }
    }
    if (!w.running && !w.finished && w.up == w.pods) {
      start(w);
    }
    requestSession(); // Running pods move the PodGroup to Running at the next session close
  }

  private void start(VolcanoWorkload w) {
    w.running = true;
    w.startedMs = loop.now();
    if (w.startRecordedFor != w.admittedMs) { // a restart after lost pods is not a new start
      w.startRecordedFor = w.admittedMs;
      recorder().started(w.queue, loop.now() - w.spec.createdMs());
    }
    loop.schedule(loop.now() + w.spec.runtimeMs(), EventKind.FINISH, new Timed(w, w.generation));
  }

  private void finish(Timed t) {
    VolcanoWorkload w = t.w();
    if (t.generation() != w.generation || !w.running) {
      return;
    }
    for (Pod p : w.pg.pods()) {
      PodRun r = (PodRun) p.runtime;
      if (r.pool >= 0) {
        hold(r, -1);
        r.pool = -1;
      }
    }
    w.running = false;
    w.finished = true;
    w.finishedMs = loop.now();
    w.bound = 0;
    w.up = 0;
    holding[w.queue]--;
    if (w.pg.phase() == PodGroupPhase.INQUEUE) {
      inqueue[w.queue]--; // finished before a session saw its pods running
    }
    engine.deletePodGroup(w.pg); // a Completed PodGroup no longer takes part in scheduling
    recorder().finished(w.queue, loop.now() - w.spec.createdMs());
    requestSession();
  }

  /** An evicted pod is gone from its node; it is Pending again. */
  private void gone(Pod p) {
    if (p.state() != PodState.RELEASING) {
      return;
    }
    PodRun r = (PodRun) p.runtime;
    VolcanoWorkload w = r.workload;
    hold(r, -1);
    r.pool = -1;
    engine.evictionComplete(p);
    if (--w.releasing == 0) {
      recorder().requeued(w.queue);
    }
    requestSession();
  }

  /** Pods of a failed, drained or removed node fail; their controller recreates them Pending. */
  private int podsLost(List<Pod> pods) {
    int lost = 0;
    for (Pod p : pods) {
      if (p.state() != PodState.BINDING && p.state() != PodState.RUNNING) {
        continue; // releasing pods are going anyway
      }
      PodRun r = (PodRun) p.runtime;
      unbound(r);
      hold(r, -1);
      r.pool = -1;
      engine.podFailed(p);
      stop(r.workload);
      lost++;
    }
    return lost;
  }

  /** A pod lost its bind: the gang is one short. */
  private void unbound(PodRun r) {
    r.workload.bound--;
    if (r.up) {
      r.up = false;
      r.workload.up--;
    }
  }

  /** The workload stops running (a pod was evicted or failed): the work so far is lost. */
  private void stop(VolcanoWorkload w) {
    if (!w.running) {
      return;
    }
    long ran = loop.now() - w.startedMs;
    for (int r = 0; r < spec.resources().size(); r++) {
      long perWorkload = 0;
      for (PodSetSpec ps : w.spec.podSets()) {
        perWorkload += ps.perPod().get(r) * ps.count();
      }
      if (perWorkload > 0 && ran > 0) {
        recorder().lostWork(w.queue, spec.resources().name(r), (double) perWorkload * ran);
      }
    }
    w.running = false;
    w.generation++;
  }

  /** A pod takes (+1) or gives back (-1) room on its node and usage in its queue. */
  private void hold(PodRun r, int sign) {
    world.capacity().allocation(r.pool, r.request, sign, loop.now());
    queues.usage(recorder(), r.workload.queueName, r.request, sign, loop.now());
  }

  // ------------------------------------------------------------------ nodes

  @Override
  public int nodeFailed(Node n, List<Object> owners, int podsOnNode) {
    List<Pod> pods = engine.podsOn(n.name());
    engine.setNodeReady(n.name(), false);
    int lost = podsLost(pods);
    requestSession();
    return lost;
  }

  @Override
  public void nodeRepaired(Node n) {
    engine.setNodeReady(n.name(), n.schedulable());
    requestSession();
  }

  /** A cordoned node is not Ready for sessions (Volcano's predicates skip unschedulable nodes). */
  @Override
  public int nodeCordoned(Node n, boolean drain, List<Object> owners, int podsOnNode) {
    engine.setNodeReady(n.name(), false);
    int lost = drain ? podsLost(engine.podsOn(n.name())) : 0;
    requestSession();
    return lost;
  }

  @Override
  public void nodeUncordoned(Node n) {
    engine.setNodeReady(n.name(), n.schedulable());
    requestSession();
  }

  @Override
  public void nodeAdded(Node n) {
    engine.addNode(nodeSpec(n));
    requestSession();
  }

  @Override
  public int nodeRemoved(Node n, List<Object> owners, int podsOnNode) {
    int lost = podsLost(engine.podsOn(n.name()));
    engine.removeNode(n.name());
    requestSession();
    return lost;
  }

  // ------------------------------------------------------------------ timeline and serving (not under Volcano)

  @Override
  public boolean apply(ClusterAction action) {
    return false; // refused by unsupported() before the run
  }

  @Override
  public void timelineActionApplied() {
    // node actions asked for a session themselves; arrival scaling changes nothing a session sees
  }

  @Override
  public Object submitServing(WorkloadSpec s) {
    throw new IllegalStateException("serving Deployments are not supported under Volcano");
  }

  @Override
  public void deleteServing(Object workload) {
    throw new IllegalStateException("serving Deployments are not supported under Volcano");
  }

  @Override
  public boolean servingRan(Object workload) {
    return false;
  }

  @Override
  public boolean servingDeleted(Object workload) {
    return false;
  }

  // ------------------------------------------------------------------ sampling, invariants, result

  @Override
  public SampleSource queueSamples() {
    return new VolcanoSamples(queues, pending, holding, inqueue);
  }

  @Override
  public SampleSource topologySamples() {
    return SampleSource.NONE;
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
    List<batchsim.core.metrics.WorkloadRecord> records = new ArrayList<>(workloads.size());
    for (VolcanoWorkload w : workloads) {
      if (!w.finished) {
        if (w.running) {
          runningEnd[w.queue]++;
        } else if (w.admitted) {
          boundEnd[w.queue]++;
        } else {
          pendingEnd[w.queue]++;
        }
      }
      records.add(w.record());
    }
    return new EngineReport(records, pendingEnd, boundEnd, runningEnd, queues.usageStats(recorder(), end), null,
        null, null);
  }
}
