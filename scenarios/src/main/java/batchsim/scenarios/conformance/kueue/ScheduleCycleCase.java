package batchsim.scenarios.conformance.kueue;

import batchsim.core.kueue.Condition;
import batchsim.core.kueue.ConditionType;
import batchsim.core.kueue.KueueEngine;
import batchsim.core.kueue.Workload;
import batchsim.core.kueue.WorkloadState;
import batchsim.core.kueue.tas.TasPlacement;
import batchsim.core.model.ResourceSpace;
import batchsim.core.model.TopologySpec;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code schedule_cycle}: Kueue's TestSchedule / TestScheduleForFairSharing. The admitted workloads hold
 * quota, the pending ones are queued, then exactly one scheduling cycle runs and its outcome is compared.
 */
final class ScheduleCycleCase {

  private ScheduleCycleCase() {}

  static Mismatches run(ConformanceCase c) {
    CaseSetup setup = new CaseSetup(c.spec());
    KueueEngine engine = setup.newEngine();
    Map<String, Workload> admitted = setup.admit(engine);
    Map<String, Workload> pending = setup.submit(engine, admitted);
    Map<String, Workload> all = new LinkedHashMap<>(admitted);
    all.putAll(pending);
    engine.recordEvents(true);
    engine.runCycle();

    JsonNode ex = c.expect();
    Mismatches m = new Mismatches();
    newlyAdmitted(ex, setup, engine, pending, m);
    evicted(ex, all, m);
    reservedAfter(ex, engine, m);
    pendingQueues(ex, "pending_active", engine, true, m);
    pendingQueues(ex, "pending_inadmissible", engine, false, m);
    quotaReservedFalse(ex, all, m);
    events(ex, engine, m);
    skippedPreemptions(ex, engine, m);
    return m;
  }

  private static boolean holdsQuota(Workload w) {
    return w.state() == WorkloadState.RESERVED || w.state() == WorkloadState.RUNNING
        || w.state() == WorkloadState.EVICTING;
  }

  private static void newlyAdmitted(JsonNode ex, CaseSetup setup, KueueEngine engine, Map<String, Workload> pending,
      Mismatches m) {
    Map<String, JsonNode> expected = Nodes.map(ex, "newly_admitted");
    List<String> got = new ArrayList<>();
    for (Workload w : pending.values()) {
      if (holdsQuota(w)) {
        got.add(w.id());
      }
    }
    m.checkSet("newly_admitted", expected.keySet(), got);
    ResourceSpace res = setup.resources;
    for (Map.Entry<String, JsonNode> e : expected.entrySet()) {
      Workload w = pending.get(e.getKey());
      if (w == null || !holdsQuota(w)) {
        continue;
      }
      String where = "newly_admitted[" + e.getKey() + "]";
      JsonNode exp = e.getValue();
      if (Nodes.has(exp, "cq")) {
        m.check(where + ".cq", Nodes.text(exp.get("cq"), "cq"), w.clusterQueueName());
      }
      for (Map.Entry<String, JsonNode> pe : Nodes.map(exp, "podSets").entrySet()) {
        String psWhere = where + ".podSets[" + pe.getKey() + "]";
        int idx = podSetIndex(w, pe.getKey());
        if (idx < 0) {
          m.note(psWhere + ": no such podSet");
          continue;
        }
        JsonNode ps = pe.getValue();
        if (Nodes.has(ps, "count")) {
          m.check(psWhere + ".count", Nodes.integer(ps, "count", 0), w.admittedCount(idx));
        }
        if (Nodes.has(ps, "flavors")) {
          Map<String, String> expFlavors = new TreeMap<>();
          for (Map.Entry<String, JsonNode> f : Nodes.map(ps, "flavors").entrySet()) {
            expFlavors.put(f.getKey(), Nodes.text(f.getValue(), "flavor"));
          }
          Map<String, String> gotFlavors = new TreeMap<>();
          for (int r = 0; r < res.size(); r++) {
            int f = w.flavorOf(idx, r);
            // pods is assigned implicitly with its group; compare it only where the case lists it.
            if (f >= 0 && (!ResourceSpace.PODS.equals(res.name(r)) || expFlavors.containsKey(ResourceSpace.PODS))) {
              gotFlavors.put(res.name(r), engine.index().flavorName(f));
            }
          }
          m.check(psWhere + ".flavors", expFlavors, gotFlavors);
        }
        for (Map.Entry<String, JsonNode> u : Nodes.map(ps, "usage").entrySet()) {
          int r = res.require(u.getKey());
          long used = w.flavorOf(idx, r) < 0 ? 0
              : ResourceSpace.PODS.equals(u.getKey()) ? w.admittedCount(idx)
              : w.podSet(idx).perPod().get(r) * w.admittedCount(idx);
          long want = Nodes.quantity(u.getKey(), u.getValue());
          if (used != want) {
            m.add(psWhere + ".usage." + u.getKey(), res.format(r, want), res.format(r, used));
          }
        }
        if (ps.has("delayedTopologyRequest")) {
          JsonNode d = ps.get("delayedTopologyRequest");
          m.check(psWhere + ".delayedTopologyRequest", d.isNull() ? null : Nodes.text(d, "delayedTopologyRequest"),
              engine.delayedTopologyRequest(w, idx));
        }
        if (ps.has("topologyAssignment")) {
          topologyAssignment(ps.get("topologyAssignment"), psWhere + ".topologyAssignment", setup, engine, w, idx, m);
        }
      }
    }
  }

