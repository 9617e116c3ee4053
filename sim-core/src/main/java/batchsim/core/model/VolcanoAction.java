package batchsim.core.model;

import java.util.SortedMap;

/**
 * Volcano's own objects changed mid-run (scheduler: volcano): queues created, updated, closed, opened or deleted,
 * and a job's PodGroup deleted. A Kueue run refuses them when the scenario is loaded. The engine refuses
 * ({@link ActionRefused}) a queue or workload that does not exist at that time, and what Volcano's webhooks refuse.
 */
public interface VolcanoAction extends ClusterAction {
  /**
   * A queue's spec fields; null = not given (create: Volcano's default; update: unchanged). Amounts are in base
   * units per resource (see {@link Quantity}).
   */
  record QueueFields(String parent, Integer weight, SortedMap<String, Long> capability,
      SortedMap<String, Long> deserved, SortedMap<String, Long> guarantee, Integer priority, Boolean reclaimable) {}

  /** A new queue, Open. */
  record CreateQueue(String name, QueueFields fields) implements VolcanoAction {}

  /** The given fields replace the queue's. */
  record UpdateQueue(String name, QueueFields fields) implements VolcanoAction {}

  /** Volcano's close action: no new jobs, nothing enqueued or allocated; running pods go on. */
  record CloseQueue(String name) implements VolcanoAction {}

  /** Volcano's open action. */
  record OpenQueue(String name) implements VolcanoAction {}

  /** Deletes the queue (its jobs are no longer scheduled). */
  record DeleteQueue(String name) implements VolcanoAction {}

  /** Deletes the workload's PodGroup; its job controller creates it again. */
  record DeletePodGroup(String workload) implements VolcanoAction {}
}
