package batchsim.core.world.kueue;

import batchsim.core.kueue.Workload;
import batchsim.core.kueue.WorkloadState;
import batchsim.core.metrics.ClusterResult;
import batchsim.core.metrics.RunResult;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One MultiKueue worker as the manager sees it (a MultiKueueCluster): its Kueue, whether the manager is
 * connected to it, and the remote workload copies on it. It hears what the worker's Kueue does to the copies
 * and tells the manager's controller, which sees it only while connected (Kueue watches the remote
 * workloads; a lost worker's changes are read when it is back).
 */
final class WorkerCluster implements MultiKueueLink {
  final String name;
  final int index;
  final KueueAdmission kueue;
  private final MultiKueueController controller;
  /** The copies on this worker, by the worker's Workload. */
  private final Map<Workload, RemoteCopy> copies = new HashMap<>();
  /** Copies to delete once the connection is back (their manager workload moved on while it was lost). */
  final List<RemoteCopy> orphans = new ArrayList<>();
  boolean connected = true;
  long lostSinceMs;
  /** Bumped at every loss, so a workerLostTimeout check of an earlier loss is stale. */
  int lossEpoch;
  long copiesCreated;
  long copiesRemoved;
  long won;
  long finished;
  long requeuedLost;
  long disconnectedMs;

  WorkerCluster(String name, int index, KueueAdmission kueue, MultiKueueController controller) {
    this.name = name;
    this.index = index;
    this.kueue = kueue;
    this.controller = controller;
    kueue.multiKueue = this;
  }

  /** The copy is created on the worker (its LocalQueue exists there: the scenario checks it). */
  void created(RemoteCopy r, Workload copy) {
    r.copy = copy;
    copies.put(copy, r);
    copiesCreated++;
  }

  /** The copy is deleted on the worker, releasing what it holds there. */
  void delete(RemoteCopy r) {
    Workload w = r.copy;
    copies.remove(w);
    copiesRemoved++;
    if (w.state() == WorkloadState.FINISHED || w.state() == WorkloadState.DELETED) {
      return;
    }
    kueue.runs.leave(w);
    kueue.kueue.edits().delete(w);
    kueue.requestCycle();
    kueue.requestBind();
  }

  @Override
  public void admitted(Workload w) {
    RemoteCopy r = copies.get(w);
    if (r != null) {
      r.admittedAtMs = kueue.loop.now();
      r.evicted = false;
      changed(r);
    }
  }

  @Override
  public void started(Workload w) {
    RemoteCopy r = copies.get(w);
    if (r != null) {
      r.started = true;
      changed(r);
    }
  }

  @Override
  public void evicted(Workload w) {
    RemoteCopy r = copies.get(w);
    if (r != null) {
      r.admittedAtMs = Workload.UNSET_TIME; // Admitted=False, Evicted=True
      r.started = false;
      r.evicted = true;
      changed(r);
    }
  }

  @Override
  public void ended(Workload w) {
    RemoteCopy r = copies.get(w);
    if (r != null && w.state() == WorkloadState.FINISHED) {
      r.finished = true;
      changed(r);
    }
  }

  private void changed(RemoteCopy r) {
    if (connected && r.group != null) {
      controller.reconcile(r.group);
    }
  }

  ClusterResult result(RunResult own, long end) {
    return new ClusterResult(name, own, copiesCreated, copiesRemoved, won, finished, requeuedLost,
        disconnectedMs + (connected ? 0 : end - lostSinceMs));
  }
}
