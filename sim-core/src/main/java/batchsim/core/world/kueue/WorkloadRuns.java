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

  WorkloadRuns(KueueAdmission admission) {
    this.admission = admission;
    this.spec = admission.spec;
    this.loop = admission.loop;
    this.binder = admission.binder;
    this.kueue = admission.kueue;
    this.nRes = admission.nRes;
    this.nFlavors = spec.flavors().size();
  }

  private Recorder recorder() {
    return admission.world.recorder();
  }

  private static WorkloadRun run(Workload w) {
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
      recorder().admitted(rt.queue, first);
      admission.tas.admitted(w, first);
      if (w.evictedAtMs() != Workload.UNSET_TIME) {
        recorder().readmitted(rt.queue, w.id(), w.reservedAtMs(), w.reservedAtMs() - w.evictedAtMs());
      }
    }
    admission.holding[rt.queue]++;
    quotaUsage(w, rt.queue, +1);
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
    admission.tas.pin(w, rt.pods); // [TAS] pods go to exactly the nodes of the topology assignment
    if (rt.restored) {
      admission.restored.pinToSnapshotNodes(w, rt.pods);
    }
    if (binder.bind(w, rt.pods)) {
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
    loop.schedule(loop.now() + grace, EventKind.EVICTION_COMPLETE, this, new Timed(w, rt.generation));
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
          rt.readyToken++;
          if (spec.kueue().waitForPodsReady().enable()) {
            loop.schedule(loop.now() + spec.kueue().waitForPodsReady().recoveryTimeoutMs(),
                EventKind.PODS_READY_TIMEOUT, this, new ReadyTimeout(w, rt.readyToken, true));
          }
        }
        case RESERVED -> rt.generation++; // a pending PODS_READY is stale: not all pods run any more
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
    if (!rt.serving) { // serving pods run until their Deployment scales down
      loop.schedule(loop.now() + w.spec().runtimeMs(), EventKind.FINISH, this, new Timed(w, rt.generation));
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
    if (!rt.serving && !rt.restored && rt.startRecordedFor != w.reservedAtMs()) {
      rt.startRecordedFor = w.reservedAtMs(); // a restart after a pod failure is not a new start
      recorder().started(rt.queue, loop.now() - w.createdMs());
    }
  }

  private void finish(Timed t) {
    if (t.generation() == run(t.w()).generation && t.w().state() == WorkloadState.RUNNING) {
      finishNow(t.w());
    }
  }

  /** Finished (here, or for MultiKueue's manager on the worker that ran it): quota and pods are released. */
  void finishNow(Workload w) {
    WorkloadRun rt = run(w);
    releasePods(w);
    quotaUsage(w, rt.queue, -1);
    kueue.finish(w);
    admission.metrics.finished(w);
    admission.holding[rt.queue]--;
    recorder().finished(rt.queue, loop.now() - w.createdMs());
    admission.requestBind();
    admission.requestCycle();
  }

  private void evictionComplete(Timed t) {
    Workload w = t.w();
    WorkloadRun rt = run(w);
    if (w.state() != WorkloadState.EVICTING) {
      return; // it left meanwhile (finished or deleted by a timeline action): nothing is left to release
    }
    releasePods(w);
    quotaUsage(w, rt.queue, -1);
    admission.metrics.evictionCompleting(w);
    kueue.evictionComplete(w);
    admission.holding[rt.queue]--;
    if (!rt.serving) {
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
      recorder().finished(rt.queue, loop.now() - w.createdMs());
    }
  }

  private void releasePods(Workload w) {
    WorkloadRun rt = run(w);
    if (rt.pods == null) {
      return; // evicted while its admission checks were pending: no pods yet
    }
    binder.release(w, rt.pods);
  }

  private void quotaUsage(Workload w, int queue, int sign) {
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
