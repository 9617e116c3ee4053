package batchsim.scenarios.conformance.kueue;

import batchsim.core.kueue.tas.TasNode;
import batchsim.core.model.ResourceFlavorSpec;
import batchsim.core.model.ResourceSpace;
import batchsim.core.model.Resources;
import batchsim.core.model.Taint;
import batchsim.core.model.Toleration;
import batchsim.core.model.TopologySpec;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A case's cluster-scoped objects: ResourceFlavors (labels, taints, tolerations, topology), [TAS] Topologies
 * and Nodes, and the AdmissionCheck objects.
 */
final class ClusterObjects {
  /** The only admission check controller the engine models (any check on a ClusterQueue behaves as one). */
  private static final String PROVISIONING_REQUEST = "kueue.x-k8s.io/provisioning-request";

  final List<ResourceFlavorSpec> flavors;
  /** [TAS] The Topology objects by name; empty when the case has none. */
  final Map<String, TopologySpec> topologies = new LinkedHashMap<>();
  /** [TAS] The nodes Kueue's TAS cache keeps: Ready and schedulable ones. */
  final List<TasNode> nodes = new ArrayList<>();
  /** The names of the AdmissionCheck objects (all ProvisioningRequest checks, active). */
  final Set<String> admissionChecks = new LinkedHashSet<>();

  ClusterObjects(JsonNode spec, ResourceSpace resources) {
    this.flavors = flavors(spec);
    readAdmissionChecks(spec);
    readTopologies(spec, resources);
  }

  /** [TAS] Whether the case declares topologies or a flavor refers to one. */
  boolean usesTas() {
    return !topologies.isEmpty() || flavors.stream().anyMatch(f -> f.topologyName() != null);
  }

  /** Top-level {@code admissionChecks}: {name, controller, active}. */
  private void readAdmissionChecks(JsonNode spec) {
    for (JsonNode c : Nodes.list(spec, "admissionChecks")) {
      String name = Nodes.required(c, "name", "admission check");
      String where = "admission check " + name;
      String controller = Nodes.required(c, "controller", where);
      if (!PROVISIONING_REQUEST.equals(controller)) {
        throw CaseException.unsupported(where + ": controller " + controller
            + " is not modelled (the engine models only " + PROVISIONING_REQUEST + ")");
      }
      if (!Nodes.bool(c, "active", true)) {
        throw CaseException.unsupported(where + ": an inactive admission check (its ClusterQueues inactive) "
            + "is not modelled");
      }
      if (!admissionChecks.add(name)) {
        throw CaseException.invalid("duplicate admission check " + name);
      }
    }
  }

  /**
   * [TAS] {@code topologies: [{name, levels}]} and {@code nodes: [{name, labels, taints, allocatable, ready,
   * unschedulable}]}. A node that is not Ready or is unschedulable never enters the TAS cache (Kueue
   * tas_nodes_cache.go sync deletes it while SchedulerLibraryIntegration is off, its default), so it is not
   * given to the engine at all.
   */
  private void readTopologies(JsonNode spec, ResourceSpace resources) {
    for (JsonNode t : Nodes.list(spec, "topologies")) {
      String name = Nodes.required(t, "name", "topology");
      List<String> levels = new ArrayList<>();
      for (JsonNode l : Nodes.list(t, "levels")) {
        levels.add(Nodes.text(l, "topology " + name + " level"));
      }
      if (levels.isEmpty()) {
        throw CaseException.invalid("topology " + name + " has no levels");
      }
      if (topologies.put(name, new TopologySpec(name, levels)) != null) {
        throw CaseException.invalid("duplicate topology " + name);
      }
    }
    Set<String> names = new LinkedHashSet<>();
    for (JsonNode n : Nodes.list(spec, "nodes")) {
      String name = Nodes.required(n, "name", "node");
      String where = "node " + name;
      if (!names.add(name)) {
        throw CaseException.invalid("duplicate node " + name);
      }
      TreeMap<String, String> labels = new TreeMap<>();
      for (Map.Entry<String, JsonNode> e : Nodes.map(n, "labels").entrySet()) {
        labels.put(e.getKey(), Nodes.text(e.getValue(), where + " label " + e.getKey()));
      }
      long[] alloc = new long[resources.size()];
      for (Map.Entry<String, JsonNode> e : Nodes.map(n, "allocatable").entrySet()) {
        alloc[resources.require(e.getKey())] = Nodes.quantity(e.getKey(), e.getValue());
      }
      if (Nodes.bool(n, "ready", true) && !Nodes.bool(n, "unschedulable", false)) {
        nodes.add(new TasNode(name, labels, taints(n), Resources.wrap(alloc)));
      }
    }
  }

  private static List<ResourceFlavorSpec> flavors(JsonNode spec) {
    List<ResourceFlavorSpec> out = new ArrayList<>();
    for (JsonNode f : Nodes.list(spec, "flavors")) {
      if (!f.isObject()) {
        out.add(ResourceFlavorSpec.plain(Nodes.text(f, "flavors")));
        continue;
      }
      String name = Nodes.required(f, "name", "flavor");
      TreeMap<String, String> labels = new TreeMap<>();
      for (Map.Entry<String, JsonNode> e : Nodes.map(f, "nodeLabels").entrySet()) {
        labels.put(e.getKey(), Nodes.text(e.getValue(), "nodeLabels"));
      }
      List<Taint> taints = new ArrayList<>();
      for (JsonNode t : Nodes.list(f, "nodeTaints")) {
        taints.add(taint(t));
      }
      out.add(new ResourceFlavorSpec(name, labels, taints, tolerations(f), Nodes.string(f, "topologyName", null)));
    }
    return out;
  }

  private static Taint taint(JsonNode t) {
    return new Taint(Nodes.required(t, "key", "taint"), Nodes.string(t, "value", null),
        Nodes.string(t, "effect", "NoSchedule"));
  }

  private static List<Taint> taints(JsonNode owner) {
    List<Taint> out = new ArrayList<>();
    for (JsonNode t : Nodes.list(owner, "taints")) {
      out.add(taint(t));
    }
    return out;
  }

  static List<Toleration> tolerations(JsonNode owner) {
    List<Toleration> out = new ArrayList<>();
    for (JsonNode t : Nodes.list(owner, "tolerations")) {
      out.add(new Toleration(Nodes.string(t, "key", null), Nodes.string(t, "operator", "Equal"),
          Nodes.string(t, "value", null), Nodes.string(t, "effect", null)));
    }
    return out;
  }
}
