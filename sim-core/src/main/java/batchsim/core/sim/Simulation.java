package batchsim.core.sim;

import batchsim.core.cluster.ClusterState;
import batchsim.core.cluster.PodBinder;
import batchsim.core.engine.Event;
import batchsim.core.engine.EventKind;
import batchsim.core.engine.EventLoop;
import batchsim.core.kueue.KueueEngine;
import batchsim.core.kueue.Scheduler.CycleOutcome;
import batchsim.core.kueue.Workload;
import batchsim.core.kueue.WorkloadState;
import batchsim.core.metrics.QueueStats;
import batchsim.core.metrics.QueueUsageStat;
import batchsim.core.metrics.Recorder;
import batchsim.core.metrics.RunResult;
import batchsim.core.metrics.TimeSeries;
import batchsim.core.metrics.WorkloadRecord;
import batchsim.core.model.ClusterQueueSpec;
import batchsim.core.model.LocalQueueSpec;
import batchsim.core.model.ResourceSpace;
import batchsim.core.model.SimulationSpec;
import batchsim.core.model.WorkloadSpec;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * One deterministic run of a scenario: the event loop drives arrivals, Kueue scheduling cycles, pod
 * binding, start-up, completion and eviction, and the recorder integrates what happened.
 *
 * <p>A cycle is requested whenever something that could change an admission decision happens (arrival,
 * finish, quota released, parked workloads returned) and runs after everything else at that instant. A
 * cycle that changed nothing (every head went back to the active heap unchanged) is not repeated until
 * the next such event: Kueue would spin on the same answer.
 */
public final class Simulation implements KueueEngine.Host {
  private static final int RECENT_EVENTS = 32;

  final SimulationSpec spec;
  final EventLoop loop = new EventLoop();
  final ClusterState cluster;
  final PodBinder binder;
  final KueueEngine kueue;
  final Recorder recorder;
  final Map<String, String> localQueueToCq = new HashMap<>();
  final Map<String, Integer> cqIndex = new HashMap<>();
  final Arrivals arrivals;
  private final List<Workload> workloads = new ArrayList<>();
  private final List<RejectedArrival> rejected = new ArrayList<>();
  final int nRes;
  final int nFlavors;
  /** Capacity and allocation per flavor (the node pools its labels select) and overall. */
  final CapacityAccounting capacity;
  private final ArrayDeque<String> recent = new ArrayDeque<>();
  private boolean checked;
  private long maxEvents = Long.MAX_VALUE;
  /** Workloads holding quota per ClusterQueue (reserved, running or evicting). */
  private final int[] holding;
  private final Sampler sampler;
  private boolean cycleScheduled;
  final ClusterEvents clusterEvents;
  final ServingChurn churn;
  ProvisioningController provisioning;
  /** [TAS] Topology trees fed with the cluster's nodes; TAS pods bound to their assigned nodes. */
  final TasBinding tas;
  private static final long MAX_SLOW_DOWN_MS = 10;
  private long slowDownMs;
  private long nextCycleNotBefore;
  private boolean bindScheduled;
  private long seq;

