package batchsim.core.world.kueue;

import batchsim.core.engine.Event;
import batchsim.core.engine.EventKind;
import batchsim.core.engine.EventLoop;
import batchsim.core.engine.EventTarget;
import batchsim.core.kueue.CheckState;
import batchsim.core.kueue.Workload;
import batchsim.core.kueue.WorkloadState;
import batchsim.core.model.AdmissionCheckSpec;
import batchsim.core.model.MultiKueueAction;
import batchsim.core.model.MultiKueueSpec;
import batchsim.core.model.PodSetSpec;
import batchsim.core.model.Resources;
import batchsim.core.model.WorkloadSpec;
import batchsim.core.model.ActionRefused;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * MultiKueue's workload controller on the manager (Kueue pkg/controller/admissionchecks/multikueue/workload.go
 * and pkg/controller/workloaddispatcher @ ff69552e), in virtual time. A manager workload that reserves quota
 * in a ClusterQueue with a MultiKueue admission check is copied to the nominated workers (AllAtOnce: every
 * connected worker; Incremental: {@code stepSize} more workers, in configuration order, every 5 minutes);
 * the first copy Admitted on its worker wins: the check turns Ready ("The workload was admitted on ..."),
 * the manager's workload is Admitted and the other copies are removed. Its pods run on the worker; its start
 * and finish flow back. A copy evicted on its worker sets the check to Retry (the manager requeues and
 * dispatches again); a manager workload that loses its reservation, finishes or is deleted has every copy
 * removed. Each remote create or delete takes {@code remoteLatency}. A lost worker's copies are neither
 * seen nor touched until it is back; a workload admitted there is requeued once the worker has been lost
 * for {@code workerLostTimeout} ("Admitting remote lost").
 */
final class MultiKueueController implements EventTarget, MultiKueueLink {
  private final KueueAdmission manager;
  private final MultiKueueSpec spec;
  private final EventLoop loop;
  final List<WorkerCluster> workers = new ArrayList<>();
  /** The manager's MultiKueue admission checks. */
  private final Set<String> checks = new TreeSet<>();
  /** The manager workloads being dispatched, in the order they reserved quota. */
  private final Map<Workload, Group> groups = new LinkedHashMap<>();
  /** Groups to reconcile, in the order they changed; {@link #busy} while one is being reconciled. */
  private final Set<Group> queue = new java.util.LinkedHashSet<>();
  private boolean busy;

  /** A manager workload and its copies (Kueue wlGroup), for one reservation. */
  static final class Group {
    final Workload local;
    final String check;
    final RemoteCopy[] remotes;
    /** The worker whose copy was admitted first (status.clusterName), or -1. */
    int admitting = -1;
    /** Incremental: workers nominated so far, the first ones in configuration order. */
    int nominated;
    long roundStartMs = Long.MIN_VALUE;

    Group(Workload local, String check, int workers) {
      this.local = local;
      this.check = check;
      this.remotes = new RemoteCopy[workers];
    }
  }

  private enum Op { CREATE, DELETE, UPDATE, ROUND, LOST }

  private record Pending(Op op, Object target, int epoch) {
    @Override
    public String toString() {
      return op + " " + target;
    }
  }

  MultiKueueController(KueueAdmission manager, MultiKueueSpec spec) {
    this.manager = manager;
    this.spec = spec;
    this.loop = manager.loop;
    for (AdmissionCheckSpec c : manager.spec.admissionChecks()) {
      if (c.multiKueue()) {
        checks.add(c.name());
      }
    }
    manager.multiKueue = this;
    manager.metrics.metrics.enableMultiKueue();
  }

  void addWorker(String name, KueueAdmission kueue) {
    workers.add(new WorkerCluster(name, workers.size(), kueue, this));
  }

  // ------------------------------------------------------------------ the manager's Kueue

  @Override
  public void reserved(Workload w) {
    Group g = groups.get(w);
    if (g == null) {
      String check = check(w);
      if (check == null || w.check(check) != CheckState.PENDING) {
        return;
      }
      g = new Group(w, check, workers.size());
      groups.put(w, g);
      ((WorkloadRun) w.runtime).remote = true;
    }
    reconcile(g);
  }

  @Override
  public void evicted(Workload w) {
    Group g = groups.get(w);
    if (g != null) {
      reconcile(g);
    }
  }

  @Override
  public void ended(Workload w) {
    evicted(w);
  }

  @Override
  public void priorityChanged(Workload w) {
    evicted(w); // reconciled: step 5 passes the priority on to the copies
  }

  private String check(Workload w) {
    for (String c : w.checks().keySet()) {
      if (checks.contains(c)) {
        return c;
      }
    }
    return null;
  }

  // ------------------------------------------------------------------ reconcile (Kueue reconcileGroup)

