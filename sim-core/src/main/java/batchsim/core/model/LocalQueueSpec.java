package batchsim.core.model;

/**
 * A Kueue LocalQueue: {@code name} (as workloads refer to it) mapped to a ClusterQueue. {@code fairWeight} is
 * spec.fairSharing.weight (default 1): admission fair sharing divides the LocalQueue's usage by it.
 */
public record LocalQueueSpec(String name, String clusterQueue, double fairWeight) {
  public LocalQueueSpec(String name, String clusterQueue) {
    this(name, clusterQueue, 1.0);
  }
}
