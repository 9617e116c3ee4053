package batchsim.core.model;

import java.util.List;
import java.util.SortedMap;

/**
 * A group of identical pods. {@code minCount} is the smallest count partial admission may shrink to, or
 * {@link #NO_MIN_COUNT}. {@code perPod} are the requests of one pod in base units. {@code topology} is the
 * podSet's Topology Aware Scheduling request, or null when it has none.
 */
public record PodSetSpec(
    String name,
    int count,
    int minCount,
    Resources perPod,
    SortedMap<String, String> nodeSelector,
    List<Toleration> tolerations,
    TopologyRequest topology) {

  public static final int NO_MIN_COUNT = -1;

  /** A podSet without a topology request. */
  public PodSetSpec(String name, int count, int minCount, Resources perPod, SortedMap<String, String> nodeSelector,
      List<Toleration> tolerations) {
    this(name, count, minCount, perPod, nodeSelector, tolerations, null);
  }

  public static PodSetSpec of(String name, int count, Resources perPod) {
    return new PodSetSpec(name, count, NO_MIN_COUNT, perPod, new java.util.TreeMap<>(), List.of(), null);
  }

  /** This podSet with the given topology request (null removes it). */
  public PodSetSpec withTopology(TopologyRequest t) {
    return new PodSetSpec(name, count, minCount, perPod, nodeSelector, tolerations, t);
  }

  public boolean hasMinCount() {
    return minCount != NO_MIN_COUNT && minCount < count;
  }
}
