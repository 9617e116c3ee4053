package batchsim.core.world.kueue;

import batchsim.core.kueue.CheckState;
import batchsim.core.kueue.Condition;
import batchsim.core.kueue.ConditionType;
import batchsim.core.kueue.KueueEngine;
import batchsim.core.kueue.Workload;
import batchsim.core.kueue.WorkloadState;
import batchsim.core.kueue.tas.TasPlacement;
import batchsim.core.model.PodSetSpec;
import batchsim.core.model.ResourceSpace;
import batchsim.core.model.TopologySpec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A Workload's status as Kueue's API shapes it (apis/kueue/v1beta2/workload_types.go): conditions, admission,
 * admissionChecks, requeueState, accumulatedPastExecutionTimeSeconds. Times are RFC 3339 at whole seconds
 * (metav1.Time), counted from 1970-01-01T00:00:00Z at virtual time 0.
 */
final class WorkloadStatus {
  private final KueueEngine kueue;
  private final ResourceSpace resources;
  /** TAS flavor → its topology's levels. */
  private final Map<String, List<String>> levelsOfFlavor = new HashMap<>();

  WorkloadStatus(KueueAdmission admission) {
    this.kueue = admission.kueue;
    this.resources = admission.spec.resources();
    Map<String, List<String>> levels = new HashMap<>();
    for (TopologySpec t : admission.spec.topologies()) {
      levels.put(t.name(), t.levels());
    }
    admission.spec.flavors().forEach(f -> {
      if (f.topologyName() != null && levels.containsKey(f.topologyName())) {
        levelsOfFlavor.put(f.name(), levels.get(f.topologyName()));
      }
    });
  }

  /** metav1.Time of a virtual time. */
  static String time(long ms) {
    return Instant.ofEpochSecond(Math.floorDiv(ms, 1000)).toString();
  }

  static Map<String, Object> condition(String type, boolean status, String reason, String message, long timeMs) {
    Map<String, Object> c = new LinkedHashMap<>();
    c.put("type", type);
    c.put("status", status ? "True" : "False");
    c.put("lastTransitionTime", time(timeMs));
    c.put("reason", reason);
    c.put("message", message == null ? "" : message);
    return c;
  }

