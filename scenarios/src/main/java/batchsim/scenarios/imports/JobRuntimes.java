package batchsim.scenarios.imports;

import batchsim.scenarios.imports.KubeObjects.KubeObject;
import batchsim.scenarios.yaml.IssueSink;
import batchsim.scenarios.yaml.Node;
import java.util.List;

/**
 * Runtime estimates of job manifests for tools outside the import ({@code batchsim eta}): the import's own
 * rules — the object's {@code batchsim.io/runtime} annotation, its LocalQueue's history when a snapshot's
 * Workloads were {@linkplain #learnFrom learned from}, else {@code --runtime DIST}, else the placeholder.
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

  /**
   * Learns from a snapshot's finished Kueue Workloads ({@code kubectl get workloads -o yaml}): a job of a
   * LocalQueue with enough of them takes a runtime fitted to theirs, as the import's jobs do.
   */
  public void learnFrom(List<KubeObject> snapshot, IssueSink problems) {
    WorkloadObjects.learnRuntimes(snapshot, problems, estimates);
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
