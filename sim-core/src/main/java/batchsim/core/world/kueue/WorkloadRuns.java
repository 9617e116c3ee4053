package batchsim.core.world.kueue;

import batchsim.core.cluster.PodBinder;
import batchsim.core.engine.Event;
import batchsim.core.engine.EventKind;
import batchsim.core.engine.EventLoop;
import batchsim.core.engine.EventTarget;
import batchsim.core.kueue.KueueEngine;
import batchsim.core.kueue.Workload;
import batchsim.core.kueue.WorkloadState;
import batchsim.core.metrics.Recorder;
import batchsim.core.model.ResourceSpace;
import batchsim.core.model.SimulationSpec;
import java.util.List;

/**
 * Kueue workloads running in the world's cluster (Kueue's own lifecycle, reservation to requeue, is in
 * {@code batchsim.core.kueue}): an admitted workload's way through the cluster: quota bookkeeping on reservation, pods to the
 * kube-scheduler emulation on admission, start once every pod is bound (plus pod start-up), finish after
 * its runtime, eviction with the termination grace period, pods lost to node failures and drains, and
 * waitForPodsReady's timeouts.
 */
final class WorkloadRuns implements EventTarget {
  private final KueueAdmission admission;
  private final SimulationSpec spec;
  private final EventLoop loop;
  private final PodBinder binder;
  private final KueueEngine kueue;
  private final int nRes;
  private final int nFlavors;
  /** [elastic] Scaling of elastic jobs (workload slices). */
  final ElasticSlices elastic;

  WorkloadRuns(KueueAdmission admission) {
    this.admission = admission;
    this.spec = admission.spec;
    this.loop = admission.loop;
    this.binder = admission.binder;
    this.kueue = admission.kueue;
    this.nRes = admission.nRes;
    this.nFlavors = spec.flavors().size();
    this.elastic = new ElasticSlices(admission, this);
  }

  private Recorder recorder() {
    return admission.world.recorder();
  }

  static WorkloadRun run(Workload w) {
    return (WorkloadRun) w.runtime;
  }

  /** A pending FINISH, PODS_READY or EVICTION_COMPLETE; stale once the workload's generation moved on. */
  private record Timed(Workload w, int generation) {
    @Override
    public String toString() {
      return w.id();
    }
  }

  /** A waitForPodsReady deadline; stale once the workload became ready or left. */
  private record ReadyTimeout(Workload w, int token, boolean recovery) {
    @Override
    public String toString() {
      return w.id() + (recovery ? " (recovery)" : "");
    }
  }

  @Override
  public void handle(Event e) {
    // Pods start whether or not Kueue is up; finishes, evictions and timeouts are Kueue's to see.
    if (e.kind() != EventKind.PODS_READY && admission.downtime.deferred(e)) {
      return;
    }
    switch (e.kind()) {
      case PODS_READY -> podsReady((Timed) e.payload());
      case FINISH -> finish((Timed) e.payload());
      case EVICTION_COMPLETE -> evictionComplete((Timed) e.payload());
      case PODS_READY_TIMEOUT -> podsReadyTimeout((ReadyTimeout) e.payload());
      default -> throw new IllegalStateException(e.toString());
    }
  }

  /** Quota bookkeeping of a new reservation (once, whether or not admission checks follow). */
  void reserved(Workload w) {
    WorkloadRun rt = run(w);
    if (rt.reservationAccounted == w.reservedAtMs()) {
      return;
    }
    rt.reservationAccounted = w.reservedAtMs();
    if (!rt.serving && !rt.restored) {
      long first = w.firstReservedAtMs() == w.reservedAtMs() ? w.reservedAtMs() - w.createdMs() : -1;
      if (!rt.slice) { // [elastic] a later slice's admission is not the job's
        recorder().admitted(rt.queue, first);
        admission.tas.admitted(w, first);
      }
      if (w.evictedAtMs() != Workload.UNSET_TIME) {
        recorder().readmitted(rt.queue, w.id(), w.reservedAtMs(), w.reservedAtMs() - w.evictedAtMs());
      }
    }
    adopt(w, rt);
    admission.holding[rt.queue]++;
    quotaUsage(w, rt.queue, +1);
  }