  public Simulation(SimulationSpec spec) {
    this.spec = spec;
    ResourceSpace res = spec.resources();
    this.nRes = res.size();
    this.nFlavors = spec.flavors().size();
    this.cluster = new ClusterState(res, spec.nodePools(), spec.podScheduling().scoring());
    this.binder = new PodBinder(cluster, spec.flavors(), new PodBinder.BindListener() {
      @Override
      public void podBound(Object owner, int pool, long[] request, int sign) {
        Simulation.this.podBound(owner, pool, request, sign);
      }

      @Override
      public void nodeEmptied(batchsim.core.cluster.Node n) {
        if (provisioning != null) {
          provisioning.nodeMaybeEmpty(n);
        }
      }
    });
    this.kueue = new KueueEngine(spec.kueue(), res, spec.flavors(), spec.cohorts(), spec.clusterQueues(), loop::now);
    kueue.setHost(this);
    List<String> cqNames = new ArrayList<>();
    for (ClusterQueueSpec cq : spec.clusterQueues()) {
      cqIndex.put(cq.name(), cqNames.size());
      cqNames.add(cq.name());
    }
    for (LocalQueueSpec lq : spec.localQueues()) {
      localQueueToCq.put(lq.name(), lq.clusterQueue());
    }
    int frs = nFlavors * nRes;
    this.recorder = new Recorder(cqNames, CapacityAccounting.slots(spec), cqNames.size() * frs,
        spec.nodePools().size());
    this.holding = new int[cqNames.size()];
    this.capacity = new CapacityAccounting(spec, recorder);
    this.arrivals = new Arrivals(loop, spec.workloadSources());
    this.tas = new TasBinding(this); // [TAS] before the sampler, which asks it for columns
    tas.configure();
    this.sampler = new Sampler();
    this.clusterEvents = new ClusterEvents(this);
    this.churn = new ServingChurn(this);
  }

  private boolean explain;
  private java.util.function.LongConsumer progress;

  /** Called with the virtual time every 65,536 events (the CLI shows progress on a terminal). */
  public Simulation progress(java.util.function.LongConsumer listener) {
    this.progress = listener;
    return this;
  }

  /** Keeps a decision log: every condition change of every workload, for {@code batchsim explain}. */
  public Simulation explain(boolean on) {
    this.explain = on;
    kueue.keepHistory(on);
    return this;
  }

  /** Checks every invariant after every event (slower; on in tests and with --check). */
  public Simulation checked(boolean on) {
    this.checked = on;
    kueue.trackChanges(on);
    return this;
  }

  /** The first finished workload (tests). */
  Workload finishedForTest() {
    for (Workload w : workloads) {
      if (w.state() == WorkloadState.FINISHED) {
        return w;
      }
    }
    return null;
  }

  /** Opens the workload sources and starts the timeline, churn and sampling; every stream split in order. */
  private void start() {
    SplittableRandom root = new SplittableRandom(spec.seed());
    arrivals.open(root);
    clusterEvents.start(root);
    churn.start(root);
    provisioning = new ProvisioningController(this, root.split());
    if (spec.sampleIntervalMs() > 0) {
      loop.schedule(0, EventKind.SAMPLE, null);
    }
  }

  /** Runs until {@code untilMs} (inclusive) and stops, leaving the state inspectable (tests). */
  void runUntil(long untilMs) {
    start();
    Event e;
    while ((e = loop.next(untilMs)) != null) {
      dispatch(e);
    }
  }

  /** Stops the run with an exception after this many events (a guard for tests and debugging). */
  Simulation maxEvents(long max) {
    this.maxEvents = max;
    return this;
  }

  /** Per-workload simulation state kept on the Kueue workload. */
  static final class Runtime {
    final int queue;
    PodBinder.Pods pods;
    /** Bumped when a pending FINISH or PODS_READY event becomes stale (eviction, pod failure). */
    int generation;
    /** Bumped whenever a pending PodsReady timeout becomes stale (ready, evicted, finished). */
    int readyToken;
    /** A serving Deployment's PodGroup: not counted in the batch queue statistics. */
    boolean serving;
    /** The reservation whose quota bookkeeping was done. */
    long reservationAccounted = Long.MIN_VALUE;
    /** The reservation whose start was recorded (time-to-start counts once per admission). */
    long startRecordedFor = Long.MIN_VALUE;

    Runtime(int queue) {
      this.queue = queue;
    }
  }

  private record Timed(Workload w, int generation) {
    @Override
    public String toString() {
      return w.id();
    }
  }

  private record RejectedArrival(WorkloadSpec spec) {}

