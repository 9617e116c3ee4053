package batchsim.scenarios;

import batchsim.core.model.TopologyRequest;
import batchsim.core.model.TopologySpec;
import batchsim.scenarios.yaml.Node;
import batchsim.scenarios.yaml.ScalarNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Binds the Topology Aware Scheduling parts of a scenario:
 *
 * <ul>
 *   <li>{@code topologies: [{name, levels: [label, ...]}]} — Kueue Topology objects, highest level first;
 *       {@code kubernetes.io/hostname} may only be the lowest;
 *   <li>a node pool's {@code topology: {levels: [...] | name: T, shape: [...]}} — a compact generator: one
 *       count per level above the hostname level, then the nodes per lowest domain, e.g. levels
 *       {@code [block, rack, kubernetes.io/hostname]} with shape {@code [2, 8, 16]} makes 256 nodes in 16
 *       racks; every node gets the level labels ({@code pool-b0}, {@code pool-b0-r3}) and its name;
 *   <li>a podSet's {@code topology: {required | preferred: LEVEL, unconstrained: true, sliceLevel, sliceSize,
 *       slices: [{level, size}]}} — Kueue's PodSetTopologyRequest annotations.
 * </ul>
 */
final class TopologyBinder {
  private static final int MAX_LEVELS = 16; // Kueue: levels has 1 to 16 entries
  private static final int MAX_GENERATED_NODES = 1_000_000;

  private final Problems problems;
  private final KubeBinder kube;
  private final Map<String, TopologySpec> topologies = new LinkedHashMap<>();
  private final Set<String> knownLevels = new HashSet<>();
  /** Level references of podSet requests, checked once every topology is known. */
  private final List<ScalarNode> levelRefs = new ArrayList<>();

  TopologyBinder(KubeBinder kube) {
    this.kube = kube;
    this.problems = kube.problems();
  }

  /** {@code topologies:}. */
  List<TopologySpec> topologies(List<Node> items) {
    for (Node n : items) {
      topology(n, false);
    }
    return List.copyOf(topologies.values());
  }