  /**
   * [elastic] The slice its admission replaces (the engine's {@link batchsim.core.kueue.WorkloadSlices#held}: not
   * one being evicted, whose quota stays its own until its pods are gone) is finished now (Kueue
   * replaceWorkloadSlice): its quota is this one's (released first, so the books never hold both), its pods become
   * this one's when its pods are made, and a running job runs on to its end.
   */
  private void adopt(Workload w, WorkloadRun rt) {
    Workload old = kueue.edits().slices().held(w);
    if (old == null) {
      return;
    }
    WorkloadRun ort = run(old);
    admission.metrics.finished(old);
    quotaUsage(old, ort.queue, -1);
    admission.holding[ort.queue]--;
    ort.generation++;
    ort.readyToken++;
    rt.adoptedFrom = old;
    rt.carriedEndMs = ort.carriedEndMs != Long.MIN_VALUE ? ort.carriedEndMs
        : old.state() == WorkloadState.RUNNING ? ort.endsAtMs : Long.MIN_VALUE;
  }

  /** [elastic] The replaced slice's pods go: this slice left before its own pods were made. */
  private void releaseAdopted(WorkloadRun rt) {
    if (rt.adoptedFrom != null) {
      releasePods(rt.adoptedFrom);
      rt.adoptedFrom = null;
    }
  }

  /** Admitted: the pods go to the kube-scheduler (TAS pods to the nodes of their topology assignment). */
  void admitted(Workload w) {
    WorkloadRun rt = run(w);
    reserved(w);
    if (rt.remote) {
      return; // MultiKueue: the job runs on the worker that admitted it
    }
    if (spec.kueue().waitForPodsReady().enable()) {
      loop.schedule(loop.now() + spec.kueue().waitForPodsReady().timeoutMs(), EventKind.PODS_READY_TIMEOUT, this,
          new ReadyTimeout(w, rt.readyToken, false));
    }
    makePods(w, rt);
    if (rt.adoptedFrom != null) { // [elastic] the replaced slice's pods run on as this one's; only the added bind
      binder.handOver(rt.adoptedFrom, run(rt.adoptedFrom).pods, w, rt.pods);
      rt.adoptedFrom = null;
    }
    admission.tas.pin(w, rt.pods); // [TAS] pods go to exactly the nodes of the topology assignment
    if (rt.restored) {
      admission.restored.pinToSnapshotNodes(w, rt.pods);
    }
    if (binder.bind(w, rt.pods)) {
      allBound(w);
    }
    if (rt.carriedEndMs != Long.MIN_VALUE) { // [elastic] the running job ends when it would have, bound or not
      rt.endsAtMs = Math.max(loop.now(), rt.carriedEndMs);
      loop.schedule(rt.endsAtMs, EventKind.FINISH, this, new Timed(w, rt.generation));
    }
  }

  private void makePods(Workload w, WorkloadRun rt) {
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
  }

  /**
   * [elastic] An admitted workload's count shrank in place: its quota books follow, and its pods are made
   * again at the new count (released and bound at once, so they take the places the old ones had).
   */
  void resized(Workload w, Runnable change) {
    WorkloadRun rt = run(w);
    quotaUsage(w, rt.queue, -1);
    change.run();
    quotaUsage(w, rt.queue, +1);
    if (rt.pods == null) {
      return; // its admission checks are still pending: no pods yet
    }
    boolean wasBound = rt.pods.allBound();
    releasePods(w);
    makePods(w, rt);
    if (binder.bind(w, rt.pods) && !wasBound && w.state() == WorkloadState.RESERVED) {
      allBound(w);
    }
  }

  /** [TAS] The unhealthy node was replaced: the pods that were there go to the new nodes. */
  void topologyReassigned(Workload w) {
    WorkloadRun rt = run(w);
    if (rt.pods != null && admission.tas.pin(w, rt.pods) && binder.bind(w, rt.pods)) {
      allBound(w);
    }
  }

  void evicted(Workload w) {
    WorkloadRun rt = run(w);
    rt.restored = false; // readmitted later, it is an ordinary workload of the run
    rt.generation++;
    rt.readyToken++;
    rt.carriedEndMs = Long.MIN_VALUE; // readmitted, the job starts over
    releaseAdopted(rt);
    binder.cancel(w); // a workload being evicted gets no new pods
    if (!rt.serving) {
      recorder().evicted(rt.queue, w.id(), loop.now(), w.evictionReason(), w.preemptionReason());
    }
    if (w.startedAtMs() != Workload.UNSET_TIME) {
      lostWork(w, rt, loop.now() - w.startedAtMs());
    }
    // Kueue keeps the victim's quota until its pods are gone (jobframework reconciler), which takes their
    // terminationGracePeriodSeconds; the class's own grace period wins over the scenario's.
    // MultiKueue's manager has no pods of the job: its eviction completes at once.
    long grace = rt.remote ? 0 : w.spec().graceMs(spec.kueue().terminationGraceMs());
    loop.schedule(admission.pace.evictionSeenAt() + grace, EventKind.EVICTION_COMPLETE, this,
        new Timed(w, rt.generation));
  }

