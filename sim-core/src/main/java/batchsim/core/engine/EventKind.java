package batchsim.core.engine;

/**
 * Event kinds in their tie-break order: at the same virtual time, events run in this order (then by
 * sequence number). Capacity is released before it is asked for, and the scheduling cycle runs after
 * everything else that happened at that instant.
 */
public enum EventKind {
  /** An evicted workload's pods are gone; its quota is released. */
  EVICTION_COMPLETE,
  /** A workload finished. */
  FINISH,
  /** Pod start-up delay elapsed: the workload starts running. */
  PODS_READY,
  /** A workload is submitted. */
  ARRIVAL,
  /** Kueue's batched return of inadmissible workloads. */
  INADMISSIBLE_REQUEUE,
  /** kube-scheduler binds pending pods. */
  BIND,
  /** One Kueue scheduling cycle. */
  SCHEDULE,
  /** A time-series sample. */
  SAMPLE
}
