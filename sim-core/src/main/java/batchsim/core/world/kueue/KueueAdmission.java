package batchsim.core.world.kueue;

import batchsim.core.cluster.Node;
import batchsim.core.cluster.PodBinder;
import batchsim.core.engine.Event;
import batchsim.core.engine.EventKind;
import batchsim.core.engine.EventLoop;
import batchsim.core.engine.EventTarget;
import batchsim.core.kueue.CheckState;
import batchsim.core.kueue.KueueEngine;
import batchsim.core.kueue.KueueHost;
import batchsim.core.kueue.WaitCause;
import batchsim.core.kueue.Workload;
import batchsim.core.kueue.WorkloadState;
import batchsim.core.metrics.MetricFamily;
import batchsim.core.model.ClusterAction;
import batchsim.core.model.ClusterQueueSpec;
import batchsim.core.model.LocalQueueSpec;
import batchsim.core.model.QueueObjectAction;
import batchsim.core.model.SimulationSpec;
import batchsim.core.model.WorkloadSpec;
import batchsim.core.world.AdmissionEngine;
import batchsim.core.world.SampleSource;
import batchsim.core.world.EndedWorkloads;
import batchsim.core.world.StatusSink;
import batchsim.core.world.WorldContext;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.SplittableRandom;

/**
 * Kueue as the world's admission engine: workloads go to {@link KueueEngine}, cycles run when something that
 * could change a decision happened, and an admitted workload's pods go to the world's kube-scheduler
 * emulation; the workload starts once all its pods are bound (plus pod start-up), then runs its runtime.
 * A cycle is requested whenever something that could change an admission decision happens (arrival, finish,
 * quota released, parked workloads returned); {@link SchedulerLoop} decides when it runs.
 */
public final class KueueAdmission implements AdmissionEngine, KueueHost, EventTarget {
  final WorldContext world;
  final SimulationSpec spec;
  final EventLoop loop;
  final PodBinder binder;
  final KueueEngine kueue;
  private final Map<String, String> localQueueToCq = new HashMap<>();
  private final Map<String, Integer> cqIndex = new HashMap<>();
  /**
   * The workloads that exist (submitted, not finished nor deleted), in submission order: an ended workload's
   * record goes to the world's sink and Kueue forgets it (only what a later timeline action needs stays).
   */
  final Set<Workload> live = new LinkedHashSet<>();
  /** Ended workloads some timeline action names. */
  final EndedWorkloads ended;
  /** The first workload that finished (tests). */
  private Workload firstFinished;
  /** Workloads holding quota per ClusterQueue (reserved, running or evicting). */
  final int[] holding;
  final int nRes;
  final WorkloadRuns runs;
  private final KueueReport report;
  /** Kueue's metrics (pkg/metrics), fed at the events below and read at sample times. */
  final KueueMetricsFeed metrics;
  /** [TAS] Topology trees fed with the cluster's nodes; TAS pods bound to their assigned nodes. */
  final TasBinding tas;
  ProvisioningController provisioning;
  /** Restarts of Kueue's controller manager and what waits while it is down. */
  final ControllerDowntime downtime;
  private final KueueTimeline timeline = new KueueTimeline(this);
  private final KueueNodes nodes = new KueueNodes(this);
  /** Workloads holding quota at the start (an imported cluster's live state). */
  final RestoredWorkloads restored = new RestoredWorkloads(this);
  /** The opt-in status record, or null. */
  StatusRecorder status;
  /** Checked mode: the status record compares its counts with the engine's. */
  boolean checked;
  boolean explain;
  /** Admission fair sharing's usage samples (only scheduled when it is configured). */
  private final UsageSamples usageSamples = new UsageSamples(this);
  /** When Kueue's scheduler runs its next cycle. */
  final SchedulerLoop scheduler = new SchedulerLoop(this);
  final ControllerPace pace;
  /** MultiKueue: this cluster as the manager ({@link MultiKueueController}) or a worker ({@link WorkerCluster}). */
  MultiKueueLink multiKueue = MultiKueueLink.NONE;
  private boolean bindScheduled;
  private long seq;

