package batchsim.core.world.kueue;

import batchsim.core.kueue.Workload;

/**
 * One remote copy of a manager's workload on one worker (Kueue cloneForCreate): being created (no
 * {@link #copy} yet), present, or being deleted; and what the worker's Kueue did with it, as the manager
 * reads it from the remote workload's conditions.
 */
final class RemoteCopy {
  final WorkerCluster worker;
  /** The manager's workload it copies, or null once the manager let go of it (being deleted). */
  MultiKueueController.Group group;
  /** The manager's workload it copies (a remote copy has its name), kept after the group lets go of it. */
  final Workload local;
  /** The worker's Workload, once created. */
  Workload copy;
  /** Admitted=True since (the earliest admitted copy wins), or UNSET_TIME. */
  long admittedAtMs = Workload.UNSET_TIME;
  boolean started;
  boolean evicted;
  boolean finished;
  /** A priority update is under way (one remote update at a time). */
  boolean updating;

  RemoteCopy(WorkerCluster worker, MultiKueueController.Group group) {
    this.worker = worker;
    this.group = group;
    this.local = group.local;
  }

  boolean admitted() {
    return admittedAtMs != Workload.UNSET_TIME;
  }

  @Override
  public String toString() {
    return (group == null ? copy == null ? "?" : copy.id() : group.local.id()) + "@" + worker.name;
  }
}
