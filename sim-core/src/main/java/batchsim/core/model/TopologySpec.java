package batchsim.core.model;

import java.util.List;

/**
 * A Kueue Topology: the node label keys of its levels, ordered from the highest (e.g. block) to the lowest
 * (e.g. {@code kubernetes.io/hostname}). A ResourceFlavor with {@code topologyName} set refers to it.
 */
public record TopologySpec(String name, List<String> levels) {
  /** The node label that names a node; Kueue allows it only as the lowest level. */
  public static final String HOSTNAME = "kubernetes.io/hostname";

  public TopologySpec {
    levels = List.copyOf(levels);
  }

  /** Kueue isLowestLevelNode: each leaf domain is one node, and per-node filtering applies. */
  public boolean lowestIsHostname() {
    return !levels.isEmpty() && HOSTNAME.equals(levels.get(levels.size() - 1));
  }
}
