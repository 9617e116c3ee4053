package batchsim.core.model;

/**
 * Cluster-autoscaler bounds of a node pool: it grows (through ProvisioningRequests) up to {@code max}
 * nodes and gives back nodes that stayed empty for {@code scaleDownDelayMs}, down to {@code min}.
 */
public record AutoscalingSpec(String pool, int min, int max, long scaleDownDelayMs) {}
