package batchsim.core.kueue;

/**
 * What the Kueue engine needs from the simulation around it: it never schedules events itself, so whatever
 * takes time (pod termination, the inadmissible-requeue batch delay, backoffs, admission checks) is asked of
 * its host, which calls the engine back ({@link KueueEngine}).
 */
public interface KueueHost {
  /** Quota was reserved and the workload is Admitted: bind its pods. */
  void onAdmitted(Workload w);

  /** The workload was evicted (e.g. preempted); call {@link KueueEngine#evictionComplete} once its pods are gone. */
  void onEvicted(Workload w);

  /** Call {@link KueueEngine#processInadmissibleRequeues} at {@code atMs}. */
  void scheduleInadmissibleRequeue(long atMs);

  /** Call {@link KueueEngine#backoffFinished} for the workload at {@code atMs} (a requeuing backoff ends). */
  default void scheduleBackoffExpiry(Workload w, long atMs) {}

  /** Quota reserved but admission checks pending: run them, then call {@link KueueEngine#setCheckState}. */
  default void onQuotaReserved(Workload w) {}

  /** Admission fair sharing: call {@link AfsAccounting#sample} at {@code atMs} (MAX_VALUE: never). */
  default void scheduleUsageSample(long atMs) {}

  /** [TAS] Run a scheduling cycle at {@code atMs}: a second-pass (node replacement) backoff ends then. */
  default void scheduleSecondPass(long atMs) {}

  /**
   * [TAS] A second pass replaced the workload's unhealthy node: {@link KueueEngine#topologyPlacement} changed, and its
   * pods on the failed node belong on the new nodes.
   */
  default void onTopologyReassigned(Workload w) {}

  /**
   * The workload finished or was deleted: it is gone for good (Kueue keeps nothing of it in its queues or
   * caches), and the host may forget it too.
   */
  default void onWorkloadEnded(Workload w) {}

  /** Something of the workload's state may have changed (status records read it afterwards; read only). */
  default void onWorkloadChanged(Workload w) {}

  /** Whether {@link #onWorkloadChanged} does anything (it is then called for every workload a move touches). */
  default boolean watchesWorkloads() {
    return false;
  }

  /**
   * The first of a ClusterQueue's workloads started waiting on a quota ({@code blocked}), or the last one
   * stopped: the host may note who holds that quota meanwhile ({@link WaitCause#isQuota()}).
   */
  default void onQuotaWait(String clusterQueue, WaitCause cause, boolean blocked, long atMs) {}

  /** A host that does nothing, for driving single cycles (conformance, tests). */
  KueueHost NONE = new KueueHost() {
    @Override
    public void onAdmitted(Workload w) {}

    @Override
    public void onEvicted(Workload w) {}

    @Override
    public void scheduleInadmissibleRequeue(long atMs) {}
  };
}
