package batchsim.workloads.trace;

import batchsim.core.model.Taint;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.function.Function;

/**
 * Groups identical nodes (same labels, taints and allocatable) into pools, in order of first appearance,
 * so that a list of thousands of nodes becomes a handful of {@code nodePools}. Nothing the scheduler looks
 * at is lost; only the node names are (pool nodes are named {@code <pool>-<i>}).
 */
public final class NodePools {
  private NodePools() {}

  /** A group of identical nodes; {@code firstLine} is where the first of them is written. */
  public record Pool(String name, int count, SortedMap<String, String> labels, List<Taint> taints,
      SortedMap<String, Long> allocatable, int firstLine) {}

  private record Key(SortedMap<String, String> labels, List<Taint> taints, SortedMap<String, Long> allocatable) {}

  /**
   * Groups {@code nodes}; {@code baseName} suggests a pool name from its first node (made unique and
   * DNS-safe here).
   */
  public static List<Pool> group(Iterable<NodeRecord> nodes, Function<NodeRecord, String> baseName) {
    Map<Key, int[]> counts = new LinkedHashMap<>();
    Map<Key, NodeRecord> first = new LinkedHashMap<>();
    for (NodeRecord n : nodes) {
      Key k = new Key(n.labels(), n.taints(), n.allocatable());
      counts.computeIfAbsent(k, x -> new int[1])[0]++;
      first.putIfAbsent(k, n);
    }
    List<Pool> out = new ArrayList<>();
    Set<String> used = new HashSet<>();
    for (Map.Entry<Key, int[]> e : counts.entrySet()) {
      NodeRecord n = first.get(e.getKey());
      String base = dnsLabel(baseName.apply(n));
      String name = base;
      for (int i = 2; !used.add(name); i++) {
        name = base + "-" + i;
      }
      out.add(new Pool(name, e.getValue()[0], n.labels(), n.taints(), n.allocatable(), n.line()));
    }
    return out;
  }

  /** Lower case letters, digits and dashes, as Kubernetes names are. */
  static String dnsLabel(String s) {
    String t = s.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9-]+", "-").replaceAll("-+", "-")
        .replaceAll("^-|-$", "");
    return t.isEmpty() ? "pool" : t;
  }

  /** "g2-96c-384gi-8gpu": model (or "cpu"), cores, memory and GPUs of an Alibaba node. */
  public static String describe(NodeRecord n, GpuOptions gpu) {
    StringBuilder sb = new StringBuilder(n.labels().getOrDefault(AlibabaNodeReader.MODEL_LABEL, "cpu"));
    long cpu = n.allocatable().getOrDefault("cpu", 0L);
    sb.append('-').append(cpu % 1000 == 0 ? Long.toString(cpu / 1000) : cpu + "m").append('c');
    long mem = n.allocatable().getOrDefault("memory", 0L);
    sb.append('-').append(mem >> 30).append("gi");
    long g = n.allocatable().getOrDefault(gpu.resource(), 0L);
    if (g > 0) {
      sb.append('-').append(gpu.milli() ? g / 1000 : g).append("gpu");
    }
    return sb.toString();
  }
}
