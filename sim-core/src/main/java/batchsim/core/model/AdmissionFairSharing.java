package batchsim.core.model;

import java.util.Map;
import java.util.TreeMap;

/**
 * Kueue's Configuration admissionFairSharing (apis/config/v1beta2 AdmissionFairSharing; feature gate
 * AdmissionFairSharing, beta and on by default at the pinned commit): a LocalQueue's consumed resources decay
 * with {@code usageHalfLifeMs}, are sampled every {@code usageSamplingMs} (Kueue's default 5 min), and weigh
 * each resource by {@code resourceWeights} (1 when absent) when LocalQueues of one ClusterQueue are ordered.
 */
public record AdmissionFairSharing(long usageHalfLifeMs, long usageSamplingMs, Map<String, Double> resourceWeights) {
  public static final long DEFAULT_SAMPLING_MS = 5 * 60_000;

  public AdmissionFairSharing {
    resourceWeights = resourceWeights == null ? Map.of() : java.util.Collections.unmodifiableMap(
        new TreeMap<>(resourceWeights));
  }

  public double weight(String resource) {
    return resourceWeights.getOrDefault(resource, 1.0);
  }
}
