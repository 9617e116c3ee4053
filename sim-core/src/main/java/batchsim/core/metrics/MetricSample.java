package batchsim.core.metrics;

import java.util.SortedMap;

/** Every metric series and its value at a virtual time (series named in Prometheus text form). */
public record MetricSample(long timeMs, SortedMap<String, Double> values) {}