  /**
   * Reconciles {@code g}, and then every group that changed meanwhile: what the controller does to the
   * manager's Kueue (check states, finishes) comes back through the hooks, and is handled after.
   */
  void reconcile(Group g) {
    queue.add(g);
    if (busy) {
      return;
    }
    busy = true;
    try {
      while (!queue.isEmpty()) {
        Group next = queue.iterator().next();
        queue.remove(next);
        if (groups.get(next.local) == next) {
          reconcileOnce(next);
        }
      }
    } finally {
      busy = false;
    }
  }

  private void reconcileOnce(Group g) {
    Workload local = g.local;
    // 2. No reservation any more (evicted, finished, deleted): every copy goes.
    if (local.state() != WorkloadState.RESERVED && local.state() != WorkloadState.RUNNING) {
      for (RemoteCopy r : g.remotes) {
        if (r != null) {
          remove(g, r);
        }
      }
      groups.remove(local);
      if (local.state() != WorkloadState.FINISHED && local.state() != WorkloadState.DELETED) {
        nominated(local, null, List.of()); // Kueue resets clusterName and the nomination with an eviction
      }
      return;
    }
    // 3. A copy finished: the manager's workload finishes with it.
    for (RemoteCopy r : g.remotes) {
      if (visible(r) && r.finished && r.worker.index == g.admitting) {
        r.worker.finished++;
        if (local.state() == WorkloadState.RESERVED) {
          manager.runs.remoteStarted(local);
        }
        manager.runs.finishNow(local);
        return;
      }
    }
    boolean ready = local.check(g.check) == CheckState.READY;
    // 4. The admitting copy was evicted on its worker: Retry, to be admitted again.
    if (ready && g.admitting >= 0 && visible(g.remotes[g.admitting]) && g.remotes[g.admitting].evicted) {
      retry(g, "Workload evicted on worker cluster: \"" + workers.get(g.admitting).name
          + "\", resetting for re-admission. Previously: \"Ready\""); // Kueue's text, with the state left
      return;
    }
    // 5. Kueue updates a copy's priority (and class) when the manager workload's changed.
    for (RemoteCopy r : g.remotes) {
      if (visible(r) && !r.finished && !r.updating && r.copy.spec().priority() != local.spec().priority()) {
        r.updating = true;
        loop.schedule(loop.now() + spec.remoteLatencyMs(), EventKind.MULTIKUEUE, this, new Pending(Op.UPDATE, r, 0));
      }
    }
    // 6. The first admitted copy wins (Kueue bestMatchByCondition(Admitted): the earliest transition).
    RemoteCopy best = null;
    for (RemoteCopy r : g.remotes) {
      if (visible(r) && r.admitted() && (best == null || r.admittedAtMs < best.admittedAtMs)
          && (g.admitting < 0 || r.worker.index == g.admitting)) {
        best = r;
      }
    }
    if (ready && g.admitting < 0) {
      // Kueue: a Ready check without a clusterName (set by hand) is treated as misconfigured and retried
      retry(g, "Admission check is Ready but no admitting cluster is recorded; this is unexpected, "
          + "please report it");
      return;
    }
    if (best == null && ready) {
      WorkerCluster admitting = workers.get(g.admitting);
      if (!admitting.connected) {
        long at = admitting.lostSinceMs + spec.workerLostTimeoutMs();
        if (loop.now() < at) {
          return; // the LOST event of this loss comes back then
        }
        admitting.requeuedLost++;
        retry(g, "Admitting remote lost");
      } else {
        retry(g, "Admitting remote no longer exists");
      }
      return;
    }
    if (best != null) {
      for (RemoteCopy r : g.remotes) {
        if (r != null && r != best && r.worker.connected) {
          remove(g, r); // Kueue removes the non-selected copies it can reach
        }
      }
      if (!ready) {
        g.admitting = best.worker.index;
        best.worker.won++;
        nominated(local, best.worker.name, List.of()); // syncAdmittingRemoteState
        // Kueue ReportMultiKueueWorkloadAdmitted: counted when the sync flips the check to Ready
        manager.metrics.metrics.multiKueueWorkloadsAdmittedTotal.inc(local.clusterQueueName(), best.worker.name,
            batchsim.core.metrics.KueueMetrics.STANDALONE);
        manager.setCheckState(local, g.check, CheckState.READY, 0,
            "The workload was admitted on \"" + best.worker.name + "\"");
      }
      if (best.started && local.startedAtMs() == Workload.UNSET_TIME) {
        manager.runs.remoteStarted(local);
      }
      if (best.finished) {
        queue.add(g); // finished while the manager could not see it (a lost worker, now back)
      }
      return;
    }
    nominate(g);
  }

