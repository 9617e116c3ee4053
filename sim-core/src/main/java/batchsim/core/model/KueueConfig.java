package batchsim.core.model;

import java.util.List;

/**
 * Scheduler-wide Kueue settings (the Configuration object plus feature gates batchsim models).
 *
 * @param fairSharing whether the fairSharing block is present
 * @param fairSharingStrategies preemption strategies, in order (default [LessThanOrEqualToFinalShare, LessThanInitialShare])
 * @param cycleLatencyMs virtual time one scheduling cycle takes (0 = instantaneous)
 * @param inadmissibleRequeueDelayMs Kueue's batching delay before parked workloads are retried (1 s)
 * @param terminationGraceMs time from eviction until a victim's pods are gone and its quota is released
 *     (default {@link #DEFAULT_TERMINATION_GRACE_MS}; a workload class may set its own)
 * @param prioritySortingWithinCohort feature gate PrioritySortingWithinCohort (default on)
 * @param partialAdmission feature gate PartialAdmission (default on)
 * @param podsReadyRequeuingTimestamp waitForPodsReady.requeuingStrategy.timestamp (default Eviction)
 * @param waitForPodsReady waitForPodsReady (Kueue v1beta2 default: on, 30 min)
 * @param prioritizePreemptorWorkloads feature gate PrioritizePreemptorWorkloads (alpha, default off): a
 *     ClusterQueue's preemptor waiting for its victims goes first in the cycle's entry order
 * @param admissionFairSharing the admissionFairSharing block, null when absent (admission fair sharing off)
 * @param controllerPace the controllers' pace (cycle cost, API client rate), null when off (the default)
 */
public record KueueConfig(
    boolean fairSharing,
    List<FairSharingStrategy> fairSharingStrategies,
    long cycleLatencyMs,
    long inadmissibleRequeueDelayMs,
    long terminationGraceMs,
    boolean prioritySortingWithinCohort,
    boolean partialAdmission,
    RequeuingTimestamp podsReadyRequeuingTimestamp,
    WaitForPodsReady waitForPodsReady,
    boolean prioritizePreemptorWorkloads,
    AdmissionFairSharing admissionFairSharing,
    ControllerPaceConfig controllerPace) {

  /**
   * Kubernetes' default terminationGracePeriodSeconds (30 s): Kueue keeps an evicted workload's quota until
   * its pods are gone, so an eviction costs this much time before the quota is free again.
   */
  public static final long DEFAULT_TERMINATION_GRACE_MS = 30_000;

  public static final List<FairSharingStrategy> DEFAULT_STRATEGIES = List.of(
      FairSharingStrategy.LESS_THAN_OR_EQUAL_TO_FINAL_SHARE, FairSharingStrategy.LESS_THAN_INITIAL_SHARE);

  /** The settings before the requeuing-timestamp knob existed; that knob takes its default, Eviction. */
  public KueueConfig(boolean fairSharing, List<FairSharingStrategy> fairSharingStrategies, long cycleLatencyMs,
      long inadmissibleRequeueDelayMs, long terminationGraceMs, boolean prioritySortingWithinCohort,
      boolean partialAdmission) {
    this(fairSharing, fairSharingStrategies, cycleLatencyMs, inadmissibleRequeueDelayMs, terminationGraceMs,
        prioritySortingWithinCohort, partialAdmission, RequeuingTimestamp.EVICTION, WaitForPodsReady.DEFAULT, false);
  }

  public KueueConfig(boolean fairSharing, List<FairSharingStrategy> fairSharingStrategies, long cycleLatencyMs,
      long inadmissibleRequeueDelayMs, long terminationGraceMs, boolean prioritySortingWithinCohort,
      boolean partialAdmission, RequeuingTimestamp podsReadyRequeuingTimestamp) {
    this(fairSharing, fairSharingStrategies, cycleLatencyMs, inadmissibleRequeueDelayMs, terminationGraceMs,
        prioritySortingWithinCohort, partialAdmission, podsReadyRequeuingTimestamp, WaitForPodsReady.DEFAULT, false);
  }

  /** The settings without admission fair sharing. */
  public KueueConfig(boolean fairSharing, List<FairSharingStrategy> fairSharingStrategies, long cycleLatencyMs,
      long inadmissibleRequeueDelayMs, long terminationGraceMs, boolean prioritySortingWithinCohort,
      boolean partialAdmission, RequeuingTimestamp podsReadyRequeuingTimestamp, WaitForPodsReady waitForPodsReady,
      boolean prioritizePreemptorWorkloads) {
    this(fairSharing, fairSharingStrategies, cycleLatencyMs, inadmissibleRequeueDelayMs, terminationGraceMs,
        prioritySortingWithinCohort, partialAdmission, podsReadyRequeuingTimestamp, waitForPodsReady,
        prioritizePreemptorWorkloads, null, null);
  }

  public KueueConfig {
    if (podsReadyRequeuingTimestamp == null) {
      podsReadyRequeuingTimestamp = RequeuingTimestamp.EVICTION;
    }
    if (waitForPodsReady == null) {
      waitForPodsReady = WaitForPodsReady.DEFAULT;
    }
  }

  public static KueueConfig defaults() {
    return new KueueConfig(false, DEFAULT_STRATEGIES, 0, 1_000, DEFAULT_TERMINATION_GRACE_MS, true, true,
        RequeuingTimestamp.EVICTION,
        WaitForPodsReady.DEFAULT, false);
  }

  public KueueConfig withPodsReadyRequeuingTimestamp(RequeuingTimestamp t) {
    return new KueueConfig(fairSharing, fairSharingStrategies, cycleLatencyMs, inadmissibleRequeueDelayMs,
        terminationGraceMs, prioritySortingWithinCohort, partialAdmission, t, waitForPodsReady,
        prioritizePreemptorWorkloads, admissionFairSharing, controllerPace);
  }

  public KueueConfig withWaitForPodsReady(WaitForPodsReady w) {
    return new KueueConfig(fairSharing, fairSharingStrategies, cycleLatencyMs, inadmissibleRequeueDelayMs,
        terminationGraceMs, prioritySortingWithinCohort, partialAdmission, podsReadyRequeuingTimestamp, w,
        prioritizePreemptorWorkloads, admissionFairSharing, controllerPace);
  }

  public KueueConfig withPrioritizePreemptorWorkloads(boolean on) {
    return new KueueConfig(fairSharing, fairSharingStrategies, cycleLatencyMs, inadmissibleRequeueDelayMs,
        terminationGraceMs, prioritySortingWithinCohort, partialAdmission, podsReadyRequeuingTimestamp,
        waitForPodsReady, on, admissionFairSharing, controllerPace);
  }

  public KueueConfig withAdmissionFairSharing(AdmissionFairSharing afs) {
    return new KueueConfig(fairSharing, fairSharingStrategies, cycleLatencyMs, inadmissibleRequeueDelayMs,
        terminationGraceMs, prioritySortingWithinCohort, partialAdmission, podsReadyRequeuingTimestamp,
        waitForPodsReady, prioritizePreemptorWorkloads, afs, controllerPace);
  }

  public KueueConfig withControllerPace(ControllerPaceConfig pace) {
    return new KueueConfig(fairSharing, fairSharingStrategies, cycleLatencyMs, inadmissibleRequeueDelayMs,
        terminationGraceMs, prioritySortingWithinCohort, partialAdmission, podsReadyRequeuingTimestamp,
        waitForPodsReady, prioritizePreemptorWorkloads, admissionFairSharing, pace);
  }
}