  /** Runs to the horizon or until no events remain; single-threaded and deterministic. */
  public RunResult run() {
    start();
    long horizon = spec.horizonMs();
    Event e;
    while ((e = loop.next(horizon)) != null) {
      dispatch(e);
      if (checked) {
        check(e);
      }
      if (progress != null && (loop.processed() & 0xFFFF) == 0) {
        progress.accept(loop.now());
      }
      if (loop.processed() > maxEvents) {
        throw new InvariantViolation(loop.now(), List.of("more than " + maxEvents + " events"), new ArrayList<>(recent));
      }
    }
    long end = horizon == SimulationSpec.NO_HORIZON ? loop.now() : horizon;
    loop.advanceTo(end);
    arrivals.close();
    return result(end);
  }

  private void dispatch(Event e) {
    switch (e.kind()) {
      case ARRIVAL -> arrive(arrivals.take((Arrivals.Arrival) e.payload()));
      case SCHEDULE -> cycle();
      case BIND -> bindWaiting();
      case PODS_READY -> podsReady((Timed) e.payload());
      case FINISH -> finish((Timed) e.payload());
      case EVICTION_COMPLETE -> evictionComplete((Timed) e.payload());
      case INADMISSIBLE_REQUEUE -> {
        kueue.processInadmissibleRequeues();
        requestCycle();
      }
      case TIMELINE, NODE_FAIL, NODE_REPAIR -> clusterEvents.handle(e);
      case PROVISIONING_RESULT, BOOKING_EXPIRY, SCALE_DOWN_CHECK -> provisioning.handle(e);
      case SCALE_UP, SCALE_DOWN, POD_GROUP_DELETE -> churn.handle(e);
      case BACKOFF_EXPIRY -> {
        kueue.backoffFinished((Workload) e.payload());
        requestCycle();
      }
      case PODS_READY_TIMEOUT -> podsReadyTimeout((ReadyTimeout) e.payload());
      case SAMPLE -> {
        sampler.sample();
        // Keep sampling while anything else is still to happen (a run without horizon must end).
        if (loop.pending() > 0) {
          loop.schedule(loop.now() + spec.sampleIntervalMs(), EventKind.SAMPLE, null);
        }
      }
    }
  }

  /** Submits a serving PodGroup's workload (kept out of the batch statistics); null for an unknown queue. */
  Workload submitServing(WorkloadSpec s) {
    String cq = localQueueToCq.get(s.localQueue());
    if (cq == null) {
      return null;
    }
    Workload w = kueue.submit(s, cq, s.priority(), seq++, null);
    Runtime rt = new Runtime(cqIndex.get(cq));
    rt.serving = true;
    w.runtime = rt;
    workloads.add(w);
    requestCycle();
    return w;
  }

  /** The Deployment scaled to zero: its workload goes away at once, releasing pods and quota. */
  void deleteServing(Workload w) {
    Runtime rt = (Runtime) w.runtime;
    rt.generation++;
    rt.readyToken++;
    boolean held = w.state() == WorkloadState.RESERVED || w.state() == WorkloadState.RUNNING
        || w.state() == WorkloadState.EVICTING;
    if (held) {
      releasePods(w);
      quotaUsage(w, rt.queue, -1);
      holding[rt.queue]--;
    }
    if (w.state() != WorkloadState.DELETED && w.state() != WorkloadState.FINISHED) {
      kueue.delete(w);
    }
    requestBind();
    requestCycle();
  }

  /** ScaleArrivals: the class's source divides its next gaps by {@code factor}. */
  void scaleArrivals(String workloadClass, double factor) {
    arrivals.scale(workloadClass, factor);
  }

  private void arrive(WorkloadSpec s) {
    String cq = localQueueToCq.get(s.localQueue());
    if (cq == null) {
      rejected.add(new RejectedArrival(s));
      recorder.unknownQueueArrival();
      return;
    }
    Workload w = kueue.submit(s, cq, s.priority(), seq++, null);
    int q = cqIndex.get(cq);
    w.runtime = new Runtime(q);
    workloads.add(w);
    recorder.arrival(q);
    requestCycle();
  }

