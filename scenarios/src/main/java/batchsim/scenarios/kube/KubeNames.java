package batchsim.scenarios.kube;

import batchsim.scenarios.RegularFiles;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * The names of a sweep's objects, derived from the scenario's name: DNS-1123 labels (lowercase alphanumerics and
 * '-', starting and ending alphanumeric), at most 63 characters with any suffix the objects add — the Job's name
 * is also its pods' hostname prefix ({@code <job>-<index>}) and a label value.
 *
 * @param job the Job, and the directory of the results claim its pods write to
 */
public record KubeNames(String job) {
  /** The longest suffix added to {@link #job}: {@code -scenario}; 63 - 9. */
  static final int MAX_JOB = 54;

  /** The names for a scenario called {@code scenarioName}. */
  public static KubeNames of(String scenarioName) {
    String slug = scenarioName.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-+|-+$", "");
    String job = (slug.isEmpty() ? "batchsim" : slug) + "-sweep";
    if (job.length() > MAX_JOB) { // cut, and keep names of long scenario names apart by a hash of the whole name
      String hash = RegularFiles.sha256(scenarioName.getBytes(StandardCharsets.UTF_8)).substring(0, 8);
      job = slug.substring(0, MAX_JOB - "-sweep".length() - 9).replaceAll("-+$", "") + "-" + hash + "-sweep";
    }
    return new KubeNames(job);
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
