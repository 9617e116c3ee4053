package batchsim.scenarios.sweep;

import batchsim.reports.Provenance;
import batchsim.reports.RunMetadata;
import batchsim.scenarios.LoadedScenario;
import java.util.Map;

/**
 * One run of a sweep.
 *
 * @param index position in the sweep (combinations in matrix order, replicas innermost)
 * @param name e.g. {@code gpu=48,fairSharing=on,seed=43}
 * @param dir the name as one safe, unique directory name
 * @param configuration the name without the seed: the group whose replicas are aggregated
 * @param levels dimension → level label
 * @param scenario the bound scenario with this cell's overrides and seed
 */
public record Cell(int index, String name, String dir, String configuration, Map<String, String> levels,
    LoadedScenario scenario) {

  /** What this cell's results record about where they came from. */
  public RunMetadata metadata(Provenance.Build build) {
    return scenario.metadata(new Provenance.Cell(name, levels), build);
  }

  /** {@code name} with characters outside {@code [A-Za-z0-9._=,+-]} replaced by '_'. */
  static String safe(String name) {
    String s = name.replaceAll("[^A-Za-z0-9._=,+-]", "_");
    return s.isEmpty() || s.chars().allMatch(c -> c == '.') ? "_" + s : s;
  }
}
