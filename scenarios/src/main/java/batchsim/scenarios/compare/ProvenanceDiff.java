package batchsim.scenarios.compare;

import batchsim.reports.Provenance;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What tells two results apart before their numbers do: the provenance lines that differ (engine, overrides,
 * sweep cell, seed, scenario hash, each input file by its path, batchsim build). The scenario's own path is
 * left out: the same scenario run from another directory is the same run.
 */
final class ProvenanceDiff {
  private static final Set<String> KEYS = Set.of("engine", "overrides", "sweep cell", "seed", "scenario sha256",
      "batchsim");

  private ProvenanceDiff() {}

  /** {@code key: base → other} for each compared line that differs, in provenance order. */
  static List<String> of(List<Provenance.Line> base, List<Provenance.Line> other) {
    Map<String, String> b = byKey(base);
    Map<String, String> o = byKey(other);
    List<String> out = new ArrayList<>();
    Map<String, String> keys = new LinkedHashMap<>(b);
    o.forEach(keys::putIfAbsent);
    for (String k : keys.keySet()) {
      String bv = b.getOrDefault(k, "-");
      String ov = o.getOrDefault(k, "-");
      if (!bv.equals(ov)) {
        out.add(k + ": " + bv + " → " + ov);
      }
    }
    return out;
  }

  /** Compared lines by key; an input by {@code input PATH} (a trace's bytes, not the scenario's, may differ). */
  private static Map<String, String> byKey(List<Provenance.Line> lines) {
    Map<String, String> out = new LinkedHashMap<>();
    for (Provenance.Line l : lines) {
      if (l.key().equals("input")) {
        int sha = l.value().lastIndexOf(" sha256:");
        out.put("input " + l.value().substring(0, Math.max(sha, 0)), l.value().substring(sha + 1));
      } else if (KEYS.contains(l.key())) {
        out.put(l.key(), l.value());
      }
    }
    return out;
  }
}
