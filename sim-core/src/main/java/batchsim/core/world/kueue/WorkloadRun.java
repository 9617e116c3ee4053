package batchsim.core.world.kueue;

import batchsim.core.cluster.PodBinder;

/** What the world tracks of one Kueue workload beside Kueue's own state (kept on {@code Workload.runtime}). */
final class WorkloadRun {
  /** Index of its ClusterQueue (a timeline action may move a pending workload). */
  int queue;
  PodBinder.Pods pods;
  /** Bumped when a pending FINISH or PODS_READY event becomes stale (eviction, pod failure). */
  int generation;
  /** Bumped whenever a pending PodsReady timeout becomes stale (ready, evicted, finished). */
  int readyToken;
  /** A serving Deployment's PodGroup: not counted in the batch queue statistics. */
  boolean serving;
  /**
   * It held quota when the run started (imported live state): that reservation's waits and start are
   * history, not counted in the run's statistics, and its pods already run.
   */
  boolean restored;
  /** MultiKueue's manager: its pods run on a worker cluster; start and finish flow back from there. */
  boolean remote;
  /** MultiKueue's manager: status.clusterName (the admitting worker) and status.nominatedClusterNames. */
  String clusterName;
  java.util.List<String> nominatedClusters = java.util.List.of();
  /** The reservation whose quota bookkeeping was done. */
  long reservationAccounted = Long.MIN_VALUE;
  /** The reservation whose start was recorded (time-to-start counts once per admission). */
  long startRecordedFor = Long.MIN_VALUE;

  /**
   * [elastic] A later slice of an elastic job (not an arrival): the job's arrival, admission and start were
   * counted with its first slice, and its finish counts from {@link #jobCreatedMs}.
   */
  boolean slice;
  long jobCreatedMs;
  /** [elastic] The slice this one replaced, whose running pods become this one's when its pods are made; or null. */
  batchsim.core.kueue.Workload adoptedFrom;
  /** When its FINISH is due (set when it starts running). */
  long endsAtMs = Long.MIN_VALUE;
  /**
   * [elastic] The end carried over from the running slice it replaced (the job runs on): its FINISH is due then
   * from its admission, whether or not its added pods are bound; MIN_VALUE when none.
   */
  long carriedEndMs = Long.MIN_VALUE;

  /** Its place in submission order. */
  final long seq;

  WorkloadRun(int queue, long seq) {
    this.queue = queue;
    this.seq = seq;
  }
}
