package batchsim.core.world.kueue;

import batchsim.core.kueue.Scheduler.CycleOutcome;
import batchsim.core.model.ControllerPaceConfig;

/**
 * What one of Kueue's scheduling cycles costs in time (pkg/scheduler/scheduler.go schedule()): a snapshot of
 * every ClusterQueue in the cache, one head per ClusterQueue nominated (flavor assignment, fit checks), and for
 * heads that do not fit, preemption searches over the candidates of their queue and cohort.
 */
record CycleCost(long baseUs, long perClusterQueueUs, long perHeadUs, long perCandidateUs) {

  static CycleCost of(ControllerPaceConfig c) {
    return new CycleCost(c.cycleBaseUs(), c.perClusterQueueUs(), c.perHeadUs(), c.perCandidateUs());
  }

  /** The cycle's duration in microseconds; with no heads Kueue's loop waits for one and takes no snapshot. */
  long micros(CycleOutcome o, int clusterQueues) {
    if (o.heads() == 0) {
      return 0;
    }
    // Each cost is at most 1 s (ControllerPaceConfig) and each count an int: no sum here can overflow.
    return baseUs + perClusterQueueUs * clusterQueues + perHeadUs * (long) o.heads()
        + perCandidateUs * o.candidates();
  }
}
