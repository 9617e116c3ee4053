package batchsim.workloads.trace;

/** How a trace job ended, as far as the trace says. */
public enum JobStatus {
  COMPLETED,
  FAILED,
  /** Cancelled, or (Alibaba) never scheduled before it was deleted. */
  CANCELLED,
  UNKNOWN
}