  public KueueAdmission(WorldContext world) {
    this.world = world;
    this.spec = world.spec();
    this.loop = world.loop();
    this.binder = world.binder();
    this.nRes = spec.resources().size();
    this.kueue = new KueueEngine(spec.kueue(), spec.resources(), spec.flavors(), spec.cohorts(), spec.clusterQueues(),
        loop::now);
    kueue.setHost(this);
    this.metrics = new KueueMetricsFeed(spec, kueue, loop::now);
    for (ClusterQueueSpec cq : spec.clusterQueues()) {
      cqIndex.put(cq.name(), cqIndex.size());
    }
    for (LocalQueueSpec lq : spec.localQueues()) {
      localQueueToCq.put(lq.name(), lq.clusterQueue());
    }
    this.holding = new int[spec.clusterQueues().size()];
    this.tas = new TasBinding(spec, world.cluster(), binder, kueue);
    this.runs = new WorkloadRuns(this);
    this.pace = ControllerPace.of(this);
    this.report = new KueueReport(this);
    this.downtime = new ControllerDowntime(this);
    kueue.queues().absentAtStart(QueueObjectAction.createdLater(spec.timeline()));
    if (spec.kueue().admissionFairSharing() != null) {
      kueue.enableAdmissionFairSharing(spec.localQueues());
    }
    this.ended = new EndedWorkloads(spec.timeline());
  }

  /** The workloads that exist now, in submission order (read-only; {@code batchsim eta} watches its jobs). */
  public Collection<Workload> liveWorkloads() {
    return Collections.unmodifiableSet(live);
  }

  /** The Kueue engine, for tests that inspect state after a run. */
  public KueueEngine kueue() {
    return kueue;
  }

  @Override
  public String engineName() {
    return batchsim.core.metrics.RunResult.KUEUE;
  }

  @Override
  public List<String> reportedQueues() {
    return spec.clusterQueues().stream().map(ClusterQueueSpec::name).toList();
  }

  @Override
  public int usageSlots() {
    return spec.clusterQueues().size() * spec.flavors().size() * nRes;
  }

  @Override
  public void checked(boolean on) {
    kueue.checks().trackChanges(on);
    checked = on;
  }

  @Override
  public void explain(boolean on) {
    this.explain = on;
    kueue.keepHistory(on);
  }

  @Override
  public boolean recordStatus(StatusSink sink) {
    status = new StatusRecorder(this, sink);
    return true;
  }

  @Override
  public void start(SplittableRandom root) {
    provisioning = new ProvisioningController(this, root.split());
  }

  // ------------------------------------------------------------------ arrivals

  @Override
  public boolean submit(WorkloadSpec s) {
    if (localQueueToCq.containsKey(s.localQueue()) && downtime.deferred(() -> submit(s))) {
      return true; // the job exists; Kueue creates its Workload when it is up again
    }
    return submitCopy(s) != null;
  }

  /** A workload created now (an arrival, or MultiKueue's remote copy on a worker); null without its LocalQueue. */
  Workload submitCopy(WorkloadSpec s) {
    Workload w = submit(s, false);
    if (w != null) {
      world.recorder().arrival(((WorkloadRun) w.runtime).queue);
    }
    return w;
  }

  /** A new workload ([elastic] also a new slice of a job that exists, which is no arrival). */
  Workload submit(WorkloadSpec s, boolean serving) {
    String cq = localQueueToCq.get(s.localQueue());
    if (cq == null) {
      return null;
    }
    Workload w = s.live() != null ? restored.restore(s, cq, seq++) : kueue.submit(s, cq, s.priority(), seq++, null);
    WorkloadRun run = new WorkloadRun(cqIndex.get(cq), seq - 1);
    run.serving = serving;
    run.restored = s.reservation() != null;
    w.runtime = run;
    live.add(w);
    onWorkloadChanged(w); // created: the status record writes it even if the engine holds it at once
    if (run.restored) {
      kueue.restored(w);
    }
    requestCycle();
    return w;
  }

