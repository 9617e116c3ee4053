package batchsim.reports;

import batchsim.core.metrics.HistogramFamily;
import batchsim.core.metrics.MetricFamily;
import java.math.BigDecimal;
import java.util.Set;

/** How OpenMetrics 1.0's text format writes names, numbers, timestamps and metadata. */
final class OpenMetricsText {
  private OpenMetricsText() {}

  /**
   * The MetricFamily name: a counter's without its {@code _total}, which only its samples carry — unless that
   * name is another family's ({@code names}: every family of the file). Kueue has a gauge
   * {@code kueue_finished_workloads} beside the counter {@code kueue_finished_workloads_total}, and OpenMetrics
   * wants family names unique, so such a counter keeps its whole name as a family of type unknown.
   */
  static String familyName(MetricFamily<?> f, Set<String> names) {
    return clashes(f, names) ? f.name() : f.name().substring(0, f.name().length() - (counter(f) ? 6 : 0));
  }

  private static boolean counter(MetricFamily<?> f) {
    return f.type() == MetricFamily.Type.COUNTER && f.name().endsWith("_total");
  }

  private static boolean clashes(MetricFamily<?> f, Set<String> names) {
    return counter(f) && names.contains(f.name().substring(0, f.name().length() - 6));
  }

  /** {@code # TYPE}, {@code # UNIT} (from the name's {@code _seconds}: Kueue declares no unit) and {@code # HELP}. */
  static String descriptors(MetricFamily<?> f, Set<String> names) {
    String name = familyName(f, names);
    StringBuilder b = new StringBuilder("# TYPE ").append(name).append(' ')
        .append(clashes(f, names) ? "unknown" : f.type().name().toLowerCase(java.util.Locale.ROOT)).append('\n');
    if (name.endsWith("_seconds")) {
      b.append("# UNIT ").append(name).append(" seconds\n");
    }
    if (!f.help().isEmpty()) {
      b.append("# HELP ").append(name).append(' ').append(MetricFamily.escape(f.help())).append('\n');
    }
    return b.toString();
  }

  /** A value: integers without a decimal point, other numbers in Java's shortest form, {@code NaN}, {@code ±Inf}. */
  static String number(double v) {
    if (Double.isNaN(v)) {
      return "NaN";
    }
    if (Double.isInfinite(v)) {
      return v > 0 ? "+Inf" : "-Inf";
    }
    if (v == Math.rint(v) && Math.abs(v) < 1e15) {
      return Long.toString((long) v);
    }
    return Double.toString(v).replace('E', 'e');
  }

  /** Seconds since the Unix epoch, to the millisecond, without trailing zeros: {@code 1767225600}, {@code …600.5}. */
  static String timestamp(long epochMs) {
    return BigDecimal.valueOf(epochMs, 3).stripTrailingZeros().toPlainString();
  }

  /** A bucket's {@code le} as a canonical number: Go's %g with {@code .0} when it has no point ({@code 1.0}). */
  static String le(double bound) {
    String s = HistogramFamily.formatBound(bound);
    return s.contains(".") || s.contains("e") ? s : s + ".0";
  }
}
