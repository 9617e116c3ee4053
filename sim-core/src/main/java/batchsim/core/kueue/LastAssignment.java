package batchsim.core.kueue;

/**
 * Kueue AssignmentClusterQueueState: where the last flavor scan stopped for each podSet and resource, so
 * that the next attempt resumes after it (FlavorFungibility, FlavorFungibilityPreserveScanProgress).
 */
final class LastAssignment {
  /** [podSet][resource] → last tried flavor position in the group, -1 = reached the end, -2 = not tried. */
  final int[][] lastTriedIdx;
  final long generation;
  final long cycle;

  LastAssignment(int[][] lastTriedIdx, long generation, long cycle) {
    this.lastTriedIdx = lastTriedIdx;
    this.generation = generation;
    this.cycle = cycle;
  }

  static final int NOT_TRIED = -2;

  int nextFlavorToTry(int podSet, int resource) {
    if (podSet >= lastTriedIdx.length) {
      return 0;
    }
    int idx = lastTriedIdx[podSet][resource];
    return idx == NOT_TRIED ? 0 : idx + 1;
  }

  boolean pendingFlavors() {
    for (int[] ps : lastTriedIdx) {
      for (int idx : ps) {
        if (idx != -1 && idx != NOT_TRIED) {
          return true;
        }
      }
    }
    return false;
  }

  /** Kueue lastAssignmentOutdated with FlavorFungibilityPreserveScanProgress on. */
  boolean outdated(long currentGeneration, long currentCycle) {
    if (currentCycle - cycle <= 1) {
      return false;
    }
    return currentGeneration > generation;
  }
}