  void requestCycle() {
    if (!cycleScheduled) {
      cycleScheduled = true;
      long at = Math.max(loop.now() + spec.kueue().cycleLatencyMs(), nextCycleNotBefore);
      loop.schedule(at, EventKind.SCHEDULE, null);
    }
  }

  void requestBind() {
    if (!bindScheduled && binder.hasWaiting()) {
      bindScheduled = true;
      loop.schedule(loop.now(), EventKind.BIND, null);
    }
  }

  private void cycle() {
    cycleScheduled = false;
    CycleOutcome o = kueue.runCycle();
    // Kueue's scheduler loop backs off after a cycle that admitted nothing (wait.SlowDown: 1 ms doubling
    // to 10 ms). A cycle that preempted also waits at least 1 ms: the evictions are API writes, and an
    // instant in virtual time must not host an unbounded preempt/readmit exchange.
    if (o.admitted() > 0 && o.preempted() == 0) {
      slowDownMs = 0;
    } else {
      slowDownMs = o.admitted() > 0 ? 1 : Math.min(slowDownMs == 0 ? 1 : slowDownMs * 2, MAX_SLOW_DOWN_MS);
    }
    nextCycleNotBefore = loop.now() + slowDownMs;
    if (o.changed()) {
      requestCycle();
    }
  }

  // ------------------------------------------------------------------ KueueEngine.Host

  @Override
  public void onQuotaReserved(Workload w) {
    reserved(w);
    provisioning.onQuotaReserved(w);
  }

  /** Quota bookkeeping of a new reservation (once, whether or not admission checks follow). */
  private void reserved(Workload w) {
    Runtime rt = (Runtime) w.runtime;
    if (rt.reservationAccounted == w.reservedAtMs()) {
      return;
    }
    rt.reservationAccounted = w.reservedAtMs();
    if (!rt.serving) {
      long first = w.firstReservedAtMs() == w.reservedAtMs() ? w.reservedAtMs() - w.createdMs() : -1;
      recorder.admitted(rt.queue, first);
      tas.admitted(w, first);
      if (w.evictedAtMs() != Workload.UNSET_TIME) {
        recorder.readmitted(rt.queue, w.reservedAtMs() - w.evictedAtMs());
      }
    }
    holding[rt.queue]++;
    quotaUsage(w, rt.queue, +1);
  }

  @Override
  public void onAdmitted(Workload w) {
    Runtime rt = (Runtime) w.runtime;
    reserved(w);
    if (spec.kueue().waitForPodsReady().enable()) {
      loop.schedule(loop.now() + spec.kueue().waitForPodsReady().timeoutMs(), EventKind.PODS_READY_TIMEOUT,
          new ReadyTimeout(w, rt.readyToken, false));
    }
    int[][] flavors = new int[w.spec().podSets().size()][];
    int[] counts = new int[flavors.length];
    for (int i = 0; i < flavors.length; i++) {
      counts[i] = w.admittedCount(i);
      flavors[i] = new int[nRes];
      for (int r = 0; r < nRes; r++) {
        flavors[i][r] = w.flavorOf(i, r);
      }
    }
    rt.pods = binder.pods(w.spec().podSets(), counts, flavors);
    tas.pin(w, rt.pods); // [TAS] pods go to exactly the nodes of the topology assignment
    if (binder.bind(w, rt.pods)) {
      allBound(w);
    }
  }

  /** [TAS] Kueue's second pass wakes up when a node-replacement backoff ends. */
  @Override
  public void scheduleSecondPass(long atMs) {
    loop.schedule(Math.max(atMs, loop.now()), EventKind.SCHEDULE, null);
  }

  /** [TAS] The unhealthy node was replaced: the pods that were there go to the new nodes. */
  @Override
  public void onTopologyReassigned(Workload w) {
    Runtime rt = (Runtime) w.runtime;
    if (rt.pods != null && tas.pin(w, rt.pods) && binder.bind(w, rt.pods)) {
      allBound(w);
    }
  }

