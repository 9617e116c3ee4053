package batchsim.core.model;

import java.util.List;
import java.util.SortedMap;

/**
 * {@code count} identical nodes. Nodes are named {@code <pool>-<i>} (i from 0) and carry {@code labels}
 * plus {@code kubernetes.io/hostname} = their name.
 */
public record NodePoolSpec(
    String name, int count, SortedMap<String, String> labels, List<Taint> taints, Resources allocatable) {}
