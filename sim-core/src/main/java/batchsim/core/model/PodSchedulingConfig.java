package batchsim.core.model;

/**
 * The kube-scheduler emulation that binds admitted pods to nodes.
 *
 * @param scoring node scoring among feasible nodes
 * @param podStartupMs delay from a pod's binding until it counts as ready
 */
public record PodSchedulingConfig(ScoringStrategy scoring, long podStartupMs) {
  public static PodSchedulingConfig defaults() {
    return new PodSchedulingConfig(ScoringStrategy.LEAST_ALLOCATED, 0);
  }
}
