package batchsim.core.kueue;

/**
 * The one lifecycle state every simulated workload is in. Kueue spreads this over conditions; the
 * engine keeps a single state so that invariants ("exactly one state") are checkable.
 */
public enum WorkloadState {
  /** Waiting in its ClusterQueue for quota (active heap, inadmissible set, or being scheduled). */
  PENDING,
  /** Holds quota (QuotaReserved=True); its pods are being bound or started. */
  RESERVED,
  /** All pods running (PodsReady); its runtime is elapsing. */
  RUNNING,
  /** Evicted (e.g. preempted) but still holding quota until its pods terminate. */
  EVICTING,
  /** Completed. */
  FINISHED,
  /** Submitted to a LocalQueue that does not exist; reported, never scheduled. */
  REJECTED,
  /** Deleted by its owner (e.g. a Deployment scaled to zero); its quota and pods were released. */
  DELETED,
  /** Deactivated by Kueue (spec.active=false), e.g. after exceeding the requeuing backoff limit. */
  DEACTIVATED
}
