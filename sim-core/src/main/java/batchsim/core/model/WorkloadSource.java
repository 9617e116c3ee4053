package batchsim.core.model;

/**
 * A lazy stream of workloads in non-decreasing {@code createdMs} order. The engine pulls one workload
 * ahead per source, so a source never needs to hold its whole trace in memory.
 */
public interface WorkloadSource extends AutoCloseable {
  /** The next workload, or null when the source is exhausted. */
  WorkloadSpec next();

  /**
   * Multiplies the arrival rate from the next gap on; returns false when this source has no rate (a list
   * or a trace), so the caller can report that the action did not apply.
   */
  default boolean scaleRate(double factor) {
    return false;
  }

  @Override
  default void close() {}
}
