package batchsim.reports;

import batchsim.core.metrics.HistogramFamily;
import batchsim.core.metrics.MetricFamily;
import java.math.BigDecimal;

/** How OpenMetrics 1.0's text format writes names, numbers, timestamps and metadata. */
final class OpenMetricsText {
  private OpenMetricsText() {}

  /** The MetricFamily name: a counter's without its {@code _total}, which only its samples carry. */
  static String familyName(MetricFamily<?> f) {
    String n = f.name();
    return f.type() == MetricFamily.Type.COUNTER && n.endsWith("_total") ? n.substring(0, n.length() - 6) : n;
  }

  /** {@code # TYPE}, {@code # UNIT} (from the name's {@code _seconds}: Kueue declares no unit) and {@code # HELP}. */
  static String descriptors(MetricFamily<?> f) {
    String name = familyName(f);
    StringBuilder b = new StringBuilder("# TYPE ").append(name).append(' ')
        .append(f.type().name().toLowerCase(java.util.Locale.ROOT)).append('\n');
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
