package batchsim.scenarios.conformance.kueue;

import batchsim.core.kueue.CheckState;
import batchsim.core.kueue.KueueEngine;
import batchsim.core.kueue.Workload;
import batchsim.core.model.PodSetSpec;
import batchsim.core.model.ResourceGroupSpec;
import batchsim.core.model.ResourceSpace;
import batchsim.core.model.Resources;
import batchsim.core.model.TopologyRequest;
import batchsim.core.model.WorkloadSpec;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A case's workloads: those put in the cache holding quota ({@code admitted}), those queued
 * ({@code pending}) and single incoming ones, with priority 0, no UID and creation time "unset" unless given.
 */
final class CaseWorkloads {

  private final JsonNode spec;
  private final ResourceSpace resources;
  private final ClusterObjects cluster;
  private final QuotaTree quota;
  private long seq;

  CaseWorkloads(JsonNode spec, ResourceSpace resources, ClusterObjects cluster, QuotaTree quota) {
    this.spec = spec;
    this.resources = resources;
    this.cluster = cluster;
    this.quota = quota;
  }

  /** Puts every {@code admitted} workload in the cache holding quota with its given flavors. */
  Map<String, Workload> admit(KueueEngine engine) {
    Map<String, Workload> out = new LinkedHashMap<>();
    for (JsonNode w : Nodes.list(spec, "admitted")) {
      String id = Nodes.required(w, "id", "admitted workload");
      String cq = quota.requireQueue(Nodes.required(w, "cq", "admitted workload " + id));
      WorkloadSpec ws = workloadSpec(w, id, cq, true);
      checkStates(w, id, cq, true);
      int[][] fl = admittedFlavors(engine, w, ws, cq);
      tasAdmitted(ws, fl);
      long reservedAt = Nodes.relativeTime(w, "reservedAt", CaseSetup.NOW, CaseSetup.NOW);
      Workload wl = engine.assumeAdmitted(ws, cq, priority(w), seq++, uid(w), fl, reservedAt);
      if (out.put(id, wl) != null) {
        throw CaseException.invalid("duplicate workload " + id);
      }
    }
    return out;
  }

  /** Queues every {@code pending} workload in its ClusterQueue; the heap orders them. */
  Map<String, Workload> submit(KueueEngine engine, Map<String, Workload> existing) {
    Map<String, Workload> out = new LinkedHashMap<>();
    for (JsonNode w : Nodes.list(spec, "pending")) {
      String id = Nodes.required(w, "id", "pending workload");
      String cq = quota.requireQueue(Nodes.required(w, "cq", "pending workload " + id));
      WorkloadSpec ws = workloadSpec(w, id, cq, true);
      checkStates(w, id, cq, false);
      Workload wl = engine.submit(ws, cq, priority(w), seq++, uid(w));
      if (existing.containsKey(id) || out.put(id, wl) != null) {
        throw CaseException.invalid("duplicate workload " + id);
      }
    }
    return out;
  }

  static int priority(JsonNode w) {
    return Nodes.integer(w, "priority", 0);
  }

  static String uid(JsonNode w) {
    return Nodes.string(w, "uid", null);
  }

  /** A workload that is neither admitted nor pending here (an incoming one): no admission check states. */
  WorkloadSpec workloadSpec(JsonNode w, String id, String cq) {
    return workloadSpec(w, id, cq, false);
  }

  private WorkloadSpec workloadSpec(JsonNode w, String id, String cq, boolean withChecks) {
    if (!withChecks && Nodes.has(w, "admissionChecks")) {
      throw CaseException.unsupported("workload " + id + " field 'admissionChecks' is not supported here");
    }
    List<PodSetSpec> podSets = new ArrayList<>();
    for (JsonNode ps : Nodes.list(w, "podSets")) {
      podSets.add(podSet(ps, id));
    }
    if (podSets.isEmpty()) {
      throw CaseException.invalid("workload " + id + " has no podSets");
    }
    long created = Nodes.relativeTime(w, "created", CaseSetup.NOW, Workload.UNSET_TIME);
    return new WorkloadSpec(id, null, cq, created, priority(w), null, podSets, 0);
  }

  private PodSetSpec podSet(JsonNode ps, String id) {
    String where = "workload " + id + " podSet";
    String name = Nodes.required(ps, "name", where);
    int count = Nodes.integer(ps, "count", 1);
    int min = Nodes.integer(ps, "minCount", PodSetSpec.NO_MIN_COUNT);
    long[] perPod = new long[resources.size()];
    for (Map.Entry<String, JsonNode> e : Nodes.map(ps, "perPod").entrySet()) {
      perPod[resources.require(e.getKey())] = Nodes.quantity(e.getKey(), e.getValue());
    }
    TreeMap<String, String> selector = new TreeMap<>();
    for (Map.Entry<String, JsonNode> e : Nodes.map(ps, "nodeSelector").entrySet()) {
      selector.put(e.getKey(), Nodes.text(e.getValue(), "nodeSelector"));
    }
    TopologyRequest topology = topologyRequest(ps.get("topology"), where + " " + name);
    if (topology != null && !cluster.usesTas()) {
      throw CaseException.unsupported(where + " " + name + ": a topology request in a case without TAS flavors "
          + "is not modelled (the engine ignores it when no flavor has a topologyName)");
    }
    return new PodSetSpec(name, count, min, Resources.wrap(perPod), selector, ClusterObjects.tolerations(ps), topology);
  }

