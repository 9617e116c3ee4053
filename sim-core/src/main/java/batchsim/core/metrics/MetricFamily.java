package batchsim.core.metrics;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One Prometheus metric family (a *Vec in client_golang): a name, its label names in declaration order, and
 * one value per label-value set. No Prometheus library: the values are exported as series in Prometheus
 * text form by {@link #writeTo}.
 */
public abstract sealed class MetricFamily<V> permits ScalarFamily, HistogramFamily {
  private final String name;
  private final List<String> labelNames;
  /** Series per label values (in declaration order), kept sorted for deterministic output. */
  final Map<List<String>, V> series = new TreeMap<>(MetricFamily::compareValues);
  /** The same series by hash: a counter incremented at every admission must not walk the sorted map. */
  private final Map<Key, V> byHash = new HashMap<>();

  /** Label values as looked up: hashed and compared as the array, which is not copied. */
  private static final class Key {
    final String[] values;
    final int hash;

    Key(String[] values) {
      this.values = values;
      this.hash = Arrays.hashCode(values);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Key k && k.hash == hash && Arrays.equals(k.values, values);
    }

    @Override
    public int hashCode() {
      return hash;
    }
  }
  /** Series names already built: every snapshot shares them instead of building new strings. */
  private final Map<List<String>, String> names = new HashMap<>();

  MetricFamily(String name, String... labelNames) {
    this.name = name;
    this.labelNames = List.of(labelNames);
  }

  public final String name() {
    return name;
  }

  public final List<String> labelNames() {
    return labelNames;
  }

  /** The family's Prometheus type. */
  public enum Type { COUNTER, GAUGE, HISTOGRAM }

  public abstract Type type();

  /** Kueue's Help string for this family (pkg/metrics/metrics.go), "" when Kueue has none. */
  public final String help() {
    return MetricHelp.of(name);
  }

  /** What {@link #read} hands over, one series at a time. */
  public interface SeriesReader {
    /** A counter's or gauge's series: its label values (declaration order) and value. */
    void scalar(List<String> labelValues, double value);

    /** A histogram's series: cumulative counts per upper bound (without +Inf), the count and the sum. */
    void histogram(List<String> labelValues, long[] cumulativeBuckets, long count, double sum);
  }

  /** Hands every series as it is now to {@code reader}, in the family's sorted label-value order. */
  public abstract void read(SeriesReader reader);

  /**
   * The series' labels in exposition form, {@code a="x",b="y"}: sorted by name, as client_golang exposes
   * them, values escaped; "" without labels.
   */
  public final String labelText(List<String> values) {
    List<String[]> pairs = new ArrayList<>();
    for (int i = 0; i < labelNames.size(); i++) {
      pairs.add(new String[] {labelNames.get(i), values.get(i)});
    }
    pairs.sort((a, b) -> a[0].compareTo(b[0]));
    StringBuilder sb = new StringBuilder();
    for (String[] p : pairs) {
      label(sb, p[0], p[1]);
    }
    return sb.toString();
  }

  /** Appends {@code name="value"} (value escaped), after a comma unless {@code sb} is empty. */
  public static void label(StringBuilder sb, String name, String value) {
    if (sb.length() > 0) {
      sb.append(',');
    }
    sb.append(name).append("=\"").append(escape(value)).append('"');
  }

  /** The value of one series, created empty on first use (client_golang WithLabelValues). */
  final V series(String... labelValues) {
    if (labelValues.length != labelNames.size()) {
      throw new IllegalArgumentException(name + " takes " + labelNames + ", got " + Arrays.toString(labelValues));
    }
    V v = byHash.get(new Key(labelValues));
    if (v == null) {
      v = create();
      byHash.put(new Key(labelValues.clone()), v);
      series.put(List.of(labelValues), v);
    }
    return v;
  }

  abstract V create();

  /** Drops every series (a gauge recomputed from state on each read). */
  public final void clear() {
    series.clear();
    byHash.clear();
  }

  /** Adds this family's series to {@code out}, each named in Prometheus text form. */
  abstract void writeTo(SortedMap<String, Double> out);

  /** {@code name{a="x",b="y"}} with the labels sorted by name, as client_golang exposes them; extra last. */
  final String seriesName(String suffix, List<String> values, String extraName, String extraValue) {
    List<String> key = new ArrayList<>(values.size() + 2);
    key.add(suffix);
    key.add(extraValue);
    key.addAll(values);
    return names.computeIfAbsent(key, k -> buildName(suffix, values, extraName, extraValue));
  }

  private String buildName(String suffix, List<String> values, String extraName, String extraValue) {
    StringBuilder labels = new StringBuilder(labelText(values));
    if (extraName != null) {
      label(labels, extraName, extraValue);
    }
    return name + suffix + (labels.length() == 0 ? "" : "{" + labels + "}");
  }

  /** Label value escaping of the text format and OpenMetrics: backslash, double quote and line feed. */
  public static String escape(String v) {
    return v.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
  }

  /** Label values in the family's order, compared one by one: the model's own series order. */
  public static int compareValues(List<String> a, List<String> b) {
    for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
      int c = a.get(i).compareTo(b.get(i));
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(a.size(), b.size());
  }
}
