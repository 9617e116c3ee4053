package batchsim.core.model;

/**
 * A lazy stream of workloads in non-decreasing {@code createdMs} order. The engine pulls one workload
 * ahead per source, so a source never needs to hold its whole trace in memory.
 */
public interface WorkloadSource extends AutoCloseable {
  /** The next workload, or null when the source is exhausted. */
  WorkloadSpec next();

  @Override
  default void close() {}
}
