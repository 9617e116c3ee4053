package batchsim.core.volcano;

/** Volcano's api.TaskStatus, with the status predicates of pkg/scheduler/api/helpers.go. */
enum TaskStatus {
  PENDING,
  ALLOCATED,
  PIPELINED,
  BINDING,
  BOUND,
  RUNNING,
  RELEASING,
  SUCCEEDED,
  FAILED,
  UNKNOWN;

  /** AllocatedStatus: Bound, Binding, Running, Allocated. */
  boolean allocated() {
    return this == BOUND || this == BINDING || this == RUNNING || this == ALLOCATED;
  }

  /** PreemptableStatus: Bound, Running. */
  boolean preemptable() {
    return this == BOUND || this == RUNNING;
  }

  /** ScheduledStatus: Running, Bound, Failed, Succeeded. */
  boolean scheduled() {
    return this == RUNNING || this == BOUND || this == FAILED || this == SUCCEEDED;
  }

  /** CompletedStatus: Failed, Succeeded. */
  boolean completed() {
    return this == FAILED || this == SUCCEEDED;
  }

  static TaskStatus of(PodState s) {
    switch (s) {
      case PENDING: return PENDING;
      case BINDING: return BINDING;
      case RUNNING: return RUNNING;
      case RELEASING: return RELEASING;
      case SUCCEEDED: return SUCCEEDED;
      case FAILED: return FAILED;
      default: throw new AssertionError(s);
    }
  }
}
