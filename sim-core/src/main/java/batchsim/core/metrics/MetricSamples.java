package batchsim.core.metrics;

import java.util.Collections;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The engine's metric model read at every sample time ({@code sampleInterval}) and at the end of the run.
 * Empty under an engine without a metric model (Volcano) and, for {@code samples}, without sampling.
 */
public record MetricSamples(List<MetricSample> samples, SortedMap<String, Double> end) {
  public static final MetricSamples EMPTY = new MetricSamples(List.of(), Collections.unmodifiableSortedMap(new TreeMap<>()));

  public MetricSamples {
    samples = List.copyOf(samples);
  }
}