  private void podsReadyTimeout(ReadyTimeout t) {
    WorkloadRun rt = run(t.w());
    if (t.token() == rt.readyToken && t.w().state() == WorkloadState.RESERVED) {
      kueue.podsReadyTimeout(t.w());
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
      WorkloadRun rt = run(w);
      switch (w.state()) {
        case RUNNING -> {
          long ran = loop.now() - w.startedAtMs();
          if (!rt.serving) {
            lostWork(w, rt, ran);
          }
          kueue.podsNotReady(w);
          rt.generation++;
          rt.carriedEndMs = Long.MIN_VALUE; // [elastic] the job restarts: a carried end no longer holds
          rt.readyToken++;
          if (spec.kueue().waitForPodsReady().enable()) {
            loop.schedule(loop.now() + spec.kueue().waitForPodsReady().recoveryTimeoutMs(),
                EventKind.PODS_READY_TIMEOUT, this, new ReadyTimeout(w, rt.readyToken, true));
          }
        }
        case RESERVED -> { // a pending PODS_READY is stale: not all pods run any more
          rt.generation++;
          rt.carriedEndMs = Long.MIN_VALUE; // [elastic] and the job restarts once they do
        }
        default -> binder.cancel(w);
      }
    }
    admission.requestBind();
  }

  private void lostWork(Workload w, WorkloadRun rt, long ran) {
    recorder().lostWork(rt.queue, spec.resources(), w.spec().podSets(), w::admittedCount, ran);
  }

  // ------------------------------------------------------------------ pods and lifecycle

  private void allBound(Workload w) {
    WorkloadRun rt = run(w);
    if (rt.restored) {
      PodBinder.forgetSnapshotPins(rt.pods); // its pods are where the snapshot had them
    }
    loop.schedule(loop.now() + (runningAtStart(w) ? 0 : spec.podScheduling().podStartupMs()), EventKind.PODS_READY,
        this, new Timed(w, rt.generation));
  }

  /** Restored with its pods already running: no start-up, and its start is the snapshot's. */
  private static boolean runningAtStart(Workload w) {
    return run(w).restored && w.spec().reservation().running();
  }

  /** Its current reservation was restored at the start (imported live state), not made in the run. */
  static boolean restoredAtStart(Workload w) {
    return run(w).restored;
  }

  void bindWaiting() {
    for (Object o : binder.retryWaiting()) {
      allBound((Workload) o);
    }
  }

  private void podsReady(Timed t) {
    Workload w = t.w();
    WorkloadRun rt = run(w);
    if (t.generation() != rt.generation || w.state() != WorkloadState.RESERVED) {
      return;
    }
    started(w, rt);
    // Serving pods run until their Deployment scales down; [elastic] a slice that replaced a running one has
    // its end (the job's) scheduled since its admission.
    if (!rt.serving && rt.carriedEndMs == Long.MIN_VALUE) {
      rt.endsAtMs = loop.now() + w.spec().runtimeMs() + admission.pace.finishSeenAfterMs();
      loop.schedule(rt.endsAtMs, EventKind.FINISH, this, new Timed(w, rt.generation));
    }
    admission.multiKueue.started(w);
  }

  /** MultiKueue's manager: the workload's pods run on the worker that admitted it. */
  void remoteStarted(Workload w) {
    if (w.state() == WorkloadState.RESERVED) {
      started(w, run(w));
    }
  }

  private void started(Workload w, WorkloadRun rt) {
    if (runningAtStart(w)) {
      kueue.markRunning(w, w.spec().reservation().startedAtMs());
    } else {
      kueue.markRunning(w);
    }
    if (spec.kueue().waitForPodsReady().enable()) {
      admission.metrics.podsReady(w);
    }
    rt.readyToken++;
    if (spec.kueue().waitForPodsReady().blockAdmission()) {
      admission.requestCycle(); // a scheduler blocked on PodsReady may go on
    }
    if (!rt.serving && !rt.restored && !rt.slice && rt.startRecordedFor != w.reservedAtMs()) {
      if (rt.startRecordedFor == Long.MIN_VALUE) {
        elastic.firstStart(w); // [elastic] its class's scaling steps count from here
      }
      rt.startRecordedFor = w.reservedAtMs(); // a restart after a pod failure is not a new start
      recorder().started(rt.queue, loop.now() - w.createdMs());
    }
  }

  private void finish(Timed t) {
    Workload w = t.w();
    WorkloadRun rt = run(w);
    boolean carried = rt.carriedEndMs != Long.MIN_VALUE && w.state() == WorkloadState.RESERVED;
    if (t.generation() == rt.generation && (w.state() == WorkloadState.RUNNING || carried)) {
      finishNow(w);
    }
  }

