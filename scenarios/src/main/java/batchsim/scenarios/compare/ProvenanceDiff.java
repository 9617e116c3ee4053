package batchsim.scenarios.compare;

import batchsim.reports.Provenance;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What tells two results apart before their numbers do: the provenance lines that differ (engine, overrides,
 * sweep cell, seed, scenario hash, batchsim build). The scenario's path and the input files are left out: the
 * same scenario run from another directory is the same run, and a changed input changes the scenario hash.
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

  private static Map<String, String> byKey(List<Provenance.Line> lines) {
    Map<String, String> out = new LinkedHashMap<>();
    lines.stream().filter(l -> KEYS.contains(l.key())).forEach(l -> out.put(l.key(), l.value()));
    return out;
  }
}