  /**
   * [TAS] A podSet's topology assignment: {@code null} = none; otherwise Kueue's TopologyAssignment
   * {@code {levels: [...], domains: [{values: [...], count: N}]}}, domains compared as a set. With
   * {@code kubernetes.io/hostname} as the lowest level, Kueue's levels are only the hostname level.
   */
  private static void topologyAssignment(JsonNode exp, String where, CaseSetup setup, KueueEngine engine, Workload w,
      int idx, Mismatches m) {
    TasPlacement got = null;
    for (TasPlacement p : engine.topologyPlacement(w)) {
      if (p.podSet() == idx && !p.slots().isEmpty()) {
        got = p;
      }
    }
    List<String> gotDomains = new ArrayList<>();
    List<String> gotLevels = List.of();
    if (got != null) {
      for (TasPlacement.Slot s : got.slots()) {
        gotDomains.add("[" + s.domain() + "]:" + s.count());
      }
      String flavor = got.flavor();
      TopologySpec topo = setup.flavors.stream().filter(f -> f.name().equals(flavor)).findFirst()
          .map(f -> setup.topologies.get(f.topologyName())).orElse(null);
      if (topo != null) {
        gotLevels = topo.lowestIsHostname() ? List.of(TopologySpec.HOSTNAME) : topo.levels();
      }
    }
    if (exp.isNull()) {
      m.check(where, null, got == null ? null : gotDomains);
      return;
    }
    if (got == null) {
      m.add(where, exp, null);
      return;
    }
    if (Nodes.has(exp, "levels")) {
      List<String> levels = new ArrayList<>();
      for (JsonNode l : Nodes.list(exp, "levels")) {
        levels.add(Nodes.text(l, "levels"));
      }
      m.check(where + ".levels", levels, gotLevels);
    }
    List<String> want = new ArrayList<>();
    for (JsonNode d : Nodes.list(exp, "domains")) {
      List<String> values = new ArrayList<>();
      for (JsonNode v : Nodes.list(d, "values")) {
        values.add(Nodes.text(v, "values"));
      }
      want.add("[" + String.join(",", values) + "]:" + Nodes.integer(d, "count", 0));
    }
    m.checkSet(where + ".domains", want, gotDomains);
  }

  private static int podSetIndex(Workload w, String name) {
    for (int i = 0; i < w.spec().podSets().size(); i++) {
      if (w.podSet(i).name().equals(name)) {
        return i;
      }
    }
    return -1;
  }

