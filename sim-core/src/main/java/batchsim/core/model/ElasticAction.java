package batchsim.core.model;

import java.util.List;

/**
 * Elastic jobs (Kueue feature gate ElasticJobsViaWorkloadSlices): a job's parallelism changes while it runs.
 * The scenario refuses both when the gate is off; the engine applies them as Kueue's job reconciler and
 * scheduler do (a smaller count in place, a larger one as a new workload slice replacing the admitted one).
 */
public sealed interface ElasticAction extends ClusterAction {
  /** The job's pod count (a Job's parallelism) becomes {@code pods}, at the time of the timeline event. */
  record Scale(String workload, int pods) implements ElasticAction, WorkloadAction {}

  /**
   * A workload class's scaling pattern: every job of the class scales to {@code step.pods} when it has run
   * {@code step.afterMs} since it first started. Installed once at the run's start.
   */
  record ClassPattern(String workloadClass, List<Step> steps) implements ElasticAction {
    public ClassPattern {
      steps = List.copyOf(steps);
    }
  }

  /** One step of a class's pattern. */
  record Step(long afterMs, int pods) {}
}