  @Override
  public String stuck() {
    return KueueReport.stuck(live);
  }

  @Override
  public String rejection(String localQueue) {
    return "LocalQueue " + localQueue + " does not exist";
  }

  // ------------------------------------------------------------------ events

  /** Cycles, kube-scheduler binds and Kueue's timers; running workloads and admission checks get their own. */
  @Override
  public void handle(Event e) {
    if (downtime.deferred(e)) {
      return;
    }
    switch (e.kind()) {
      case SCHEDULE -> scheduler.cycle();
      case BIND -> {
        bindScheduled = false;
        runs.bindWaiting();
      }
      case INADMISSIBLE_REQUEUE -> {
        kueue.processInadmissibleRequeues();
        requestCycle();
      }
      case LOCAL_QUEUE_USAGE_SAMPLE -> usageSamples.fired(e.time(), kueue);
      case BACKOFF_EXPIRY -> {
        kueue.backoffFinished((Workload) e.payload());
        requestCycle();
      }
      default -> throw new IllegalStateException("unexpected event under Kueue: " + e);
    }
  }

  void requestCycle() {
    scheduler.request();
  }

  void requestBind() {
    if (!bindScheduled && binder.hasWaiting()) {
      bindScheduled = true;
      loop.schedule(loop.now(), EventKind.BIND, this, null);
    }
  }

  // ------------------------------------------------------------------ KueueHost

  @Override
  public void onQuotaReserved(Workload w) {
    metrics.quotaReserved(w);
    runs.reserved(w);
    provisioning.onQuotaReserved(w);
    multiKueue.reserved(w);
  }

  @Override
  public void onAdmitted(Workload w) {
    metrics.admitted(w);
    pace.admitted(w); // the job sees it at once, or when the admission write landed (controller pace)
    multiKueue.admitted(w);
  }

  @Override
  public boolean watchesWorkloads() {
    return status != null;
  }

  @Override
  public void onWorkloadChanged(Workload w) {
    if (status != null) {
      status.workloadChanged(w);
    }
  }

  @Override
  public void onWorkloadEnded(Workload w) {
    if (!live.remove(w)) {
      return; // ended already (the engine reports a second finish as an operation violation)
    }
    if (firstFinished == null && w.state() == WorkloadState.FINISHED) {
      firstFinished = w;
    }
    WorkloadRun rt = (WorkloadRun) w.runtime;
    if (ended.any()) {
      ended.ended(rt.seq, WorkloadActionsApplier.refusal(w), WorkloadActionsApplier.names(w));
    }
    report.emit(w);
    multiKueue.ended(w);
  }

  /** An admission check controller's verdict, with its message for the status record. */
  void setCheckState(Workload w, String check, CheckState state, long requeueAfterMs, String message) {
    kueue.setCheckState(w, check, state, requeueAfterMs, message);
    if (status != null) {
      status.checkVerdict(w, check, state, message);
    }
    multiKueue.reserved(w); // MultiKueue nominates workers once the other checks are Ready
  }

  /** [TAS] Kueue's second pass wakes up when a node-replacement backoff ends. */
  @Override
  public void scheduleSecondPass(long atMs) {
    loop.schedule(Math.max(atMs, loop.now()), EventKind.SCHEDULE, this, null);
  }

  /** [TAS] The unhealthy node was replaced: the pods that were there go to the new nodes. */
  @Override
  public void onTopologyReassigned(Workload w) {
    runs.topologyReassigned(w);
  }

  @Override
  public void onQuotaWait(String clusterQueue, WaitCause cause, boolean blocked, long atMs) {
    report.holders.quotaWait(clusterQueue, cause, blocked, atMs);
  }

  @Override
  public void onEvicted(Workload w) {
    metrics.evicted(w);
    runs.evicted(w);
    multiKueue.evicted(w);
  }

  @Override
  public void scheduleBackoffExpiry(Workload w, long atMs) {
    loop.schedule(atMs, EventKind.BACKOFF_EXPIRY, this, w);
  }

