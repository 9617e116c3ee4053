package batchsim.core.world.kueue;

import batchsim.core.kueue.Workload;
import batchsim.core.model.MultiKueueAction;

/**
 * What MultiKueue hears from one cluster's Kueue: on the manager, its workloads' reservations, evictions
 * and ends ({@link MultiKueueController}); on a worker, what happens to the remote copies
 * ({@link WorkerCluster}). A cluster outside MultiKueue has {@link #NONE}.
 */
interface MultiKueueLink {
  MultiKueueLink NONE = new MultiKueueLink() { };

  /** Quota reserved, or one of its admission checks changed state. */
  default void reserved(Workload w) { }

  /** Admitted (every admission check Ready). */
  default void admitted(Workload w) { }

  /** Its pods run (PodsReady). */
  default void started(Workload w) { }

  /** Evicted (preempted, an admission check's Retry, a node failure, ...). */
  default void evicted(Workload w) { }

  /** Its priority changed (setWorkloadPriority). */
  default void priorityChanged(Workload w) { }

  /** Finished or deleted. */
  default void ended(Workload w) { }

  /** A timeline action on the workers; false when this cluster has none. */
  default boolean apply(MultiKueueAction a) {
    return false;
  }
}
