package batchsim.core.model;

import java.util.List;
import java.util.SortedMap;

/**
 * A Kueue ResourceFlavor: which nodes its quota stands for ({@code nodeLabels}, {@code nodeTaints}) and
 * the tolerations it adds to admitted pods. {@code topologyName} is null for a non-TAS flavor.
 */
public record ResourceFlavorSpec(
    String name,
    SortedMap<String, String> nodeLabels,
    List<Taint> nodeTaints,
    List<Toleration> tolerations,
    String topologyName) {

  public static ResourceFlavorSpec plain(String name) {
    return new ResourceFlavorSpec(name, new java.util.TreeMap<>(), List.of(), List.of(), null);
  }
}
