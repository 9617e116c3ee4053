package batchsim.scenarios.compare;

import java.util.List;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * The numbers of one run that expectations, baselines, sweeps and {@code compare} look at, read either
 * from a {@link batchsim.core.metrics.RunResult} in memory ({@link RunResultView}) or from a stored
 * summary.json ({@link SummaryFile}); both give the same values for the same run.
 */
public interface ResultView {
  /** The queue name that stands for all ClusterQueues together. */
  String OVERALL = "*";

  String scenarioName();

  long seed();

  long endTimeMs();

  /** ClusterQueue names in scenario order, without {@link #OVERALL}. */
  List<String> queues();

  /** A latency statistic in ms; empty for an unknown queue or a histogram without samples. */
  OptionalDouble latency(String queue, Series series, Stat stat);

  /** A count; empty for an unknown queue. */
  OptionalLong count(String queue, Counter counter);

  /** Time-weighted utilization rows in result order; flavor {@link #OVERALL} covers all nodes. */
  List<Utilization> utilization();

  /** Node-hours per node pool; empty when the result does not record them. */
  List<PoolHours> pools();

  /** Kueue's metrics as the run sampled them; empty for a stored result or a run without a metric model. */
  default batchsim.core.metrics.MetricSamples metricSamples() {
    return batchsim.core.metrics.MetricSamples.EMPTY;
  }

  /** The utilization of {@code resource} on {@code flavor}'s nodes; empty when unknown or without capacity. */
  default OptionalDouble utilization(String flavor, String resource) {
    for (Utilization u : utilization()) {
      if (u.flavor().equals(flavor) && u.resource().equals(resource)) {
        return Double.isFinite(u.utilization()) && u.meanCapacity() > 0 ? OptionalDouble.of(u.utilization())
            : OptionalDouble.empty();
      }
    }
    return OptionalDouble.empty();
  }

  /**
   * One utilization row.
   *
   * @param utilization allocated ÷ capacity, NaN when undefined
   * @param meanAllocated time-weighted mean allocated amount, base units
   * @param meanCapacity time-weighted mean capacity, base units
   */
  record Utilization(String flavor, String resource, double utilization, double meanAllocated,
      double meanCapacity) {}

  /** What one node pool cost. */
  record PoolHours(String pool, double nodeHours) {}
}