  @Override
  public void onEvicted(Workload w) {
    Runtime rt = (Runtime) w.runtime;
    rt.generation++;
    rt.readyToken++;
    binder.cancel(w); // a workload being evicted gets no new pods
    if (!rt.serving) {
      recorder.evicted(rt.queue, w.evictionReason(), w.preemptionReason());
    }
    if (w.startedAtMs() != Workload.UNSET_TIME) {
      lostWork(w, rt, loop.now() - w.startedAtMs());
    }
    loop.schedule(loop.now() + spec.kueue().terminationGraceMs(), EventKind.EVICTION_COMPLETE,
        new Timed(w, rt.generation));
  }

  @Override
  public void scheduleBackoffExpiry(Workload w, long atMs) {
    loop.schedule(atMs, EventKind.BACKOFF_EXPIRY, w);
  }

  /** A waitForPodsReady deadline; stale once the workload became ready or left. */
  record ReadyTimeout(Workload w, int token, boolean recovery) {
    @Override
    public String toString() {
      return w.id() + (recovery ? " (recovery)" : "");
    }
  }

  private void podsReadyTimeout(ReadyTimeout t) {
    Runtime rt = (Runtime) t.w().runtime;
    if (t.token() == rt.readyToken && t.w().state() == WorkloadState.RESERVED) {
      kueue.podsReadyTimeout(t.w(), t.recovery());
    }
  }

  /**
   * Pods of these owners failed (their node failed, was drained or left). A running workload loses its
   * progress (the job restarts once replacements run) and waits for recovery under waitForPodsReady;
   * replacements are bound by the kube-scheduler as capacity allows.
   */
  void podsLost(List<Object> owners) {
    for (Object o : owners) {
      Workload w = (Workload) o;
      Runtime rt = (Runtime) w.runtime;
      switch (w.state()) {
        case RUNNING -> {
          long ran = loop.now() - w.startedAtMs();
          if (!rt.serving) {
            lostWork(w, rt, ran);
          }
          kueue.podsNotReady(w);
          rt.generation++;
          rt.readyToken++;
          if (spec.kueue().waitForPodsReady().enable()) {
            loop.schedule(loop.now() + spec.kueue().waitForPodsReady().recoveryTimeoutMs(),
                EventKind.PODS_READY_TIMEOUT, new ReadyTimeout(w, rt.readyToken, true));
          }
        }
        case RESERVED -> rt.generation++; // a pending PODS_READY is stale: not all pods run any more
        default -> binder.cancel(w);
      }
    }
    requestBind();
  }

  private void lostWork(Workload w, Runtime rt, long ran) {
    for (int r = 0; r < nRes; r++) {
      long perWorkload = 0;
      for (int i = 0; i < w.spec().podSets().size(); i++) {
        perWorkload += w.podSet(i).perPod().get(r) * w.admittedCount(i);
      }
      if (perWorkload > 0 && ran > 0) {
        recorder.lostWork(rt.queue, spec.resources().name(r), (double) perWorkload * ran);
      }
    }
  }

  @Override
  public void scheduleInadmissibleRequeue(long atMs) {
    loop.schedule(atMs, EventKind.INADMISSIBLE_REQUEUE, null);
  }

  // ------------------------------------------------------------------ pods and lifecycle

  private void allBound(Workload w) {
    Runtime rt = (Runtime) w.runtime;
    loop.schedule(loop.now() + spec.podScheduling().podStartupMs(), EventKind.PODS_READY,
        new Timed(w, rt.generation));
  }

  private void bindWaiting() {
    bindScheduled = false;
    for (Object o : binder.retryWaiting()) {
      allBound((Workload) o);
    }
  }