  /**
   * One Topology; null after a problem. {@code again}: a timeline create, which may name a Topology declared
   * before (deleted and created again) when its levels are the same.
   */
  TopologySpec topology(Node n, boolean again) {
    Fields f = Fields.of(n, problems, "name", "levels");
    ScalarNode name = f.requiredName("name");
    List<ScalarNode> levels = f.stringList("levels");
    if (f.present() && levels.isEmpty()) {
      problems.at(f.node(), "a topology needs at least one level");
    }
    if (levels.size() > MAX_LEVELS) {
      problems.at(f.get("levels"), "a topology has at most " + MAX_LEVELS + " levels");
    }
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < levels.size(); i++) {
      ScalarNode l = levels.get(i);
      if (!seen.add(l.text())) {
        problems.at(l, "level '" + l.text() + "' is listed twice");
      }
      if (l.text().equals(TopologySpec.HOSTNAME) && i != levels.size() - 1) {
        problems.at(l, TopologySpec.HOSTNAME + " may only be the lowest level");
      }
    }
    if (name == null) {
      return null;
    }
    TopologySpec t = new TopologySpec(name.text(), levels.stream().map(ScalarNode::text).toList());
    TopologySpec before = topologies.get(name.text());
    if (before != null && !again) {
      problems.at(name, "duplicate topology '" + name.text() + "'");
      return null;
    }
    if (before != null && !before.levels().equals(t.levels())) {
      problems.at(name, "Topology '" + name.text() + "' was declared with levels " + before.levels()
          + "; creating it again with other levels is not supported (the TAS trees keep their levels)");
      return null;
    }
    topologies.put(t.name(), t);
    knownLevels.addAll(t.levels());
    return t;
  }

  /** Checks a flavor's {@code topologyName}; returns its text (null when absent). */
  String topologyName(Fields flavor, SortedMap<String, String> nodeLabels) {
    ScalarNode t = flavor.optionalName("topologyName");
    if (t == null) {
      return null;
    }
    if (!topologies.containsKey(t.text())) {
      problems.at(t, "unknown topology '" + t.text() + "'" + (topologies.isEmpty() ? " (define it under topologies)"
          : " (defined: " + String.join(", ", topologies.keySet()) + ")"));
    }
    if (nodeLabels.isEmpty()) {
      problems.at(t, "a TAS flavor (with topologyName) needs at least one nodeLabels entry, as Kueue requires");
    }
    return t.text();
  }

  // ------------------------------------------------------------------ node generator

  /**
   * Expands a node pool with {@code topology:} into one pool per lowest domain, named after its path, each
   * carrying the level labels. The lowest level is the nodes themselves when it is the hostname.
   */
  List<Spec.NodePool> generate(Fields pool, ScalarNode name, Integer count, SortedMap<String, String> labels,
      List<batchsim.core.model.Taint> taints, List<Spec.Amount> allocatable) {
    Fields t = pool.map("topology", "levels", "name", "shape");
    List<String> levels;
    Node at = pool.get("topology");
    if (!t.atMostOne("levels", "name")) {
      return List.of();
    }
    if (t.has("name")) {
      ScalarNode ref = t.optionalName("name");
      TopologySpec spec = ref == null ? null : topologies.get(ref.text());
      if (spec == null) {
        if (ref != null) {
          problems.at(ref, "unknown topology '" + ref.text() + "'");
        }
        return List.of();
      }
      levels = spec.levels();
    } else {
      levels = t.stringList("levels").stream().map(ScalarNode::text).toList();
      if (levels.isEmpty()) {
        problems.at(at, "topology needs levels (node label keys, highest first) or the name of a topology");
        return List.of();
      }
      for (int i = 0; i < levels.size(); i++) {
        if (levels.get(i).equals(TopologySpec.HOSTNAME) && i != levels.size() - 1) {
          problems.at(t.get("levels"), TopologySpec.HOSTNAME + " may only be the lowest level");
          return List.of();
        }
      }
    }
    List<String> domainLevels = levels.get(levels.size() - 1).equals(TopologySpec.HOSTNAME)
        ? levels.subList(0, levels.size() - 1) : levels;
    List<Node> shapeNodes = t.requiredList("shape", true);
    List<Integer> shape = new ArrayList<>();
    for (Node s : shapeNodes) {
      Integer v = Values.int32(s, problems, 1);
      if (v == null) {
        return List.of();
      }
      shape.add(v);
    }
    if (shape.size() != domainLevels.size() + 1) {
      problems.at(t.get("shape"), "shape needs " + (domainLevels.size() + 1) + " numbers: one per level above the "
          + "hostname (" + String.join(", ", domainLevels) + ") and then the nodes per lowest domain, got "
          + shape.size());
      return List.of();
    }
    long total = 1;
    for (int v : shape) {
      total *= v;
      if (total > MAX_GENERATED_NODES) {
        problems.at(t.get("shape"), "shape makes more than " + MAX_GENERATED_NODES + " nodes");
        return List.of();
      }
    }
    if (pool.has("count")) { // two sources of one number: the shape alone says how many nodes there are
      problems.at(pool.get("count"), "give either count or topology.shape, not both: the shape makes " + total
          + " nodes; leave count out");
    }
    for (String l : domainLevels) {
      if (labels.containsKey(l)) {
        problems.at(pool.get("labels"), "label '" + l + "' is set by the topology generator");
      }
    }
    String[] prefixes = new String[domainLevels.size()];
    for (int i = 0; i < prefixes.length; i++) {
      prefixes[i] = shortName(domainLevels.get(i), i);
    }
    List<Spec.NodePool> out = new ArrayList<>();
    int[] idx = new int[domainLevels.size()];
    int perLeaf = shape.get(shape.size() - 1);
    while (true) {
      SortedMap<String, String> l = new TreeMap<>(labels);
      StringBuilder value = new StringBuilder();
      for (int i = 0; i < idx.length; i++) {
        value.append(i == 0 ? "" : "-").append(prefixes[i]).append(idx[i]);
        l.put(domainLevels.get(i), name.text() + "-" + value);
      }
      ScalarNode poolName = new ScalarNode(name.location(), name.path(),
          idx.length == 0 ? name.text() : name.text() + "-" + value, ScalarNode.Type.STRING);
      out.add(new Spec.NodePool(poolName, perLeaf, java.util.Collections.unmodifiableSortedMap(l), taints,
          allocatable));
      int k = idx.length - 1;
      while (k >= 0 && ++idx[k] == shape.get(k)) {
        idx[k] = 0;
        k--;
      }
      if (k < 0) {
        break;
      }
    }
    return out;
  }

  /** "cloud.com/topology-block" → "b": the first letter of the label's last word. */
  private static String shortName(String label, int i) {
    String s = label.substring(label.lastIndexOf('/') + 1);
    s = s.substring(Math.max(s.lastIndexOf('-'), s.lastIndexOf('.')) + 1);
    return s.isEmpty() || !Character.isLetter(s.charAt(0)) ? "l" + i : String.valueOf(Character.toLowerCase(s.charAt(0)));
  }

  // ------------------------------------------------------------------ podSet requests

  /** A podSet's {@code topology:} block, or null when absent. */
  TopologyRequest request(Fields podSet, int podCount) {
    if (!podSet.has("topology")) {
      return null;
    }
    Fields t = podSet.map("topology", "required", "preferred", "unconstrained", "sliceLevel", "sliceSize", "slices");
    List<String> modes = new ArrayList<>();
    for (String m : List.of("required", "preferred", "unconstrained")) {
      if (t.has(m)) {
        modes.add(m);
      }
    }
    if (modes.size() > 1) {
      problems.at(t.node(), "give at most one of required, preferred, unconstrained (got " + String.join(", ", modes)
          + ")");
      return null;
    }
    List<TopologyRequest.SliceLayer> layers = new ArrayList<>();
    if (t.has("slices") && (t.has("sliceLevel") || t.has("sliceSize"))) {
      problems.at(t.get("slices"), "give either slices or sliceLevel/sliceSize, not both");
      return null;
    }
    if (t.has("sliceLevel") != t.has("sliceSize")) {
      problems.at(t.node(), "sliceLevel and sliceSize go together");
      return null;
    }
    if (t.has("sliceLevel")) {
      ScalarNode level = level(t.optionalName("sliceLevel"));
      int size = t.int32("sliceSize", 1, 1);
      sliceFitsPodCount(t.get("sliceSize"), size, podCount);
      if (level != null) {
        layers.add(new TopologyRequest.SliceLayer(level.text(), size));
      }
    }
    List<Node> sliceNodes = t.list("slices");
    if (sliceNodes.size() > 3) {
      problems.at(t.get("slices"), "at most 3 slice layers (Kueue's multi-layer topology)");
    }
    for (Node s : sliceNodes) {
      Fields sf = Fields.of(s, problems, "level", "size");
      ScalarNode level = level(sf.requiredName("level"));
      Integer size = Values.int32(sf.required("size"), problems, 1);
      if (level == null || size == null) {
        return null;
      }
      if (layers.isEmpty()) {
        sliceFitsPodCount(sf.get("size"), size, podCount);
      } else if (layers.get(layers.size() - 1).size() % size != 0) {
        problems.at(sf.get("size"), "an inner slice size must divide the outer one ("
            + layers.get(layers.size() - 1).size() + ")");
      }
      layers.add(new TopologyRequest.SliceLayer(level.text(), size));
    }
    if (modes.isEmpty() && layers.isEmpty()) {
      problems.at(t.node(), "topology needs required, preferred or unconstrained (or slices)");
      return null;
    }
    String mode = modes.isEmpty() ? "unconstrained" : modes.get(0);
    switch (mode) {
      case "required": {
        ScalarNode l = level(t.optionalName("required"));
        return l == null ? null : new TopologyRequest(TopologyRequest.Mode.REQUIRED, l.text(), layers);
      }
      case "preferred": {
        ScalarNode l = level(t.optionalName("preferred"));
        return l == null ? null : new TopologyRequest(TopologyRequest.Mode.PREFERRED, l.text(), layers);
      }
      default:
        if (t.has("unconstrained") && !t.bool("unconstrained", true)) {
          problems.at(t.get("unconstrained"), "unconstrained: false means no request; leave topology out");
          return null;
        }
        return new TopologyRequest(TopologyRequest.Mode.UNCONSTRAINED, null, layers);
    }
  }

  /**
   * The outer slice size against the pod set's count. Kueue's job webhooks refuse a larger one ("must not be
   * greater than pod set count N", pkg/controller/jobframework/tas_validation.go,
   * ValidateSliceSizeAnnotationUpperBound); one that does not divide the count leaves pods in no slice (the
   * placement counts whole slices only, count / sliceSize, tas_flavor_snapshot.go updateCountsToMinimumGeneric),
   * so it is refused too rather than placed differently from what was asked.
   */
  private void sliceFitsPodCount(Node at, int size, int podCount) {
    if (podCount < 1) { // the count itself is bad and reported
      return;
    }
    if (size > podCount) {
      problems.at(at, "slice size " + size + " must not be greater than pod set count " + podCount
          + " (Kueue's webhook refuses it)");
    } else if (podCount % size != 0) {
      problems.at(at, "slice size " + size + " does not divide the pod set count " + podCount
          + ": every pod must be in a whole slice; use a divisor of " + podCount + " or change count");
    }
  }

  private ScalarNode level(ScalarNode n) {
    if (n != null) {
      levelRefs.add(n);
    }
    return n;
  }

  /** Reports level references that no topology defines (Kueue would find no flavor "containing the level"). */
  void checkLevels() {
    for (ScalarNode n : levelRefs) {
      if (!knownLevels.contains(n.text())) {
        problems.at(n, "no topology has the level '" + n.text() + "'" + (knownLevels.isEmpty()
            ? " (define topologies first)" : " (levels: " + String.join(", ", new java.util.TreeSet<>(knownLevels)) + ")"));
      }
    }
  }
}
