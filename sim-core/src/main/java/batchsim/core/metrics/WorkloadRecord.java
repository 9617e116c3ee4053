package batchsim.core.metrics;

/**
 * What happened to one workload. Times are virtual milliseconds; {@link #NEVER} marks a milestone the
 * workload did not reach. For a workload evicted and readmitted, the milestones are those of its last
 * admission and {@code evictions} counts how often it lost its reservation.
 *
 * @param clusterQueue the ClusterQueue its LocalQueue maps to (null if the LocalQueue was unknown)
 * @param firstQuotaReservedMs the first time quota was reserved (time-to-reservation is measured from it)
 * @param quotaReservedMs the last time quota was reserved
 * @param admittedMs the last time the workload became Admitted
 * @param startedMs the time all its pods were bound and ready (runtime starts then)
 * @param finishedMs the time it finished
 * @param state its lifecycle state at the end of the run
 * @param flavors the flavors of its last admission, e.g. "gpu=h100,cpu=default"
 * @param lastMessage the last "why pending" or eviction message, empty if none
 */
public record WorkloadRecord(
    String id,
    String workloadClass,
    String localQueue,
    String clusterQueue,
    int priority,
    long createdMs,
    long firstQuotaReservedMs,
    long quotaReservedMs,
    long admittedMs,
    long startedMs,
    long finishedMs,
    int evictions,
    int preemptions,
    String state,
    String flavors,
    String lastMessage) {

  public static final long NEVER = Long.MIN_VALUE; // times may be negative: before the run, for restored workloads
  /** The state of an arrival no queue took. */
  public static final String REJECTED = "REJECTED";
}
