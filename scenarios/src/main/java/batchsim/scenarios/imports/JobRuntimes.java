package batchsim.scenarios.imports;

import batchsim.scenarios.imports.KubeObjects.KubeObject;
import batchsim.scenarios.yaml.IssueSink;
import batchsim.scenarios.yaml.Node;
import java.util.List;

/**
 * Runtime estimates of job manifests for tools outside the import ({@code batchsim eta}): the object's
 * {@code batchsim.io/runtime} annotation, else {@code --runtime DIST}, else the import's placeholder — the
 * import's own rules without a history to learn from.
 */
public final class JobRuntimes {
  /** A scenario {@code runtime} node and where it came from, in words. */
  public record Runtime(Node node, String source) {}

  private final RuntimeEstimates estimates;

  /**
   * @param runtime {@code --runtime DIST} (null: the placeholder)
   * @throws IllegalArgumentException naming the flag when {@code runtime} is not a DIST
   */
  public JobRuntimes(String runtime, IssueSink problems) {
    this.estimates = new RuntimeEstimates(runtime, List.of(), problems);
  }

  /** The runtime of job {@code o} (a malformed annotation is a located problem, and the fallback is used). */
  public Runtime of(KubeObject o, String localQueue) {
    RuntimeEstimates.Estimate e = estimates.forJob(o, localQueue);
    return new Runtime(e.runtime(), e.source() == RuntimeEstimates.Source.DEFAULT ? "--runtime" : e.source().describe());
  }

  /** The {@code runtimes: ...} line over the jobs estimated so far, as the import prints it. */
  public List<String> summary() {
    return estimates.summary();
  }
}