  Map<String, Object> status(Workload w, List<CheckView> checks, long accumulatedSeconds, long nowMs) {
    Map<String, Object> s = new LinkedHashMap<>();
    List<Object> conditions = new ArrayList<>();
    for (ConditionType t : ConditionType.values()) {
      Condition c = w.condition(t);
      if (c != null) {
        conditions.add(condition(t.kueueName(), c.status(), c.reason(), c.message(), c.timeMs()));
      }
    }
    if (!conditions.isEmpty()) {
      s.put("conditions", conditions);
    }
    if (w.hasAdmission()) { // Kueue keeps a finished workload's admission
      s.put("admission", admission(w));
    }
    // Kueue's workload controller clears requeueAt once the backoff is over, and the whole requeueState when
    // it deactivates the workload.
    Map<String, Object> requeue = new LinkedHashMap<>();
    if (w.requeueCount() > 0) {
      requeue.put("count", w.requeueCount());
    }
    if (w.requeueAtMs() != Workload.UNSET_TIME && w.requeueAtMs() > nowMs) {
      requeue.put("requeueAt", time(w.requeueAtMs()));
    }
    if (!requeue.isEmpty() && w.state() != WorkloadState.DEACTIVATED) {
      s.put("requeueState", requeue);
    }
    if (!checks.isEmpty()) {
      List<Object> out = new ArrayList<>();
      for (CheckView c : checks) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", c.name);
        m.put("state", c.state);
        m.put("lastTransitionTime", time(c.timeMs));
        m.put("message", c.message);
        if (c.retryCount > 0) {
          m.put("retryCount", c.retryCount);
        }
        out.add(m);
      }
      s.put("admissionChecks", out);
    }
    if (accumulatedSeconds > 0) {
      s.put("accumulatedPastExecutionTimeSeconds", accumulatedSeconds);
    }
    if (w.runtime instanceof WorkloadRun run && run.clusterName != null) {
      s.put("clusterName", run.clusterName); // MultiKueue's manager
    }
    if (w.runtime instanceof WorkloadRun run && !run.nominatedClusters.isEmpty()) {
      s.put("nominatedClusterNames", run.nominatedClusters);
    }
    return s;
  }

  private Map<String, Object> admission(Workload w) {
    Map<String, Object> a = new LinkedHashMap<>();
    a.put("clusterQueue", w.clusterQueueName());
    List<TasPlacement> tas = kueue.hasTopologyAssignment(w) ? kueue.topologyPlacement(w) : List.of();
    List<Object> podSets = new ArrayList<>();
    for (int i = 0; i < w.spec().podSets().size(); i++) {
      PodSetSpec ps = w.podSet(i);
      int count = w.admittedCount(i);
      Map<String, Object> flavors = new TreeMap<>();
      Map<String, Object> usage = new TreeMap<>();
      for (int r = 0; r < resources.size(); r++) {
        String name = resources.name(r);
        int f = w.flavorOf(i, r);
        if (f >= 0) {
          flavors.put(name, kueue.index().flavorName(f));
        }
        long perPod = name.equals(ResourceSpace.PODS) && f >= 0 ? 1 : ps.perPod().get(r);
        if (perPod > 0) {
          usage.put(name, KueueQuantity.format(name, perPod * count));
        }
      }
      Map<String, Object> p = new LinkedHashMap<>();
      p.put("name", ps.name());
      if (!flavors.isEmpty()) {
        p.put("flavors", flavors);
      }
      if (!usage.isEmpty()) {
        p.put("resourceUsage", usage);
      }
      p.put("count", count);
      for (TasPlacement t : tas) {
        if (t.podSet() == i && !t.slots().isEmpty()) {
          p.put("topologyAssignment", topologyAssignment(t));
        }
      }
      podSets.add(p);
    }
    a.put("podSetAssignments", podSets);
    return a;
  }

  /**
   * [TAS] v1beta2 TopologyAssignment: the levels (only the hostname when it is the lowest level, as Kueue
   * keeps it) and one slice over the assigned leaf domains in Kueue's single compact encoding
   * (pkg/util/tas/tas_assignment.go compactSliceEncoding): per level a universal value, or individual roots
   * with their common prefix and suffix taken out; pod counts universal when all equal. (Kueue's default
   * TASAssignmentsEncodingByHostnamePrefix may split large assignments into several slices: not modelled.)
   */
  private Map<String, Object> topologyAssignment(TasPlacement t) {
    List<String> levels = levelsOfFlavor.getOrDefault(t.flavor(), List.of());
    boolean hostLeaf = !levels.isEmpty() && levels.get(levels.size() - 1).equals(TopologySpec.HOSTNAME);
    List<String> kept = hostLeaf ? List.of(TopologySpec.HOSTNAME) : levels;
    List<List<String>> perLevel = new ArrayList<>();
    for (int l = 0; l < kept.size(); l++) {
      perLevel.add(new ArrayList<>());
    }
    List<Integer> counts = new ArrayList<>();
    for (TasPlacement.Slot s : t.slots()) {
      String[] values = hostLeaf ? new String[] {s.domain()} : s.domain().split(",", -1);
      for (int l = 0; l < kept.size(); l++) {
        perLevel.get(l).add(l < values.length ? values[l] : "");
      }
      counts.add(s.count());
    }
    List<Object> valuesPerLevel = new ArrayList<>();
    for (List<String> v : perLevel) {
      valuesPerLevel.add(compactValues(v));
    }
    Map<String, Object> slice = new LinkedHashMap<>();
    slice.put("domainCount", t.slots().size());
    slice.put("valuesPerLevel", valuesPerLevel);
    slice.put("podCounts", counts.stream().distinct().count() == 1 ? Map.of("universal", counts.get(0))
        : Map.of("individual", counts));
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("levels", kept);
    out.put("slices", List.of(slice));
    return out;
  }

  /** Kueue fillSingleCompactSliceValues: universal when all equal, else roots without common prefix/suffix. */
  static Map<String, Object> compactValues(List<String> values) {
    String prefix = values.get(0);
    String suffix = values.get(0);
    int minLen = prefix.length();
    int maxLen = prefix.length();
    for (String s : values) {
      minLen = Math.min(minLen, s.length());
      maxLen = Math.max(maxLen, s.length());
      int i = 0;
      while (i < prefix.length() && i < s.length() && s.charAt(i) == prefix.charAt(i)) {
        i++;
      }
      prefix = prefix.substring(0, i);
      int j = 0;
      while (j < suffix.length() && j < s.length()
          && s.charAt(s.length() - 1 - j) == suffix.charAt(suffix.length() - 1 - j)) {
        j++;
      }
      suffix = suffix.substring(suffix.length() - j);
    }
    if (prefix.length() == maxLen) {
      return Map.of("universal", prefix);
    }
    if (prefix.length() + suffix.length() > minLen) { // they must not overlap ({"ababa", "aba"})
      prefix = prefix.substring(0, minLen - suffix.length());
    }
    Map<String, Object> ind = new LinkedHashMap<>();
    if (!prefix.isEmpty()) {
      ind.put("prefix", prefix);
    }
    if (!suffix.isEmpty()) {
      ind.put("suffix", suffix);
    }
    List<String> roots = new ArrayList<>();
    for (String s : values) {
      roots.add(s.substring(prefix.length(), s.length() - suffix.length()));
    }
    ind.put("roots", roots);
    return Map.of("individual", ind);
  }

  /** Kueue CheckState names. */
  static String checkState(CheckState s) {
    return switch (s) {
      case PENDING -> "Pending";
      case READY -> "Ready";
      case RETRY -> "Retry";
      case REJECTED -> "Rejected";
    };
  }

  /** One admission check's state as the workload's status shows it (Kueue AdmissionCheckState). */
  static final class CheckView {
    final String name;
    String state;
    String message = "";
    long timeMs;
    int retryCount;

    CheckView(String name) {
      this.name = name;
    }
  }
}
