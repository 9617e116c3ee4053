package batchsim.scenarios.imports;

import batchsim.scenarios.imports.KubeObjects.KubeObject;
import batchsim.scenarios.yaml.MapNode;
import batchsim.scenarios.yaml.Node;
import batchsim.scenarios.yaml.ScalarNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Kueue's objects ({@code kueue.x-k8s.io} v1beta1 and v1beta2: ResourceFlavor, Cohort, ClusterQueue,
 * LocalQueue, Topology; WorkloadPriorityClass is {@link Priorities}', AdmissionCheck and
 * ProvisioningRequestConfig {@link AdmissionCheckImport}'s) translated to scenario entries. Scenario fields
 * follow v1beta2, so a spec mostly copies over; v1beta1 spellings are renamed ({@code cohort} →
 * {@code cohortName}, fungibility {@code Borrow}/{@code Preempt} → {@code MayStopSearch}); a Topology becomes a
 * {@code topologies} entry (its levels' node labels). Fields batchsim does not model (stopPolicy, ...) are
 * warned about, once per field.
 */
public final class KueueManifestReader {
  static final String GROUP = "kueue.x-k8s.io";
  private static final Set<String> KINDS = Set.of("ResourceFlavor", "Cohort", "ClusterQueue", "LocalQueue",
      "WorkloadPriorityClass", "Topology", AdmissionCheckImport.CHECK, AdmissionCheckImport.CONFIG);
  private static final Set<String> VERSIONS = Set.of("v1beta1", "v1beta2", "v1alpha1");

  private static final Shape QUOTA = Shape.obj("name", Shape.LEAF, "nominalQuota", Shape.LEAF, "borrowingLimit",
      Shape.LEAF, "lendingLimit", Shape.LEAF);
  private static final Shape GROUPS = Shape.list(Shape.obj("coveredResources", Shape.LEAF, "flavors",
      Shape.list(Shape.obj("name", Shape.LEAF, "resources", Shape.list(QUOTA)))));
  private static final Shape FAIR = Shape.obj("weight", Shape.LEAF);
  private static final Shape FLAVOR = Shape.obj("nodeLabels", Shape.LEAF, "nodeTaints", Shape.LEAF, "tolerations",
      Shape.LEAF, "topologyName", Shape.LEAF);
  private static final Shape COHORT = Shape.obj("parentName", Shape.LEAF, "fairSharing", FAIR, "resourceGroups",
      GROUPS);
  private static final Shape CLUSTER_QUEUE = Shape.obj("cohortName", Shape.LEAF, "queueingStrategy", Shape.LEAF,
      "preemption", Shape.obj("withinClusterQueue", Shape.LEAF, "reclaimWithinCohort", Shape.LEAF,
          "borrowWithinCohort", Shape.obj("policy", Shape.LEAF, "maxPriorityThreshold", Shape.LEAF)),
      "flavorFungibility", Shape.obj("whenCanBorrow", Shape.LEAF, "whenCanPreempt", Shape.LEAF, "preference",
          Shape.LEAF),
      "fairSharing", FAIR, "admissionChecks", Shape.LEAF, "admissionChecksStrategy", Shape.obj("admissionChecks",
          Shape.list(Shape.obj("name", Shape.LEAF, "onFlavors", Shape.LEAF))), "resourceGroups", GROUPS,
      "admissionScope", Shape.obj("admissionMode", Shape.LEAF));
  private static final Shape LOCAL_QUEUE = Shape.obj("clusterQueue", Shape.LEAF, "fairSharing", FAIR);

  private KueueManifestReader() {}

  /** The scenario sections, each a list of entries in input order. */
  public record Result(List<MapNode> topologies, List<MapNode> flavors, List<MapNode> cohorts,
      List<MapNode> clusterQueues, List<MapNode> localQueues) {
    public boolean isEmpty() {
      return topologies.isEmpty() && flavors.isEmpty() && cohorts.isEmpty() && clusterQueues.isEmpty()
          && localQueues.isEmpty();
    }
  }

  /** Whether {@code o} is a Kueue object this reader translates. */
  public static boolean handles(KubeObject o) {
    return o.group().equals(GROUP) && KINDS.contains(o.kind());
  }

  /** Translates the objects it {@link #handles}, in order; others are left to the caller. */
  public static Result read(List<KubeObject> objects, Warnings warnings) {
    List<MapNode> flavors = new ArrayList<>();
    List<MapNode> cohorts = new ArrayList<>();
    List<MapNode> cqs = new ArrayList<>();
    List<MapNode> lqs = new ArrayList<>();
    List<MapNode> topologies = new ArrayList<>();
    for (KubeObject o : objects) {
      if (!handles(o)) {
        continue;
      }
      if (!VERSIONS.contains(o.version())) {
        warnings.add("version:" + o.apiVersion(), o.location(), o.describe() + ": apiVersion " + o.apiVersion()
            + " is not one batchsim knows (v1beta1, v1beta2); read as v1beta2");
      }
      Node spec = Tree.get(o.node(), "spec");
      String what = o.kind() + " " + o.name();
      switch (o.kind()) {
        case "ResourceFlavor" -> flavors.add(entry(o, spec, FLAVOR, warnings, false));
        case "Cohort" -> cohorts.add(entry(o, spec, COHORT, warnings, false));
        case "ClusterQueue" -> cqs.add(clusterQueue(o, spec, warnings));
        case "LocalQueue" -> lqs.add(localQueue(o, spec, warnings));
        case "Topology" -> topologies.add(topology(o, spec, warnings));
        // WorkloadPriorityClass: Priorities reads these with the core PriorityClasses; AdmissionCheck,
        // ProvisioningRequestConfig: AdmissionCheckImport, once pools are known
        default -> { }
      }
    }
    return new Result(topologies, flavors, cohorts, cqs, lqs);
  }

  /** {@code {name, levels: [nodeLabel, ...]}}, highest level first as in Kueue. */
  private static MapNode topology(KubeObject o, Node spec, Warnings warnings) {
    Shape.obj("levels", Shape.list(Shape.obj("nodeLabel", Shape.LEAF))).keep(spec, "Topology", "Topology " + o.name(),
        warnings);
    List<Node> levels = new ArrayList<>();
    for (Node l : Tree.items(spec, "levels")) {
      Node label = Tree.get(l, "nodeLabel");
      levels.add(label != null ? label : l);
    }
    return Tree.map(o.location(), o.node().path()).put("name", name(o))
        .put("levels", Tree.list(o.location(), "levels", levels)).build();
  }

  /** {@code name: <metadata.name>} followed by the spec reduced to {@code shape}. */
  private static MapNode entry(KubeObject o, Node spec, Shape shape, Warnings warnings, boolean namespaced) {
    Tree.Map_ out = Tree.map(o.location(), o.node().path());
    out.put("name", name(o));
    if (namespaced) {
      out.put("namespace", o.namespaceOrDefault(), o.location());
    }
    Node kept = shape.keep(spec, o.kind(), o.kind() + " " + o.name(), warnings);
    if (kept instanceof MapNode m) {
      m.entries().forEach((k, e) -> out.put(k, e.value()));
    }
    return out.build();
  }

  private static ScalarNode name(KubeObject o) {
    Node n = Tree.get(o.node(), "metadata", "name");
    return n instanceof ScalarNode s ? s : Tree.string(o.location(), "metadata.name", o.name());
  }

  private static MapNode clusterQueue(KubeObject o, Node spec, Warnings warnings) {
    String what = "ClusterQueue " + o.name();
    Node selector = Tree.get(spec, "namespaceSelector");
    if (selector instanceof MapNode m && !m.entries().isEmpty()) {
      warnings.at("ClusterQueue:namespaceSelector", selector, what + ": spec.namespaceSelector: batchsim has no "
          + "namespaces; every LocalQueue of the ClusterQueue is used");
    }
    spec = without(spec, "namespaceSelector");
    Node scope = Tree.get(spec, "admissionScope");
    if (scope != null) {
      warnings.at("ClusterQueue:admissionScope", scope, what + ": spec.admissionScope is kept; admission fair "
          + "sharing takes effect only with kueue.admissionFairSharing in the scenario (Kueue's Configuration is "
          + "not imported)");
    }
    if (spec instanceof MapNode m && m.get("cohort") != null && m.get("cohortName") == null) {
      spec = renamed(m, "cohort", "cohortName"); // v1beta1
    }
    MapNode cq = entry(o, spec, CLUSTER_QUEUE, warnings, false);
    Node fungibility = cq.get("flavorFungibility");
    if (fungibility instanceof MapNode f) {
      Tree.Map_ v2 = Tree.map(f.location(), f.path());
      f.entries().forEach((k, e) -> v2.put(k, e.value() instanceof ScalarNode s
          && (s.text().equals("Borrow") || s.text().equals("Preempt"))
          ? Tree.string(s.location(), s.path(), "MayStopSearch") : e.value()));
      Tree.Map_ out = Tree.map(cq.location(), cq.path());
      cq.entries().forEach((k, e) -> out.put(k, k.equals("flavorFungibility") ? v2.build() : e.value()));
      cq = out.build();
    }
    return cq;
  }

  private static MapNode localQueue(KubeObject o, Node spec, Warnings warnings) {
    if (o.namespace() == null) {
      warnings.add("LocalQueue:namespace", o.location(), "LocalQueue " + o.name()
          + " has no metadata.namespace; assuming default");
    }
    return entry(o, spec, LOCAL_QUEUE, warnings, true);
  }

  private static Node without(Node spec, String key) {
    if (!(spec instanceof MapNode m) || m.get(key) == null) {
      return spec;
    }
    Tree.Map_ out = Tree.map(m.location(), m.path());
    m.entries().forEach((k, e) -> {
      if (!k.equals(key)) {
        out.put(k, e.value());
      }
    });
    return out.build();
  }

  private static MapNode renamed(MapNode m, String from, String to) {
    Tree.Map_ out = Tree.map(m.location(), m.path());
    m.entries().forEach((k, e) -> out.put(k.equals(from) ? to : k, e.value()));
    return out.build();
  }
}
