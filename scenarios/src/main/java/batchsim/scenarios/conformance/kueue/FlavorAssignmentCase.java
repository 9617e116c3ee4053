package batchsim.scenarios.conformance.kueue;

import batchsim.core.kueue.AssignmentMode;
import batchsim.core.kueue.KueueEngine;
import batchsim.core.kueue.KueueProbe;
import batchsim.core.model.WorkloadSpec;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code flavor_assignment}: Kueue's TestAssignFlavors. The extra {@code usage} is added to the quota tree,
 * then the flavor assigner runs once for the workload against {@code target_cq}.
 */
final class FlavorAssignmentCase {

  private FlavorAssignmentCase() {}

  static Mismatches run(ConformanceCase c) {
    CaseSetup setup = new CaseSetup(c.spec());
    KueueEngine engine = setup.newEngine();
    for (Map.Entry<String, JsonNode> q : Nodes.map(c.spec(), "usage").entrySet()) {
      setup.requireQueue(q.getKey());
      for (Map.Entry<String, JsonNode> f : Nodes.entries(q.getValue(), "usage").entrySet()) {
        for (Map.Entry<String, JsonNode> r : Nodes.entries(f.getValue(), "usage").entrySet()) {
          try {
            KueueProbe.addUsage(engine, q.getKey(), f.getKey(), r.getKey(), Nodes.quantity(r.getKey(), r.getValue()));
          } catch (IllegalArgumentException e) {
            throw CaseException.invalid("usage: " + e.getMessage());
          }
        }
      }
    }
    String cq = setup.requireQueue(Nodes.required(c.spec(), "target_cq", "flavor_assignment case"));
    JsonNode wl = c.spec().path("workload");
    String id = Nodes.string(wl, "id", "default/workload");
    WorkloadSpec spec = setup.workloadSpec(wl, id, cq);
    KueueProbe.FlavorAssignment a = KueueProbe.assignFlavors(engine, cq, spec, CaseWorkloads.priority(wl),
        CaseWorkloads.uid(wl));

    JsonNode ex = c.expect();
    Mismatches m = new Mismatches();
    if (Nodes.has(ex, "representativeMode")) {
      m.check("representativeMode", Nodes.text(ex.get("representativeMode"), "representativeMode"), modeName(a.mode()));
    }
    if (Nodes.has(ex, "borrowing")) {
      m.check("borrowing", Nodes.integer(ex, "borrowing", 0), a.borrowing());
    }
    if (Nodes.has(ex, "podSets")) {
      Map<String, Map<String, String>> expected = new LinkedHashMap<>();
      for (Map.Entry<String, JsonNode> ps : Nodes.map(ex, "podSets").entrySet()) {
        Map<String, String> flavors = new TreeMap<>();
        for (Map.Entry<String, JsonNode> r : Nodes.entries(ps.getValue(), "podSets").entrySet()) {
          flavors.put(r.getKey(), Nodes.text(r.getValue(), "flavor"));
        }
        expected.put(ps.getKey(), flavors);
      }
      m.check("podSets", expected, a.flavors());
    }
    return m;
  }

  /** Kueue's spelling of a FlavorAssignmentMode. */
  static String modeName(AssignmentMode mode) {
    switch (mode) {
      case FIT: return "Fit";
      case PREEMPT: return "Preempt";
      case DEFERRED_FIT: return "DeferredFit";
      default: return "NoFit";
    }
  }
}