  private void podsReady(Timed t) {
    Workload w = t.w();
    Runtime rt = (Runtime) w.runtime;
    if (t.generation() != rt.generation || w.state() != WorkloadState.RESERVED) {
      return;
    }
    kueue.markRunning(w);
    rt.readyToken++;
    if (!rt.serving && rt.startRecordedFor != w.reservedAtMs()) {
      rt.startRecordedFor = w.reservedAtMs(); // a restart after a pod failure is not a new start
      recorder.started(rt.queue, loop.now() - w.createdMs());
    }
    if (!rt.serving) { // serving pods run until their Deployment scales down
      loop.schedule(loop.now() + w.spec().runtimeMs(), EventKind.FINISH, new Timed(w, rt.generation));
    }
  }

  private void finish(Timed t) {
    Workload w = t.w();
    Runtime rt = (Runtime) w.runtime;
    if (t.generation() != rt.generation || w.state() != WorkloadState.RUNNING) {
      return;
    }
    releasePods(w);
    quotaUsage(w, rt.queue, -1);
    kueue.finish(w);
    holding[rt.queue]--;
    recorder.finished(rt.queue, loop.now() - w.createdMs());
    requestBind();
    requestCycle();
  }

  private void evictionComplete(Timed t) {
    Workload w = t.w();
    Runtime rt = (Runtime) w.runtime;
    releasePods(w);
    quotaUsage(w, rt.queue, -1);
    kueue.evictionComplete(w);
    holding[rt.queue]--;
    if (!rt.serving) {
      recorder.requeued(rt.queue);
    }
    requestBind();
    requestCycle();
  }

  private void releasePods(Workload w) {
    Runtime rt = (Runtime) w.runtime;
    if (rt.pods == null) {
      return; // evicted while its admission checks were pending: no pods yet
    }
    binder.release(w, rt.pods);
  }

  /** PodBinder.BindListener: a pod was bound to (+1) or released from (-1) a node of {@code pool}. */
  private void podBound(Object owner, int pool, long[] request, int sign) {
    capacity.allocation(pool, request, sign, loop.now());
  }

  private void quotaUsage(Workload w, int queue, int sign) {
    int frs = nFlavors * nRes;
    for (int i = 0; i < w.spec().podSets().size(); i++) {
      long count = w.admittedCount(i);
      for (int r = 0; r < nRes; r++) {
        int f = w.flavorOf(i, r);
        if (f < 0) {
          continue;
        }
        long amount = r == spec.resources().indexOf(ResourceSpace.PODS) && w.podSet(i).perPod().get(r) == 0
            ? count : w.podSet(i).perPod().get(r) * count;
        recorder.quotaUsage(queue * frs + f * nRes + r, sign * amount,
            kueue.nominal(spec.clusterQueues().get(queue).name(), f, r), loop.now());
      }
    }
  }

  // ------------------------------------------------------------------ invariants

  private void check(Event e) {
    recent.addLast(e.toString());
    if (recent.size() > RECENT_EVENTS) {
      recent.removeFirst();
    }
    List<String> v = new ArrayList<>(kueue.checkQuotaInvariants());
    v.addAll(kueue.checkTouchedWorkloads());
    v.addAll(kueue.takeOperationViolations());
    v.addAll(churn.checkInvariants());
    v.addAll(cluster.checkInvariants());
    if (!v.isEmpty()) {
      throw new InvariantViolation(loop.now(), v, new ArrayList<>(recent));
    }
  }

  // ------------------------------------------------------------------ result

