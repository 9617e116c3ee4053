package batchsim.scenarios.kube;

import batchsim.scenarios.RegularFiles;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * The names of a sweep's objects, derived from the scenario's name and a hash of the sweep's settings: DNS-1123 labels (lowercase alphanumerics and
 * '-', starting and ending alphanumeric), at most 63 characters with any suffix the objects add — the Job's name
 * is also its pods' hostname prefix ({@code <job>-<index>}) and a label value.
 *
 * @param job the Job, and the directory of the results claim its pods write to
 */
public record KubeNames(String job) {
  /** The longest suffix added to {@link #job}: {@code -scenario}; 63 - 9. */
  static final int MAX_JOB = 54;
  /** Hex digits of the sweep's hash in {@link #job}. */
  static final int HASH = 8;

  /**
   * The names for a sweep of a scenario called {@code scenarioName} whose settings (scenario path and options)
   * are {@code sweepArgs}: a hash of both keeps variants of one scenario (other --set, --replicas) apart in one
   * namespace, where a Job's pod template cannot be changed and a results directory holds one sweep's cells.
   */
  public static KubeNames of(String scenarioName, java.util.List<String> sweepArgs) {
    String slug = scenarioName.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-+|-+$", "");
    String hash = RegularFiles.sha256((scenarioName + "\n" + String.join("\n", sweepArgs))
        .getBytes(StandardCharsets.UTF_8)).substring(0, HASH);
    String suffix = "-" + hash + "-sweep";
    String head = slug.isEmpty() ? "batchsim" : slug;
    if (head.length() > MAX_JOB - suffix.length()) {
      head = head.substring(0, MAX_JOB - suffix.length()).replaceAll("-+$", "");
    }
    return new KubeNames(head + suffix);
  }

  /** The ConfigMap holding the scenario and its includes. */
  public String scenario() {
    return job + "-scenario";
  }

  /** The ReadWriteMany claim the cells' results go to. */
  public String results() {
    return job + "-results";
  }

  /** The claim holding the files the scenario reads (traces, node lists, manifests). */
  public String data() {
    return job + "-data";
  }

  /** The Pod that mounts both claims, to copy traces in and results out. */
  public String files() {
    return job + "-files";
  }
}
