package batchsim.core.metrics;

import java.util.List;

/**
 * Samples taken every {@code sampleInterval} of virtual time, in wide form: one row per sample, one
 * column per series. Column names are {@code kind:labels...}, e.g. {@code pending:team-a},
 * {@code used:team-a:a100:nvidia.com/gpu}, {@code allocated:a100:cpu}; amounts are in base units
 * (cpu milli-cores, memory bytes, other resources units). {@code share:<queue>} is Kueue's weighted
 * dominant resource share, per mille (0 when the queue is not borrowing). {@code evicted:<queue>} and
 * {@code preempted:<queue>} are cumulative counts, so their differences place evictions in time.
 *
 * @param timesMs sample times, ascending
 * @param rows rows.get(i)[j] is column j at timesMs.get(i)
 */
public record TimeSeries(List<String> columns, List<Long> timesMs, List<long[]> rows) {
  public static final TimeSeries EMPTY = new TimeSeries(List.of(), List.of(), List.of());

  public int column(String name) {
    return columns.indexOf(name);
  }
}