  private RunResult result(long end) {
    long[] pending = new long[spec.clusterQueues().size()];
    long[] reserved = new long[pending.length];
    long[] running = new long[pending.length];
    List<WorkloadRecord> records = new ArrayList<>(workloads.size() + rejected.size());
    for (Workload w : workloads) {
      Runtime rt = (Runtime) w.runtime;
      int q = rt.queue;
      if (rt.serving) {
        records.add(record(w));
        continue;
      }
      switch (w.state()) {
        case PENDING, DEACTIVATED -> pending[q]++;
        case RESERVED, EVICTING -> reserved[q]++;
        case RUNNING -> running[q]++;
        default -> { }
      }
      records.add(record(w));
    }
    for (RejectedArrival r : rejected) {
      WorkloadSpec s = r.spec();
      records.add(new WorkloadRecord(s.id(), s.workloadClass(), s.localQueue(), null, s.priority(), s.createdMs(),
          WorkloadRecord.NEVER, WorkloadRecord.NEVER, WorkloadRecord.NEVER, WorkloadRecord.NEVER,
          WorkloadRecord.NEVER, 0, 0, WorkloadState.REJECTED.name(), "",
          "LocalQueue " + s.localQueue() + " does not exist"));
    }
    List<QueueStats> qs = new ArrayList<>();
    long tp = 0;
    long tr = 0;
    long tu = 0;
    for (int q = 0; q < pending.length; q++) {
      qs.add(recorder.queueStats(q, pending[q], reserved[q], running[q]));
      tp += pending[q];
      tr += reserved[q];
      tu += running[q];
    }
    return new RunResult(spec.name(), spec.seed(), spec.horizonMs(), end, loop.processed(), spec.resources(),
        records, recorder.overallStats(tp, tr, tu), qs, capacity.utilization(end), queueUsage(end),
        recorder.unknownQueueArrivals(), sampler.series(), recorder.overallPreemptionStats(), preemptionStats(),
        capacity.poolStats(end), churn.stats(), tas.stats(), provisioning.stats(), explain ? decisions() : null);
  }

  /** Takes the time-series samples: per queue pending, holding and quota used; per flavor allocation. */
  private final class Sampler {
    private final List<String> columns = new ArrayList<>();
    private final List<int[]> usageSlots = new ArrayList<>(); // {queue, flavor, resource}
    private final List<Long> times = new ArrayList<>();
    private final List<long[]> rows = new ArrayList<>();

    Sampler() {
      for (int q = 0; q < spec.clusterQueues().size(); q++) {
        String name = spec.clusterQueues().get(q).name();
        columns.add("pending:" + name);
        columns.add("holding:" + name);
        columns.add("share:" + name);
        columns.add("evicted:" + name);
        columns.add("preempted:" + name);
      }
      for (int q = 0; q < spec.clusterQueues().size(); q++) {
        String name = spec.clusterQueues().get(q).name();
        for (int f = 0; f < nFlavors; f++) {
          for (int r = 0; r < nRes; r++) {
            if (covers(q, f, r)) {
              columns.add("used:" + name + ":" + spec.flavors().get(f).name() + ":" + spec.resources().name(r));
              columns.add("borrowed:" + name + ":" + spec.flavors().get(f).name() + ":" + spec.resources().name(r));
              usageSlots.add(new int[] {q, f, r});
            }
          }
        }
      }
      columns.addAll(capacity.columns());
      columns.addAll(tas.columns()); // [TAS] free domains, largest fit, per-domain usage
    }

    void sample() {
      long[] row = new long[columns.size()];
      int c = 0;
      for (int q = 0; q < spec.clusterQueues().size(); q++) {
        String name = spec.clusterQueues().get(q).name();
        row[c++] = kueue.pendingCount(name);
        row[c++] = holding[q];
        double share = kueue.share(name);
        row[c++] = Double.isInfinite(share) ? Long.MAX_VALUE : Math.round(share);
        row[c++] = recorder.evictedSoFar(q);
        row[c++] = recorder.preemptedSoFar(q);
      }
      for (int[] u : usageSlots) {
        String name = spec.clusterQueues().get(u[0]).name();
        long used = kueue.usage(name, u[1], u[2]);
        row[c++] = used;
        row[c++] = Math.max(0, used - kueue.nominal(name, u[1], u[2]));
      }
      c = capacity.sample(row, c);
      c = tas.sample(row, c);
      times.add(loop.now());
      rows.add(row);
    }

    TimeSeries series() {
      return times.isEmpty() ? TimeSeries.EMPTY : new TimeSeries(List.copyOf(columns), times, rows);
    }
  }

