package batchsim.scenarios.conformance.kueue;

import batchsim.core.model.FairSharingStrategy;
import batchsim.core.model.KueueConfig;
import batchsim.core.model.KueueEnum;
import batchsim.core.model.RequeuingTimestamp;
import batchsim.core.model.ResourceSpace;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The engine-wide settings of a case: the {@link KueueConfig} its {@code config} and {@code featureGates}
 * give, and the {@link ResourceSpace} of every resource it names.
 */
final class CaseConfig {
  /** Gates the engine always behaves as if on (their Kueue default). */
  private static final Set<String> ALWAYS_ON_GATES = Set.of("FlavorFungibility", "FairSharingPreemptWithinNominal",
      "FairSharingPrioritizeNonBorrowing", "FlavorFungibilityPreserveScanProgress",
      "RecomputeAssignmentUponPreemptionTargetsOverlap", "UnadmittedWorkloadsObservability");
  /** Gates the engine always behaves as if off (their Kueue default). */
  private static final Set<String> ALWAYS_OFF_GATES = Set.of("PrioritizePreemptorWorkloads", "ConcurrentAdmission",
      "PriorityBoost");

  private CaseConfig() {}

  static KueueConfig read(JsonNode spec) {
    KueueConfig d = KueueConfig.defaults();
    JsonNode cfg = spec.get("config");
    boolean fairSharing = Nodes.has(cfg, "fairSharing");
    List<FairSharingStrategy> strategies = new ArrayList<>();
    if (fairSharing) {
      JsonNode fs = cfg.get("fairSharing");
      for (JsonNode s : Nodes.list(fs, "preemptionStrategies")) {
        try {
          strategies.add(KueueEnum.parse(FairSharingStrategy.class, Nodes.text(s, "strategy")));
        } catch (IllegalArgumentException e) {
          throw CaseException.invalid("preemptionStrategies: " + e.getMessage());
        }
      }
    }
    if (strategies.isEmpty()) {
      strategies = d.fairSharingStrategies();
    }
    RequeuingTimestamp ts = d.podsReadyRequeuingTimestamp();
    JsonNode wfpr = cfg == null ? null : cfg.get("waitForPodsReady");
    if (wfpr != null && !wfpr.isNull()) {
      JsonNode rs = wfpr.get("requeuingStrategy");
      ts = Nodes.enumValue(RequeuingTimestamp.class, rs, "timestamp", ts);
    }
    boolean prioritySorting = d.prioritySortingWithinCohort();
    boolean partial = d.partialAdmission();
    for (Map.Entry<String, JsonNode> g : Nodes.map(spec, "featureGates").entrySet()) {
      String gate = g.getKey();
      boolean on = Nodes.bool(spec.get("featureGates"), gate, false);
      if ("PrioritySortingWithinCohort".equals(gate)) {
        prioritySorting = on;
      } else if ("PartialAdmission".equals(gate)) {
        partial = on;
      } else if (!(ALWAYS_ON_GATES.contains(gate) && on) && !(ALWAYS_OFF_GATES.contains(gate) && !on)) {
        throw CaseException.unsupported("feature gate " + gate + "=" + on + " is not supported yet");
      }
    }
    return new KueueConfig(fairSharing, List.copyOf(strategies), d.cycleLatencyMs(), d.inadmissibleRequeueDelayMs(),
        d.terminationGraceMs(), prioritySorting, partial, ts);
  }

  /** Every resource the case names: cpu, memory and pods first, then the others in order of appearance. */
  static ResourceSpace resources(JsonNode spec) {
    Set<String> names = new LinkedHashSet<>(List.of(ResourceSpace.CPU, ResourceSpace.MEMORY, ResourceSpace.PODS));
    List<JsonNode> owners = new ArrayList<>();
    owners.addAll(Nodes.list(spec, "clusterQueues"));
    owners.addAll(Nodes.list(spec, "cohorts"));
    for (JsonNode o : owners) {
      for (JsonNode g : Nodes.list(o, "resourceGroups")) {
        for (JsonNode r : Nodes.list(g, "covered")) {
          names.add(Nodes.text(r, "covered"));
        }
        for (JsonNode f : Nodes.list(g, "flavors")) {
          names.addAll(Nodes.map(f, "quota").keySet());
        }
      }
    }
    List<JsonNode> workloads = new ArrayList<>();
    workloads.addAll(Nodes.list(spec, "admitted"));
    workloads.addAll(Nodes.list(spec, "pending"));
    if (Nodes.has(spec, "incoming")) {
      workloads.add(spec.get("incoming"));
    }
    if (Nodes.has(spec, "workload")) {
      workloads.add(spec.get("workload"));
    }
    for (JsonNode w : workloads) {
      for (JsonNode ps : Nodes.list(w, "podSets")) {
        names.addAll(Nodes.map(ps, "perPod").keySet());
        names.addAll(Nodes.map(ps, "flavors").keySet());
      }
    }
    for (JsonNode byFlavor : Nodes.map(spec, "usage").values()) {
      for (JsonNode byResource : Nodes.entries(byFlavor, "usage").values()) {
        names.addAll(Nodes.entries(byResource, "usage").keySet());
      }
    }
    for (JsonNode n : Nodes.list(spec, "nodes")) {
      names.addAll(Nodes.map(n, "allocatable").keySet());
    }
    for (JsonNode byResource : Nodes.map(spec, "assignment").values()) {
      names.addAll(Nodes.entries(byResource, "assignment").keySet());
    }
    return ResourceSpace.of(new ArrayList<>(names));
  }
}
