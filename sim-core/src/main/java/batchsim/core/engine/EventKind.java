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
  /** A failed node is repaired (capacity comes back before anything else at this instant asks for it). */
  NODE_REPAIR,
  /** A timeline action (node failures, drains, quota changes, queue stops, ...). */
  TIMELINE,
  /** A node of a pool with a failure model fails, or a NotReady node's pods are evicted (node lifecycle). */
  NODE_FAIL,
  /** Pod start-up delay elapsed: the workload starts running. */
  PODS_READY,
  /** A workload is submitted. */
  ARRIVAL,
  /** A serving Deployment scales up (a new PodGroup). */
  SCALE_UP,
  /** A serving Deployment scales to zero (its PodGroup is deleted). */
  SCALE_DOWN,
  /** An attempt to delete a PodGroup object (may fail and be retried). */
  POD_GROUP_DELETE,
  /** A requeuing backoff ends (Requeued=True). */
  BACKOFF_EXPIRY,
  /** A ProvisioningRequest gets its answer (Provisioned or Failed). */
  PROVISIONING_RESULT,
  /** A provisioned booking expires, or is revoked, before the workload was admitted. */
  BOOKING_EXPIRY,
  /** MultiKueue: a remote operation on a worker completes, a dispatch round ends, a lost worker times out. */
  MULTIKUEUE,
  /** An autoscaled pool's node has been empty for the scale-down delay. */
  SCALE_DOWN_CHECK,
  /** Admission fair sharing: Kueue's LocalQueue reconciler decays the LocalQueues' consumed resources. */
  LOCAL_QUEUE_USAGE_SAMPLE,
  /** Kueue's batched return of inadmissible workloads. */
  INADMISSIBLE_REQUEUE,
  /** waitForPodsReady: the pods of an admitted workload are not ready in time. */
  PODS_READY_TIMEOUT,
  /** [controller pace] A Kueue API write landed: its effect (an admission the job sees) becomes visible. */
  API_WRITE,
  /** kube-scheduler binds pending pods. */
  BIND,
  /** One Kueue scheduling cycle. */
  SCHEDULE,
  /** A time-series sample. */
  SAMPLE,
  /** The status record (opt-in) writes the objects that changed at this instant. */
  STATUS_RECORD,
  /** Kueue's controller manager is up again after a restart's down time (last: after all else at the instant). */
  CONTROLLER_RESTART
}
