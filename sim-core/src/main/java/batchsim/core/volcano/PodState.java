package batchsim.core.volcano;

/**
 * The lifecycle of a pod between sessions. Volcano's Bound state is folded into RUNNING: the host calls
 * {@link VolcanoEngine#bindComplete} when the bind (and pod start-up, if modelled) is done.
 */
public enum PodState {
  /** Not bound to a node. */
  PENDING,
  /** A bind was issued and is in flight; the pod counts as allocated but not yet as scheduled. */
  BINDING,
  /** Bound to its node and running. */
  RUNNING,
  /** Evicted; still occupies its node until the host reports it gone. */
  RELEASING,
  SUCCEEDED,
  FAILED
}