  /**
   * 8. Nominate workers and keep exactly the nominated ones' copies (nominateAndSynchronizeWorkers). Kueue:
   * copies wait until the other admission checks are Ready (allNonMKAdmissionChecksReady), and so does
   * AllAtOnce's nomination; the Incremental dispatcher nominates and runs its rounds from the reservation on
   * (ShouldSkipClusterNomination looks only at the MultiKueue check and clusterName).
   */
  private void nominate(Group g) {
    Workload local = g.local;
    if (g.admitting >= 0 || local.check(g.check) != CheckState.PENDING) {
      return;
    }
    boolean othersReady = true;
    for (Map.Entry<String, CheckState> c : local.checks().entrySet()) {
      othersReady &= c.getKey().equals(g.check) || c.getValue() == CheckState.READY;
    }
    boolean incremental = spec.dispatcher() == MultiKueueSpec.Dispatcher.INCREMENTAL;
    if (!incremental && !othersReady) {
      return;
    }
    int nominated = workers.size();
    if (incremental) {
      // Kueue IncrementalDispatcherReconciler: a round adds stepSize workers; the next comes after the
      // round timeout (5 minutes) unless a copy was admitted meanwhile.
      if (g.roundStartMs == Long.MIN_VALUE || loop.now() - g.roundStartMs >= MultiKueueSpec.INCREMENTAL_ROUND_MS) {
        if (g.nominated < workers.size()) {
          g.nominated = Math.min(workers.size(), g.nominated + spec.stepSize());
          g.roundStartMs = loop.now();
          if (g.nominated < workers.size()) {
            loop.schedule(loop.now() + MultiKueueSpec.INCREMENTAL_ROUND_MS, EventKind.MULTIKUEUE, this,
                new Pending(Op.ROUND, g, 0));
          }
        }
      }
      nominated = g.nominated;
    }
    List<String> names = new ArrayList<>();
    for (WorkerCluster wc : workers) {
      if (wc.index < nominated && (wc.connected || incremental)) {
        names.add(wc.name); // AllAtOnce: the connected workers, sorted; Incremental: every nominated one
      }
    }
    if (!incremental) {
      names.sort(null);
    }
    nominated(local, null, names);
    if (!othersReady) {
      return;
    }
    for (WorkerCluster wc : workers) {
      RemoteCopy r = g.remotes[wc.index];
      if (!wc.connected) {
        continue; // an unavailable cluster is not in the group: nothing is created or removed there
      }
      if (wc.index < nominated && r == null) {
        r = new RemoteCopy(wc, g);
        g.remotes[wc.index] = r;
        loop.schedule(loop.now() + spec.remoteLatencyMs(), EventKind.MULTIKUEUE, this, new Pending(Op.CREATE, r, 0));
      } else if (wc.index >= nominated && r != null) {
        remove(g, r);
      }
    }
  }

  /** Kueue's status.clusterName and status.nominatedClusterNames of the manager's workload, for its status. */
  private void nominated(Workload local, String clusterName, List<String> names) {
    WorkloadRun run = (WorkloadRun) local.runtime;
    if (!java.util.Objects.equals(run.clusterName, clusterName) || !run.nominatedClusters.equals(names)) {
      run.clusterName = clusterName;
      run.nominatedClusters = List.copyOf(names);
      manager.onWorkloadChanged(local);
    }
  }

  /** Kueue updateACS(Retry): the manager evicts its workload and requeues it; the copies go with it. */
  private void retry(Group g, String message) {
    manager.setCheckState(g.local, g.check, CheckState.RETRY, 0, message);
  }

  private static boolean visible(RemoteCopy r) {
    return r != null && r.copy != null && r.worker.connected;
  }

  /** The copy leaves its group; it is deleted now if the worker is reachable, else once it is back. */
  private void remove(Group g, RemoteCopy r) {
    g.remotes[r.worker.index] = null;
    r.group = null;
    if (r.copy == null) {
      return; // its creation is under way: it is dropped when it completes
    }
    if (r.worker.connected) {
      loop.schedule(loop.now() + spec.remoteLatencyMs(), EventKind.MULTIKUEUE, this, new Pending(Op.DELETE, r, 0));
    } else {
      r.worker.orphans.add(r);
    }
  }

  // ------------------------------------------------------------------ remote operations and timers

  @Override
  public void handle(Event e) {
    Pending p = (Pending) e.payload();
    switch (p.op()) {
      case CREATE -> created((RemoteCopy) p.target());
      case DELETE -> {
        RemoteCopy r = (RemoteCopy) p.target();
        if (r.worker.connected) {
          r.worker.delete(r);
        } else {
          r.worker.orphans.add(r); // the request failed: retried when the worker is back
        }
      }
      case UPDATE -> updatePriority((RemoteCopy) p.target());
      case ROUND -> reconcile((Group) p.target());
      case LOST -> {
        WorkerCluster wc = (WorkerCluster) p.target();
        if (!wc.connected && wc.lossEpoch == p.epoch()) {
          groups.values().stream().filter(g -> g.admitting == wc.index).toList().forEach(this::reconcile);
        }
      }
      default -> throw new IllegalStateException(p.toString());
    }
  }

