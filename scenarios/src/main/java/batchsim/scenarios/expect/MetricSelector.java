package batchsim.scenarios.expect;

import batchsim.core.metrics.HistogramFamily;
import batchsim.core.metrics.KueueMetrics;
import batchsim.core.metrics.MetricFamily;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A Kueue metric as {@code at(...)} names it, in Prometheus's selector form:
 * {@code kueue_pending_workloads{cluster_queue="cq-a",status="inadmissible"}}; a histogram's series take their
 * suffix ({@code _count}, {@code _sum}, {@code _bucket{le="640"}}). Its value is the sum over the recorded series
 * whose labels include the given ones ({@code replica_role} need not be written).
 *
 * @param labels label name → value, sorted
 * @param nameOffset where the metric's name starts in the expression
 */
record MetricSelector(String name, SortedMap<String, String> labels, int nameOffset, Map<String, Integer> labelOffsets)
    implements AtTarget {

  /** Kueue's families by name, as the run's metric model defines them. */
  private static final Map<String, MetricFamily<?>> FAMILIES = families();

  private static Map<String, MetricFamily<?>> families() {
    Map<String, MetricFamily<?>> out = new TreeMap<>();
    KueueMetrics all = new KueueMetrics();
    all.enableMultiKueue(); // a MultiKueue manager's families too
    for (MetricFamily<?> f : all.families()) {
      out.put(f.name(), f);
    }
    return out;
  }

  /** The family a series name belongs to (a histogram's _bucket, _sum and _count belong to it), or null. */
  private MetricFamily<?> family() {
    MetricFamily<?> f = FAMILIES.get(name);
    if (f != null && !(f instanceof HistogramFamily)) {
      return f;
    }
    for (String suffix : List.of("_bucket", "_sum", "_count")) {
      if (name.endsWith(suffix)) {
        MetricFamily<?> h = FAMILIES.get(name.substring(0, name.length() - suffix.length()));
        if (h instanceof HistogramFamily) {
          return h;
        }
      }
    }
    return null;
  }

  /** What is wrong with the selector as the model knows it (offset, message), or null. */
  Object[] problem() {
    MetricFamily<?> f = family();
    if (f == null) {
      String hint = FAMILIES.containsKey(name) ? " (a histogram: name its _count, _sum or _bucket{le=\"..\"})" : "";
      return new Object[] {nameOffset, "unknown Kueue metric '" + name + "'" + hint + " (known: "
          + String.join(", ", new ArrayList<>(FAMILIES.keySet())) + ")"};
    }
    List<String> allowed = new ArrayList<>(f.labelNames());
    if (name.endsWith("_bucket")) {
      allowed.add("le");
    }
    for (String l : labels.keySet()) {
      if (!allowed.contains(l)) {
        return new Object[] {labelOffsets.get(l), "metric " + name + " has no label '" + l + "' (labels: "
            + String.join(", ", allowed) + ")"};
      }
    }
    return null;
  }

  /** Whether a recorded series (its text form, e.g. {@code name{a="x",b="y"}}) is selected. */
  boolean selects(String series) {
    int brace = series.indexOf('{');
    String n = brace < 0 ? series : series.substring(0, brace);
    if (!n.equals(name)) {
      return false;
    }
    for (Map.Entry<String, String> e : labels.entrySet()) {
      String pair = e.getKey() + "=\"" + escape(e.getValue()) + "\"";
      if (!series.contains("{" + pair) && !series.contains("," + pair)) { // not as the tail of a longer name
        return false;
      }
    }
    return true;
  }

  /** Prometheus's label-value escaping, as the model writes series names. */
  private static String escape(String v) {
    return v.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder(name);
    if (!labels.isEmpty()) {
      sb.append('{');
      labels.forEach((k, v) -> sb.append(sb.charAt(sb.length() - 1) == '{' ? "" : ",").append(k).append("=\"")
          .append(v).append('"'));
      sb.append('}');
    }
    return sb.toString();
  }
}