  private List<batchsim.core.metrics.PreemptionStats> preemptionStats() {
    List<batchsim.core.metrics.PreemptionStats> out = new ArrayList<>();
    for (int q = 0; q < spec.clusterQueues().size(); q++) {
      out.add(recorder.preemptionStats(q));
    }
    return out;
  }

  private Map<String, List<batchsim.core.metrics.Decision>> decisions() {
    Map<String, List<batchsim.core.metrics.Decision>> out = new java.util.LinkedHashMap<>();
    for (Workload w : workloads) {
      List<batchsim.core.metrics.Decision> d = new ArrayList<>();
      for (var c : w.history()) {
        d.add(new batchsim.core.metrics.Decision(c.timeMs(), c.type().kueueName(), c.status(), c.reason(),
            c.message() == null ? "" : c.message()));
      }
      out.put(w.id(), d);
    }
    return out;
  }

  private WorkloadRecord record(Workload w) {
    StringBuilder flavors = new StringBuilder();
    if (w.state() != WorkloadState.PENDING) {
      java.util.TreeMap<String, String> byRes = new java.util.TreeMap<>();
      for (int i = 0; i < w.spec().podSets().size(); i++) {
        for (int r = 0; r < nRes; r++) {
          int f = w.flavorOf(i, r);
          if (f >= 0) {
            byRes.put(spec.resources().name(r), spec.flavors().get(f).name());
          }
        }
      }
      byRes.forEach((r, f) -> flavors.append(flavors.length() == 0 ? "" : ";").append(r).append('=').append(f));
    }
    String msg = w.state() == WorkloadState.PENDING ? w.pendingReason() + ": " + w.pendingMessage() : "";
    if (w.state() == WorkloadState.PENDING && w.pendingReason().isEmpty()) {
      msg = "";
    }
    return new WorkloadRecord(w.id(), w.spec().workloadClass(), w.spec().localQueue(), w.clusterQueueName(),
        w.priority(), w.createdMs(), t(w.firstReservedAtMs()), t(w.reservedAtMs()), t(w.admittedAtMs()),
        t(w.startedAtMs()), t(w.finishedAtMs()), w.evictions(), w.preemptions(), w.state().name(),
        flavors.toString(), msg);
  }

  private static long t(long v) {
    return v == Workload.UNSET_TIME ? WorkloadRecord.NEVER : v;
  }

  private List<QueueUsageStat> queueUsage(long end) {
    List<QueueUsageStat> out = new ArrayList<>();
    int frs = nFlavors * nRes;
    for (int q = 0; q < spec.clusterQueues().size(); q++) {
      String name = spec.clusterQueues().get(q).name();
      for (int f = 0; f < nFlavors; f++) {
        for (int r = 0; r < nRes; r++) {
          long nominal = kueue.nominal(name, f, r);
          int slot = q * frs + f * nRes + r;
          long peak = recorder.peakQuotaUsage(slot);
          if (nominal == 0 && peak == 0 && !covers(q, f, r)) {
            continue;
          }
          double mean = recorder.meanQuotaUsage(slot, end);
          double ratio = nominal == 0 ? (mean == 0 ? Double.NaN : Double.POSITIVE_INFINITY) : mean / nominal;
          out.add(new QueueUsageStat(name, spec.flavors().get(f).name(), spec.resources().name(r), nominal, mean,
              ratio, recorder.meanBorrowed(slot, end), peak));
        }
      }
    }
    return out;
  }

  private boolean covers(int q, int f, int r) {
    String flavor = spec.flavors().get(f).name();
    String res = spec.resources().name(r);
    for (var g : spec.clusterQueues().get(q).resourceGroups()) {
      for (var fq : g.flavors()) {
        if (fq.flavor().equals(flavor) && fq.resources().containsKey(res)) {
          return true;
        }
      }
    }
    return false;
  }

  /** The Kueue engine, for tests that inspect state after a run. */
  public KueueEngine kueue() {
    return kueue;
  }
}
