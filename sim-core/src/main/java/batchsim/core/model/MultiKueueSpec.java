package batchsim.core.model;

import java.util.List;

/**
 * MultiKueue (Kueue's {@code multiKueue} configuration and one MultiKueueConfig): the worker clusters a
 * manager dispatches to. Every MultiKueue admission check of the manager uses all the workers, in this order
 * (the MultiKueueConfig's {@code clusters}).
 *
 * @param dispatcher Kueue's {@code multiKueue.dispatcherName}
 * @param workerLostTimeoutMs Kueue's {@code multiKueue.workerLostTimeout}: how long a workload admitted on a
 *     worker whose connection is lost stays admitted before the manager requeues it
 * @param remoteLatencyMs the time one remote operation (create or delete a workload copy on a worker) takes
 * @param stepSize the Incremental dispatcher's workers per round (Kueue's IncrementalDispatcherConfig.stepSize)
 * @param workers the worker clusters, each a cluster of its own with nodes, queues and Kueue
 */
public record MultiKueueSpec(Dispatcher dispatcher, long workerLostTimeoutMs, long remoteLatencyMs, int stepSize,
    List<Worker> workers) {
  /** Kueue's default workerLostTimeout (apis/config/v1beta2/defaults.go: DefaultMultiKueueWorkerLostTimeout). */
  public static final long DEFAULT_WORKER_LOST_TIMEOUT_MS = 15 * 60_000;
  /** Kueue's Incremental dispatcher: DefaultStepSize (pkg/controller/workloaddispatcher). */
  public static final int DEFAULT_STEP_SIZE = 3;
  /** Kueue's Incremental dispatcher: incrementalDispatcherRoundTimeout, the time between rounds. */
  public static final long INCREMENTAL_ROUND_MS = 5 * 60_000;
  /** The AdmissionCheck controller name of MultiKueue (kueue.MultiKueueControllerName). */
  public static final String CONTROLLER_NAME = "kueue.x-k8s.io/multikueue";

  public MultiKueueSpec {
    workers = List.copyOf(workers);
  }

  /**
   * Kueue's dispatcher modes, short names (the scenario also takes Kueue's full {@code dispatcherName}s,
   * config.MultiKueueDispatcherModeAllAtOnce / Incremental).
   */
  public enum Dispatcher implements KueueEnum {
    ALL_AT_ONCE("AllAtOnce", "kueue.x-k8s.io/multikueue-dispatcher-all-at-once"),
    INCREMENTAL("Incremental", "kueue.x-k8s.io/multikueue-dispatcher-incremental");

    private final String kueueName;
    private final String dispatcherName;

    Dispatcher(String kueueName, String dispatcherName) {
      this.kueueName = kueueName;
      this.dispatcherName = dispatcherName;
    }

    /** Kueue's {@code multiKueue.dispatcherName} for this mode. */
    public String dispatcherName() {
      return dispatcherName;
    }

    @Override
    public String kueueName() {
      return kueueName;
    }
  }

  /** One worker cluster: its name (a MultiKueueCluster) and its own cluster, queues and Kueue. */
  public record Worker(String name, SimulationSpec spec) {}

  /** The index of the named worker, or -1. */
  public int workerIndex(String name) {
    for (int i = 0; i < workers.size(); i++) {
      if (workers.get(i).name().equals(name)) {
        return i;
      }
    }
    return -1;
  }
}
