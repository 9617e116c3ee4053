package batchsim.workloads.trace;

import batchsim.core.model.Taint;
import java.util.List;
import java.util.SortedMap;

/**
 * One node of a node list (the Alibaba trace's node CSV, or {@code kubectl get nodes -o yaml}).
 *
 * @param name the node's name in the source
 * @param line the line it starts at, for messages
 * @param labels its labels, without per-node ones such as {@code kubernetes.io/hostname}
 * @param allocatable resource name → amount in base units, sorted by name
 */
public record NodeRecord(String name, int line, SortedMap<String, String> labels, List<Taint> taints,
    SortedMap<String, Long> allocatable) {
  public NodeRecord {
    taints = List.copyOf(taints);
  }
}