  @Override
  public void scheduleUsageSample(long atMs) {
    usageSamples.schedule(atMs);
  }

  @Override
  public void scheduleInadmissibleRequeue(long atMs) {
    loop.schedule(atMs, EventKind.INADMISSIBLE_REQUEUE, this, null);
  }

  // ------------------------------------------------------------------ nodes (KueueNodes)

  @Override
  public int nodeFailed(Node n, List<Object> owners, int podsOnNode) {
    return nodes.nodeFailed(n, owners, podsOnNode);
  }

  @Override
  public void nodeRepaired(Node n) {
    nodes.nodeRepaired(n);
  }

  @Override
  public int nodeCordoned(Node n, boolean drain, List<Object> owners, int podsOnNode) {
    return nodes.nodeCordoned(n, drain, owners, podsOnNode);
  }

  @Override
  public void nodeUncordoned(Node n) {
    nodes.nodeUncordoned(n);
  }

  @Override
  public void nodeNotReady(Node n) {
    nodes.nodeNotReady(n);
  }

  @Override
  public int nodeTaintsChanged(Node n, List<Object> owners, int podsEvicted) {
    return nodes.nodeTaintsChanged(n, owners, podsEvicted);
  }

  @Override
  public void nodeLabelsChanged(Node n) {
    nodes.nodeLabelsChanged(n);
  }

  @Override
  public void nodeAdded(Node n) {
    nodes.nodeAdded(n);
  }

  @Override
  public int nodeRemoved(Node n, List<Object> owners, int podsOnNode) {
    return nodes.nodeRemoved(n, owners, podsOnNode);
  }

  @Override
  public void nodeEmptied(Node n) {
    if (provisioning != null) {
      provisioning.nodeMaybeEmpty(n);
    }
  }

  // ------------------------------------------------------------------ timeline

  @Override
  public boolean apply(ClusterAction action) {
    return timeline.apply(action);
  }

  @Override
  public boolean restartController(long downMs) {
    downtime.restart(downMs);
    return true;
  }

  /** Any timeline change may change an admission decision. */
  @Override
  public void timelineActionApplied() {
    if (status != null) {
      status.everythingChanged();
    }
    requestCycle();
  }

  // ------------------------------------------------------------------ serving

  @Override
  public Object submitServing(WorkloadSpec s) {
    return submit(s, true);
  }

  @Override
  public void deleteServing(Object workload) {
    runs.deleteServing((Workload) workload);
  }

  @Override
  public boolean servingRan(Object workload) {
    Workload w = (Workload) workload;
    return w.startedAtMs() != Workload.UNSET_TIME || w.state() == WorkloadState.RUNNING;
  }

  @Override
  public boolean servingDeleted(Object workload) {
    return ((Workload) workload).state() == WorkloadState.DELETED;
  }

  // ------------------------------------------------------------------ sampling, invariants, result

  @Override
  public SampleSource queueSamples() {
    return report.queueSamples();
  }

  @Override
  public SampleSource topologySamples() {
    return tas;
  }

  @Override
  public List<String> checkInvariants() {
    List<String> v = new ArrayList<>(kueue.checks().checkQuotaInvariants());
    v.addAll(kueue.checks().checkTouchedWorkloads());
    v.addAll(kueue.checks().checkWaitingCounts());
    v.addAll(kueue.checks().takeOperationViolations());
    v.addAll(runs.checkHolding()); // the world's books hold quota for exactly the engine's holders
    if (status != null && checked) {
      v.addAll(status.takeViolations());
    }
    return v;
  }

  @Override
  public SortedMap<String, Double> metricSnapshot() {
    return metrics.snapshot();
  }

  @Override
  public List<MetricFamily<?>> metricFamilies() {
    return metrics.metrics.read();
  }

  @Override
  public EngineReport report(long end) {
    return report.build(end, tas.stats(), provisioning.stats());
  }

  /** The first finished workload (tests). */
  Workload finishedForTest() {
    return firstFinished;
  }
}
