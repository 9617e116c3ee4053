package batchsim.core.model;

import java.util.List;

/**
 * One submitted workload (a Job, JobSet, ...). {@code id} is unique in the run ("namespace/name" or a
 * generated name); {@code localQueue} names the LocalQueue it is submitted to; {@code createdMs} is the
 * virtual submission time; {@code runtimeMs} is how long it runs once all its pods are up;
 * {@code workloadClass} groups workloads for reports (may be null); {@code terminationGraceMs} is its
 * pods' terminationGracePeriodSeconds (time from eviction until they are gone and quota is released), or
 * {@link #SCENARIO_GRACE} for the scenario's {@code kueue.terminationGracePeriod}. {@code live} is where it
 * stood at the run's start in an imported cluster (holding quota — its {@code runtimeMs} is then what is left
 * of its run — or pending after an eviction), else null.
 */
public record WorkloadSpec(
    String id,
    String workloadClass,
    String localQueue,
    long createdMs,
    int priority,
    String priorityClass,
    List<PodSetSpec> podSets,
    long runtimeMs,
    long terminationGraceMs,
    LiveState live) {

  /** No grace period of its own: the scenario's applies. */
  public static final long SCENARIO_GRACE = -1;

  public WorkloadSpec {
    if (terminationGraceMs < SCENARIO_GRACE) {
      throw new IllegalArgumentException("terminationGraceMs must not be negative: " + terminationGraceMs);
    }
  }

  /** A workload submitted in the run (no reservation at its start). */
  public WorkloadSpec(String id, String workloadClass, String localQueue, long createdMs, int priority,
      String priorityClass, List<PodSetSpec> podSets, long runtimeMs, long terminationGraceMs) {
    this(id, workloadClass, localQueue, createdMs, priority, priorityClass, podSets, runtimeMs, terminationGraceMs,
        null);
  }

  /** The quota it holds at the run's start, or null. */
  public Reservation reservation() {
    return live instanceof Reservation r ? r : null;
  }

  /** This workload with {@code runtimeMs} drawn (for one holding quota: what is left of its run). */
  public WorkloadSpec withRuntime(long runtimeMs) {
    return new WorkloadSpec(id, workloadClass, localQueue, createdMs, priority, priorityClass, podSets, runtimeMs,
        terminationGraceMs, live);
  }

  /** A workload with the scenario's grace period. */
  public WorkloadSpec(String id, String workloadClass, String localQueue, long createdMs, int priority,
      String priorityClass, List<PodSetSpec> podSets, long runtimeMs) {
    this(id, workloadClass, localQueue, createdMs, priority, priorityClass, podSets, runtimeMs, SCENARIO_GRACE);
  }

  /** Its own grace period, else {@code scenarioGraceMs}. */
  public long graceMs(long scenarioGraceMs) {
    return terminationGraceMs == SCENARIO_GRACE ? scenarioGraceMs : terminationGraceMs;
  }
}
