package batchsim.core.model;

import java.util.List;
import java.util.SortedMap;

/**
 * A group of identical pods. {@code minCount} is the smallest count partial admission may shrink to, or
 * {@link #NO_MIN_COUNT}. {@code perPod} are the requests of one pod in base units.
 */
public record PodSetSpec(
    String name,
    int count,
    int minCount,
    Resources perPod,
    SortedMap<String, String> nodeSelector,
    List<Toleration> tolerations) {

  public static final int NO_MIN_COUNT = -1;

  public static PodSetSpec of(String name, int count, Resources perPod) {
    return new PodSetSpec(name, count, NO_MIN_COUNT, perPod, new java.util.TreeMap<>(), List.of());
  }

  public boolean hasMinCount() {
    return minCount != NO_MIN_COUNT && minCount < count;
  }
}