  /** Finished (here, or for MultiKueue's manager on the worker that ran it): quota and pods are released. */
  void finishNow(Workload w) {
    WorkloadRun rt = run(w);
    releasePods(w);
    quotaUsage(w, rt.queue, -1);
    kueue.finish(w);
    admission.metrics.finished(w);
    elastic.jobFinished(w);
    admission.holding[rt.queue]--;
    recorder().finished(rt.queue, loop.now() - jobCreatedMs(w));
    admission.requestBind();
    admission.requestCycle();
  }

  /** When the job was created: its first slice's creation for an elastic job's later slices. */
  static long jobCreatedMs(Workload w) {
    WorkloadRun rt = run(w);
    return rt.slice ? rt.jobCreatedMs : w.createdMs();
  }

  private void evictionComplete(Timed t) {
    Workload w = t.w();
    WorkloadRun rt = run(w);
    if (t.generation() != rt.generation || w.state() != WorkloadState.EVICTING) {
      return; // it left meanwhile (finished or deleted by a timeline action): nothing is left to release
    }
    releasePods(w);
    quotaUsage(w, rt.queue, -1);
    admission.metrics.evictionCompleting(w);
    // [elastic] a newer slice of its job waits: this one is finished, not requeued
    boolean replaced = kueue.edits().slices().finishEvictedReplaced(w);
    if (!replaced) {
      kueue.evictionComplete(w);
    }
    admission.holding[rt.queue]--;
    if (replaced) {
      admission.metrics.finished(w);
    } else if (!rt.serving) {
      recorder().requeued(rt.queue);
    }
    admission.requestBind();
    admission.requestCycle();
  }

  /** The Deployment scaled to zero: its workload goes away at once, releasing pods and quota. */
  void deleteServing(Workload w) {
    leave(w);
    if (w.state() != WorkloadState.DELETED && w.state() != WorkloadState.FINISHED) {
      kueue.delete(w);
    }
    admission.requestBind();
    admission.requestCycle();
  }

  /**
   * The workload leaves the cluster at once (deleted, or its job ended by a timeline action): its pending
   * events go stale and the pods and quota it holds are released from the books. Kueue's part is the caller's.
   */
  void leave(Workload w) {
    WorkloadRun rt = run(w);
    rt.generation++;
    rt.readyToken++;
    releaseAdopted(rt);
    if (w.holdingQuota()) {
      releasePods(w);
      quotaUsage(w, rt.queue, -1);
      admission.holding[rt.queue]--;
    }
  }

  /** A timeline action ended the job (finishWorkload, failWorkload): its time-in-system counts once. */
  void ended(Workload w) {
    WorkloadRun rt = run(w);
    admission.metrics.finished(w);
    if (!rt.serving) {
      recorder().finished(rt.queue, loop.now() - jobCreatedMs(w));
    }
  }

  /** Invariant: per ClusterQueue, the world's books count as holding quota exactly the workloads Kueue does. */
  List<String> checkHolding() {
    int[] engine = new int[admission.holding.length];
    for (Workload w : admission.live) {
      if (w.holdingQuota()) {
        engine[run(w).queue]++;
      }
    }
    List<String> v = new java.util.ArrayList<>();
    for (int q = 0; q < engine.length; q++) {
      if (engine[q] != admission.holding[q]) {
        v.add("ClusterQueue " + spec.clusterQueues().get(q).name() + ": the world's books hold quota for "
            + admission.holding[q] + " workloads, Kueue for " + engine[q]);
      }
    }
    return v;
  }

  private void releasePods(Workload w) {
    WorkloadRun rt = run(w);
    if (rt.pods == null) {
      return; // evicted while its admission checks were pending: no pods yet
    }
    binder.release(w, rt.pods);
  }

  void quotaUsage(Workload w, int queue, int sign) {
    int frs = nFlavors * nRes;
    int pods = spec.resources().indexOf(ResourceSpace.PODS);
    for (int i = 0; i < w.spec().podSets().size(); i++) {
      long count = w.admittedCount(i);
      for (int r = 0; r < nRes; r++) {
        int f = w.flavorOf(i, r);
        if (f < 0) {
          continue;
        }
        long amount = r == pods && w.podSet(i).perPod().get(r) == 0
            ? count : w.podSet(i).perPod().get(r) * count;
        recorder().quotaUsage(queue * frs + f * nRes + r, sign * amount,
            kueue.nominal(spec.clusterQueues().get(queue).name(), f, r), loop.now());
      }
    }
  }
}
