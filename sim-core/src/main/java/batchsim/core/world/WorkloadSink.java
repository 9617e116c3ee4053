package batchsim.core.world;

import batchsim.core.metrics.Decision;
import batchsim.core.metrics.WorkloadRecord;
import java.util.List;

/**
 * Receives one record per workload as the run goes, so the run keeps no finished workload: a workload's
 * record comes when it ends (finished, deleted, or rejected on arrival), and the records of the workloads
 * still live come at the end of the run, in submission order. Deterministic: the same run gives the same
 * records in the same order.
 */
@FunctionalInterface
public interface WorkloadSink {
  /**
   * One workload's record.
   *
   * @param seq its place in arrival order (the engine's submissions, then the rejected arrivals), for a sink
   *     that wants the records in that order ({@link WorkloadCollector})
   * @param decisions its decision log (every condition change), or null without {@code --explain}
   */
  void accept(long seq, WorkloadRecord record, List<Decision> decisions);
}
