package batchsim.core.model;

/** A Kueue LocalQueue: {@code name} (as workloads refer to it) mapped to a ClusterQueue. */
public record LocalQueueSpec(String name, String clusterQueue) {}
