package batchsim.scenarios.conformance.kueue;

import batchsim.core.kueue.KueueEngine;
import batchsim.core.kueue.KueueProbe;
import batchsim.core.kueue.Workload;
import batchsim.core.model.WorkloadSpec;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code preemption_targets}: Kueue's TestPreemption, TestHierarchicalPreemptions and TestFairPreemptions.
 * The targets Preemptor.GetTargets picks for {@code incoming} in {@code target_cq}, with the given flavor
 * assignment, are compared with the expected victims and their Preempted reasons. Nothing is issued.
 */
final class PreemptionTargetsCase {

  private PreemptionTargetsCase() {}

  static Mismatches run(ConformanceCase c) {
    CaseSetup setup = new CaseSetup(c.spec());
    KueueEngine engine = setup.newEngine();
    Map<String, Workload> admitted = setup.admit(engine);
    String cq = setup.requireQueue(Nodes.required(c.spec(), "target_cq", "preemption_targets case"));
    JsonNode in = c.spec().path("incoming");
    String id = Nodes.required(in, "id", "incoming");
    if (admitted.containsKey(id)) {
      throw CaseException.invalid("incoming workload " + id + " is also admitted");
    }
    WorkloadSpec spec = setup.workloadSpec(in, id, cq);
    Map<String, JsonNode> byPodSet = Nodes.map(c.spec(), "assignment");
    List<Map<String, KueueProbe.ResourceChoice>> assignment = new ArrayList<>();
    for (var ps : spec.podSets()) {
      Map<String, KueueProbe.ResourceChoice> choices = new LinkedHashMap<>();
      JsonNode a = byPodSet.remove(ps.name());
      if (a == null) {
        throw CaseException.invalid("assignment has no podSet " + ps.name());
      }
      for (Map.Entry<String, JsonNode> r : Nodes.entries(a, "assignment." + ps.name()).entrySet()) {
        JsonNode choice = r.getValue();
        String mode = Nodes.required(choice, "mode", "assignment");
        if (!"Preempt".equals(mode) && !"Fit".equals(mode)) {
          throw CaseException.invalid("assignment mode must be Preempt or Fit, got " + mode);
        }
        choices.put(r.getKey(), new KueueProbe.ResourceChoice(Nodes.required(choice, "flavor", "assignment"),
            "Preempt".equals(mode)));
      }
      assignment.add(choices);
    }
    if (!byPodSet.isEmpty()) {
      throw CaseException.invalid("assignment names unknown podSets " + byPodSet.keySet());
    }
    Map<String, String> got;
    try {
      got = new TreeMap<>(KueueProbe.preemptionTargets(engine, cq, spec, CaseWorkloads.priority(in), CaseWorkloads.uid(in),
          assignment));
    } catch (IllegalArgumentException e) {
      throw CaseException.invalid(e.getMessage());
    }
    Map<String, String> expected = new TreeMap<>();
    for (Map.Entry<String, JsonNode> e : Nodes.map(c.expect(), "preempted").entrySet()) {
      expected.put(e.getKey(), Nodes.text(e.getValue(), "preempted reason"));
    }
    Mismatches m = new Mismatches();
    m.check("preempted", expected, got);
    return m;
  }
}