  private void created(RemoteCopy r) {
    Group g = r.group;
    if (g == null || !r.worker.connected) {
      if (g != null) {
        g.remotes[r.worker.index] = null; // the request failed: nominated again when the worker is back
      }
      return;
    }
    Workload copy = r.worker.kueue.submitCopy(copyOf(g.local.spec(), r.worker));
    r.worker.created(r, copy);
    // Kueue ReportMultiKueueWorkloadDispatched: a remote workload created
    manager.metrics.metrics.multiKueueWorkloadsDispatchedTotal.inc(g.local.clusterQueueName(), r.worker.name,
        batchsim.core.metrics.KueueMetrics.STANDALONE);
  }

  /** The copy takes its manager workload's current priority, if it is still there and reachable. */
  private void updatePriority(RemoteCopy r) {
    r.updating = false;
    WorkloadSpec want = r.local.spec();
    Workload copy = r.copy;
    if (r.group == null || !r.worker.connected || copy.spec().priority() == want.priority()
        || copy.state() == WorkloadState.FINISHED || copy.state() == WorkloadState.DELETED) {
      return; // already done, or gone: a later reconcile tries again
    }
    r.worker.kueue.kueue.edits().setPriority(copy, want.priority(), want.priorityClass());
    r.worker.kueue.requestCycle();
  }

  /** Kueue cloneForCreate: the same spec, created now on the worker (resources in the worker's order). */
  private WorkloadSpec copyOf(WorkloadSpec s, WorkerCluster wc) {
    int n = wc.kueue.spec.resources().size();
    List<PodSetSpec> podSets = new ArrayList<>();
    for (PodSetSpec ps : s.podSets()) {
      long[] perPod = new long[n];
      for (int r = 0; r < ps.perPod().size(); r++) {
        perPod[wc.kueue.spec.resources().indexOf(manager.spec.resources().name(r))] = ps.perPod().get(r);
      }
      podSets.add(new PodSetSpec(ps.name(), ps.count(), ps.minCount(), Resources.wrap(perPod), ps.nodeSelector(),
          ps.tolerations(), ps.topology()));
    }
    return new WorkloadSpec(s.id(), s.workloadClass(), s.localQueue(), loop.now(), s.priority(), s.priorityClass(),
        podSets, s.runtimeMs(), s.terminationGraceMs());
  }

  // ------------------------------------------------------------------ timeline: a worker lost and back

  /**
   * Kueue: a remote copy has its manager workload's name, so when the worker is back while that workload
   * holds quota again and its check is Pending, the copy left there is in the group again (and may win,
   * step 6); stale copies are deleted (step 2) only while the manager's workload holds no quota.
   */
  private boolean adopt(RemoteCopy r) {
    Group g = groups.get(r.local);
    if (g == null || g.remotes[r.worker.index] != null || r.copy == null
        || r.local.check(g.check) != CheckState.PENDING
        || (r.local.state() != WorkloadState.RESERVED && r.local.state() != WorkloadState.RUNNING)) {
      return false;
    }
    r.group = g;
    g.remotes[r.worker.index] = r;
    return true;
  }

  @Override
  public boolean apply(MultiKueueAction a) {
    if (!(a instanceof MultiKueueAction.WorkerConnection c)) {
      return false;
    }
    WorkerCluster wc = workers.stream().filter(w -> w.name.equals(c.worker())).findFirst().orElseThrow();
    if (wc.connected == c.connected()) {
      throw new ActionRefused("worker " + wc.name + " is " + (c.connected() ? "connected" : "lost") + " already");
    }
    wc.connected = c.connected();
    if (!c.connected()) {
      wc.lostSinceMs = loop.now();
      wc.lossEpoch++;
      loop.schedule(loop.now() + spec.workerLostTimeoutMs(), EventKind.MULTIKUEUE, this,
          new Pending(Op.LOST, wc, wc.lossEpoch));
      return true;
    }
    wc.disconnectedMs += loop.now() - wc.lostSinceMs;
    for (RemoteCopy r : wc.orphans) {
      if (!adopt(r)) {
        loop.schedule(loop.now() + spec.remoteLatencyMs(), EventKind.MULTIKUEUE, this, new Pending(Op.DELETE, r, 0));
      }
    }
    wc.orphans.clear();
    List.copyOf(groups.values()).forEach(this::reconcile); // what happened there meanwhile is read now
    return true;
  }
}