  private static void evicted(JsonNode ex, Map<String, Workload> all, Mismatches m) {
    Map<String, String> expected = new TreeMap<>();
    for (Map.Entry<String, JsonNode> e : Nodes.map(ex, "evicted").entrySet()) {
      expected.put(e.getKey(), Nodes.text(e.getValue(), "evicted reason"));
    }
    Map<String, String> got = new TreeMap<>();
    for (Workload w : all.values()) {
      Condition ev = w.condition(ConditionType.EVICTED);
      if (ev != null && ev.status()) {
        Condition p = w.condition(ConditionType.PREEMPTED);
        got.put(w.id(), "Preempted".equals(ev.reason()) && p != null && p.status() ? p.reason()
            : "Evicted:" + ev.reason());
      }
    }
    m.check("evicted", expected, got);
  }

  private static void reservedAfter(JsonNode ex, KueueEngine engine, Mismatches m) {
    JsonNode r = ex.get("reserved_after");
    if (r != null && r.isTextual() && "not_asserted".equals(r.asText())) {
      return;
    }
    List<String> expected = new ArrayList<>();
    for (JsonNode id : Nodes.list(ex, "reserved_after")) {
      expected.add(Nodes.text(id, "reserved_after"));
    }
    List<String> got = new ArrayList<>();
    for (Workload w : engine.reservedWorkloads()) {
      got.add(w.id());
    }
    m.checkSet("reserved_after", expected, got);
  }

  private static void pendingQueues(JsonNode ex, String key, KueueEngine engine, boolean active, Mismatches m) {
    Map<String, JsonNode> expected = Nodes.map(ex, key);
    for (String cq : expected.keySet()) {
      if (!engine.hasClusterQueue(cq)) {
        throw CaseException.invalid(key + ": unknown ClusterQueue " + cq);
      }
    }
    for (String cq : engine.clusterQueueNames()) {
      List<String> want = new ArrayList<>();
      if (expected.containsKey(cq)) {
        for (JsonNode id : expected.get(cq)) {
          want.add(Nodes.text(id, key));
        }
      }
      List<String> got = new ArrayList<>();
      for (Workload w : active ? engine.activePending(cq) : engine.inadmissiblePending(cq)) {
        got.add(w.id());
      }
      m.checkSet(key + "[" + cq + "]", want, got);
    }
  }

  private static void quotaReservedFalse(JsonNode ex, Map<String, Workload> all, Mismatches m) {
    Map<String, String> expected = new TreeMap<>();
    for (Map.Entry<String, JsonNode> e : Nodes.map(ex, "quota_reserved_false").entrySet()) {
      expected.put(e.getKey(), Nodes.text(e.getValue(), "reason"));
    }
    Map<String, String> got = new TreeMap<>();
    for (Workload w : all.values()) {
      Condition q = w.condition(ConditionType.QUOTA_RESERVED);
      if (q != null && !q.status()) {
        got.put(w.id(), q.reason());
      }
    }
    m.check("quota_reserved_false", expected, got);
  }

  /** The exact, ordered events, when the case asserts them. */
  private static void events(JsonNode ex, KueueEngine engine, Mismatches m) {
    if (!Nodes.has(ex, "events")) {
      return;
    }
    List<String> expected = new ArrayList<>();
    for (JsonNode e : Nodes.list(ex, "events")) {
      expected.add(Nodes.required(e, "workload", "event") + " " + Nodes.required(e, "reason", "event") + " "
          + Nodes.required(e, "type", "event"));
    }
    m.check("events", expected, engine.events());
  }

  private static void skippedPreemptions(JsonNode ex, KueueEngine engine, Mismatches m) {
    JsonNode metric = ex.get("skipped_preemptions_metric");
    for (Map.Entry<String, JsonNode> e : Nodes.map(ex, "skipped_preemptions_metric").entrySet()) {
      if (!engine.hasClusterQueue(e.getKey())) {
        throw CaseException.invalid("skipped_preemptions_metric: unknown ClusterQueue " + e.getKey());
      }
      m.check("skipped_preemptions_metric[" + e.getKey() + "]", Nodes.integer(metric, e.getKey(), 0),
          engine.skippedPreemptions().getOrDefault(e.getKey(), 0));
    }
  }
}