  /** [TAS] {@code topology: {required: <level>}} or {@code {preferred: <level>}}; absent is none. */
  private static TopologyRequest topologyRequest(JsonNode t, String where) {
    if (t == null || t.isNull()) {
      return null;
    }
    if (t.size() != 1) {
      throw CaseException.invalid(where + " topology: exactly one of required, preferred");
    }
    return Nodes.has(t, "required") ? TopologyRequest.required(Nodes.text(t.get("required"), "required"))
        : TopologyRequest.preferred(Nodes.text(t.get("preferred"), "preferred"));
  }

  /**
   * A workload's {@code admissionChecks} (check -> state). The engine sets every check of the ClusterQueue
   * to Pending when quota is reserved, so only Pending states of the ClusterQueue's own checks are
   * reproducible; a pending workload whose check already has a verdict is not modelled.
   */
  private void checkStates(JsonNode w, String id, String cq, boolean admitted) {
    Map<String, JsonNode> states = Nodes.map(w, "admissionChecks");
    if (states.isEmpty()) {
      return;
    }
    if (admitted) {
      throw CaseException.unsupported("admitted workload " + id + ": admission check states of a workload "
          + "already holding quota are not set up");
    }
    List<String> cqChecks = quota.queuesByName.get(cq).admissionChecks();
    for (Map.Entry<String, JsonNode> e : states.entrySet()) {
      if (!cluster.admissionChecks.contains(e.getKey())) {
        throw CaseException.invalid("workload " + id + ": unknown admission check " + e.getKey());
      }
      if (!cqChecks.contains(e.getKey())) {
        throw CaseException.unsupported("workload " + id + ": admission check " + e.getKey()
            + " is not one of ClusterQueue " + cq + "'s checks");
      }
      String state = Nodes.text(e.getValue(), "workload " + id + " admission check " + e.getKey());
      CheckState parsed = switch (state) {
        case "Pending" -> CheckState.PENDING;
        case "Ready" -> CheckState.READY;
        case "Retry" -> CheckState.RETRY;
        case "Rejected" -> CheckState.REJECTED;
        default -> throw CaseException.invalid("workload " + id + ": admission check " + e.getKey()
            + ": unknown state " + state + " (Pending, Ready, Retry, Rejected)");
      };
      if (parsed != CheckState.PENDING) {
        throw CaseException.unsupported("workload " + id + ": admission check " + e.getKey() + " is " + state
            + " before quota reservation; the engine starts every check Pending when it reserves quota");
      }
    }
  }

  /**
   * [TAS] Workloads put in the cache holding quota get no topology assignment here, so they may not use a
   * TAS flavor (the engine would not count them on any node).
   */
  private void tasAdmitted(WorkloadSpec ws, int[][] fl) {
    for (int i = 0; i < fl.length; i++) {
      if (ws.podSets().get(i).topology() != null) {
        throw CaseException.unsupported("admitted workload " + ws.id() + ": a podSet with a topology request "
            + "needs a topologyAssignment, which the case setup does not build");
      }
      for (int f : fl[i]) {
        if (f >= 0 && cluster.flavors.get(f).topologyName() != null) {
          throw CaseException.unsupported("admitted workload " + ws.id() + " uses TAS flavor "
              + cluster.flavors.get(f).name() + ": its topologyAssignment is not set up");
        }
      }
    }
  }

  /**
   * The admission flavors [podSet][resource] of an admitted workload. When the ClusterQueue covers
   * {@code pods} and the case leaves it out, pods take the flavor chosen for their resource group.
   */
  private int[][] admittedFlavors(KueueEngine engine, JsonNode w, WorkloadSpec ws, String cq) {
    List<JsonNode> podSets = Nodes.list(w, "podSets");
    int[][] out = new int[podSets.size()][resources.size()];
    for (int i = 0; i < podSets.size(); i++) {
      Arrays.fill(out[i], -1);
      for (Map.Entry<String, JsonNode> e : Nodes.map(podSets.get(i), "flavors").entrySet()) {
        int r = resources.require(e.getKey());
        String f = Nodes.text(e.getValue(), "flavors." + e.getKey());
        out[i][r] = engine.index().flavorIndex(f);
        if (out[i][r] < 0) {
          throw CaseException.invalid("workload " + ws.id() + ": unknown flavor " + f);
        }
      }
      int pods = resources.indexOf(ResourceSpace.PODS);
      if (pods >= 0 && out[i][pods] < 0) {
        for (ResourceGroupSpec g : quota.queuesByName.get(cq).resourceGroups()) {
          if (g.coveredResources().contains(ResourceSpace.PODS)) {
            for (String other : g.coveredResources()) {
              int r = resources.indexOf(other);
              if (r >= 0 && out[i][r] >= 0) {
                out[i][pods] = out[i][r];
              }
            }
          }
        }
      }
      for (int r = 0; r < resources.size(); r++) {
        if (ws.podSets().get(i).perPod().get(r) > 0 && out[i][r] < 0) {
          throw CaseException.invalid("admitted workload " + ws.id() + " podSet " + ws.podSets().get(i).name()
              + " has no flavor for " + resources.name(r));
        }
      }
    }
    return out;
  }
}
