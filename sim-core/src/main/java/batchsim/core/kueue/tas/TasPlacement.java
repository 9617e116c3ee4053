package batchsim.core.kueue.tas;

import java.util.List;

/**
 * Where the pods of one podSet of an admitted TAS workload go, for the pod binder: per leaf domain, the
 * nodes of that domain (one when hostname is the lowest level) and how many pods go there.
 */
public record TasPlacement(int podSet, String flavor, List<Slot> slots) {
  /** {@code count} pods on the nodes of leaf domain {@code domain}. */
  public record Slot(String domain, List<String> nodes, int count) {}
}
