package batchsim.core.sim;

import batchsim.core.engine.Event;
import batchsim.core.engine.EventKind;
import batchsim.core.engine.EventLoop;
import batchsim.core.metrics.PreemptionStats;
import batchsim.core.metrics.QueueStats;
import batchsim.core.metrics.Recorder;
import batchsim.core.metrics.RunResult;
import batchsim.core.metrics.WorkloadRecord;
import batchsim.core.model.NodePoolSpec;
import batchsim.core.model.PodSetSpec;
import batchsim.core.model.SimulationSpec;
import batchsim.core.model.WorkloadSpec;
import batchsim.core.sim.VolcanoWorkload.PodRun;
import batchsim.core.volcano.HierarchyInvariant;
import batchsim.core.volcano.Pod;
import batchsim.core.volcano.PodGroup;
import batchsim.core.volcano.PodGroupPhase;
import batchsim.core.volcano.PodState;
import batchsim.core.volcano.SessionOutcome;
import batchsim.core.volcano.VolcanoEngine;
import batchsim.core.volcano.VolcanoNodeSpec;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * One deterministic run of a scenario under Volcano: the cluster, workloads, timeline, recorder and
 * {@link RunResult} of {@link Simulation}, with {@link VolcanoEngine} deciding in place of Kueue and the
 * kube-scheduler (Volcano admits and places pods itself).
 *
 * <p><b>Sessions.</b> Volcano runs a session every schedule period ({@code wait.Until(runOnce, period)}); here
 * sessions run on that grid (multiples of the period) at the first tick after something changed — an arrival,
 * a finished workload, a bind completing, an evicted pod gone, a node failing or coming back, or a session
 * that itself changed something (binds, evictions, a PodGroup phase). A session whose inputs did not change
 * would decide the same, so idle ticks are skipped. (Above 100 nodes Volcano's node search starts where the
 * previous search stopped; skipped ticks do not advance that start.)
 *
 * <p><b>Workloads.</b> Each workload is one PodGroup with minMember = all its pods and minResources = all
 * their requests (the gang must fit whole; partial admission is Kueue's). A bind completes after
 * {@code bindDelay} plus the cluster's {@code podStartup}. <i>Time to admission</i> under Volcano is the time
 * the last pod of the gang got its bind (the quota-reserved columns), <i>time to start</i> the time every pod
 * runs; the runtime starts then. An evicted pod (reclaim, preempt) leaves its node after the termination
 * grace period and is Pending again (its controller recreates it); the workload loses its progress and
 * restarts once every pod runs again. Pods of a failed node fail the same way, without an eviction. A
 * finished workload's PodGroup is deleted.
 */
public final class VolcanoSimulation implements VolcanoEngine.Host {
  private static final int RECENT_EVENTS = 32;

  final SimulationSpec spec;
  final VolcanoSetup setup;
  final EventLoop loop = new EventLoop();
  final VolcanoEngine engine;
  final Recorder recorder;
  final CapacityAccounting capacity;
  final Arrivals arrivals;
  final VolcanoQueues queues;
  private final VolcanoTimeline timeline;
  private final VolcanoSampler sampler;
  private final Map<String, Integer> poolOfNode = new HashMap<>();
  private final List<VolcanoWorkload> workloads = new ArrayList<>();
  private final List<WorkloadSpec> rejected = new ArrayList<>();
  /** Binds of the session being closed, per workload in bind order. */
  private final Map<VolcanoWorkload, List<Pod>> sessionBinds = new LinkedHashMap<>();
  private final ArrayDeque<String> recent = new ArrayDeque<>();
  /** Per leaf queue: workloads waiting for their gang, and workloads holding it (admitted, not finished). */
  final int[] pending;
  final int[] holding;
  final int[] inqueue;
  private final long bindMs;
  private boolean checked;
  private boolean sessionScheduled;
  private long lastSessionMs = -1;

  /** @throws IllegalArgumentException when the scenario uses something Volcano runs do not support */
  public VolcanoSimulation(SimulationSpec spec, VolcanoSetup setup) {
    List<String> unsupported = VolcanoTimeline.unsupported(spec);
    if (!unsupported.isEmpty()) {
      throw new IllegalArgumentException(String.join("; ", unsupported));
    }
    this.spec = spec;
    this.setup = setup;
    List<VolcanoNodeSpec> nodes = VolcanoNodeSpec.fromPools(spec.nodePools());
    List<NodePoolSpec> pools = spec.nodePools();
    for (int p = 0, k = 0; p < pools.size(); p++) {
      for (int i = 0; i < pools.get(p).count(); i++, k++) {
        poolOfNode.put(nodes.get(k).name(), p);
      }
    }
    this.engine = new VolcanoEngine(spec.resources(), setup.config(), setup.queues(), nodes, loop::now);
    engine.setHost(this);
    this.queues = new VolcanoQueues(setup, spec.resources());
    int slots = CapacityAccounting.slots(spec);
    this.recorder = new Recorder(queues.leaves(), slots, queues.usageSlots(), pools.size());
    this.capacity = new CapacityAccounting(spec, recorder);
    this.arrivals = new Arrivals(loop, spec.workloadSources());
    this.pending = new int[queues.leaves().size()];
    this.holding = new int[pending.length];
    this.inqueue = new int[pending.length];
    this.bindMs = setup.config().bindDelayMs() + spec.podScheduling().podStartupMs();
    this.timeline = new VolcanoTimeline(this);
    this.sampler = new VolcanoSampler(this);
  }

  /**
   * Checks the engine's invariants (capacity at every level of the queue tree, node capacity, the admission
   * audit) after every session, and this simulation's own bookkeeping against the engine's.
   */
  public VolcanoSimulation checked(boolean on) {
    this.checked = on;
    engine.checked(on);
    return this;
  }

  /** The engine, for tests that inspect state after a run. */
  public VolcanoEngine engine() {
    return engine;
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

  /** Runs to the horizon or until no events remain; single-threaded and deterministic. */
  public RunResult run() {
    SplittableRandom root = new SplittableRandom(spec.seed());
    arrivals.open(root); // first, as under Kueue: the same seed gives the same arrivals
    timeline.start(root);
    if (spec.sampleIntervalMs() > 0) {
      loop.schedule(0, EventKind.SAMPLE, null);
    }
    long horizon = spec.horizonMs();
    Event e;
    while ((e = loop.next(horizon)) != null) {
      if (checked) {
        remember(e);
      }
      dispatch(e);
    }
    long end = horizon == SimulationSpec.NO_HORIZON ? loop.now() : horizon;
    loop.advanceTo(end);
    arrivals.close();
    return result(end);
  }

  private void dispatch(Event e) {
    switch (e.kind()) {
      case ARRIVAL -> arrive(arrivals.take((Arrivals.Arrival) e.payload()));
      case SCHEDULE -> session();
      case PODS_READY -> bindsDone((BindsDone) e.payload());
      case FINISH -> finish((Timed) e.payload());
      case EVICTION_COMPLETE -> gone(((Gone) e.payload()).pod());
      case TIMELINE, NODE_FAIL, NODE_REPAIR -> timeline.handle(e);
      case SAMPLE -> {
        sampler.sample();
        if (loop.pending() > 0) {
          loop.schedule(loop.now() + spec.sampleIntervalMs(), EventKind.SAMPLE, null);
        }
      }
      default -> throw new IllegalStateException("unexpected event under Volcano: " + e);
    }
  }

  // ------------------------------------------------------------------ sessions

  /** Asks for a session at the next tick of the schedule-period grid that has not run yet. */
  void requestSession() {
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
    if (checked) {
      check();
    }
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
      recorder.evicted(w.queue, "Preempted", reasonName(reason));
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

  private void arrive(WorkloadSpec s) {
    String q = setup.queueFor().get(s.localQueue());
    if (q == null) {
      rejected.add(s);
      recorder.unknownQueueArrival();
      return;
    }
    PodGroup pg = engine.submit(s, q);
    VolcanoWorkload w = new VolcanoWorkload(s, queues.leaf(q), q, pg);
    pg.runtime = w;
    for (Pod p : pg.pods()) {
      p.runtime = new PodRun(w, p, spec.resources());
    }
    workloads.add(w);
    recorder.arrival(w.queue);
    pending[w.queue]++;
    requestSession();
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
    recorder.admitted(w.queue, first);
    if (w.evictedAtMs != VolcanoWorkload.NEVER) {
      recorder.readmitted(w.queue, now - w.evictedAtMs);
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
      recorder.started(w.queue, loop.now() - w.spec.createdMs());
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
    recorder.finished(w.queue, loop.now() - w.spec.createdMs());
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
      recorder.requeued(w.queue);
    }
    requestSession();
  }

  /** Pods of a failed node fail; their controller recreates them Pending. Returns how many failed. */
  int podsLost(List<Pod> pods) {
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
        recorder.lostWork(w.queue, spec.resources().name(r), (double) perWorkload * ran);
      }
    }
    w.running = false;
    w.generation++;
  }

  /** A pod takes (+1) or gives back (-1) room on its node and usage in its queue. */
  private void hold(PodRun r, int sign) {
    capacity.allocation(r.pool, r.request, sign, loop.now());
    queues.usage(recorder, r.workload.queueName, r.request, sign, loop.now());
  }

  // ------------------------------------------------------------------ invariants

  private void remember(Event e) {
    recent.addLast(e.toString());
    if (recent.size() > RECENT_EVENTS) {
      recent.removeFirst();
    }
  }

  /** The engine's invariants, and this simulation's view of every live gang against the engine's pods. */
  private void check() {
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
    if (!v.isEmpty()) {
      throw new InvariantViolation(loop.now(), v, new ArrayList<>(recent));
    }
  }

  // ------------------------------------------------------------------ result

  private RunResult result(long end) {
    int n = queues.leaves().size();
    long[] pendingEnd = new long[n];
    long[] boundEnd = new long[n];
    long[] runningEnd = new long[n];
    List<WorkloadRecord> records = new ArrayList<>(workloads.size() + rejected.size());
    for (VolcanoWorkload w : workloads) {
      if (w.finished) {
        records.add(record(w));
        continue;
      }
      if (w.running) {
        runningEnd[w.queue]++;
      } else if (w.admitted) {
        boundEnd[w.queue]++;
      } else {
        pendingEnd[w.queue]++;
      }
      records.add(record(w));
    }
    for (WorkloadSpec s : rejected) {
      records.add(new WorkloadRecord(s.id(), s.workloadClass(), s.localQueue(), null, s.priority(), s.createdMs(),
          WorkloadRecord.NEVER, WorkloadRecord.NEVER, WorkloadRecord.NEVER, WorkloadRecord.NEVER,
          WorkloadRecord.NEVER, 0, 0, "REJECTED", "", "LocalQueue " + s.localQueue() + " has no Volcano queue"));
    }
    List<QueueStats> qs = new ArrayList<>();
    List<PreemptionStats> ps = new ArrayList<>();
    long tp = 0;
    long tb = 0;
    long tr = 0;
    for (int q = 0; q < n; q++) {
      qs.add(recorder.queueStats(q, pendingEnd[q], boundEnd[q], runningEnd[q]));
      ps.add(recorder.preemptionStats(q));
      tp += pendingEnd[q];
      tb += boundEnd[q];
      tr += runningEnd[q];
    }
    return new RunResult(spec.name(), spec.seed(), spec.horizonMs(), end, loop.processed(), spec.resources(),
        records, recorder.overallStats(tp, tb, tr), qs, capacity.utilization(end), queues.usageStats(recorder, end),
        recorder.unknownQueueArrivals(), sampler.series(), recorder.overallPreemptionStats(), ps,
        capacity.poolStats(end), List.of(), null, null, null);
  }

  private static WorkloadRecord record(VolcanoWorkload w) {
    WorkloadSpec s = w.spec;
    String msg = w.running || w.finished ? "" : w.pg.lastCondition();
    return new WorkloadRecord(s.id(), s.workloadClass(), s.localQueue(), w.queueName, s.priority(), s.createdMs(),
        w.firstAdmittedMs, w.admittedMs, w.admittedMs, w.startedMs, w.finishedMs, w.evictions, w.evictions,
        w.state(), "", msg);
  }
}
