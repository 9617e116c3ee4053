package batchsim.scenarios.tables;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;

/** Locale-independent number and duration formatting for the tables and messages of this module. */
public final class Format {
  private Format() {}

  /**
   * A short human duration: {@code 850ms}, {@code 12.3s}, {@code 6m27s}, {@code 2h05m}, {@code 3d04h}
   * (truncated, never shown as the next unit up).
   */
  public static String duration(double ms) {
    if (!Double.isFinite(ms)) {
      return "-";
    }
    long v = Math.round(ms);
    if (v < 0) {
      return "-" + duration(-v);
    }
    if (v < 1_000) {
      return v + "ms";
    }
    if (v < 60_000) {
      return (v / 1_000) + "." + (v % 1_000 / 100) + "s";
    }
    if (v < 3_600_000) {
      return (v / 60_000) + "m" + pad2(v / 1_000 % 60) + "s";
    }
    if (v < 86_400_000) {
      return (v / 3_600_000) + "h" + pad2(v / 60_000 % 60) + "m";
    }
    return (v / 86_400_000) + "d" + pad2(v / 3_600_000 % 24) + "h";
  }

  private static String pad2(long v) {
    return v < 10 ? "0" + v : Long.toString(v);
  }

  /** Fixed-point with {@code decimals} places, "-" for NaN and infinities. */
  public static String fixed(double v, int decimals) {
    return Double.isFinite(v) ? String.format(Locale.ROOT, "%." + decimals + "f", v) : "-";
  }

  /** A whole number when {@code v} is one, else up to {@code decimals} places without trailing zeros. */
  public static String number(double v, int decimals) {
    if (!Double.isFinite(v)) {
      return "-";
    }
    BigDecimal d = BigDecimal.valueOf(v).setScale(decimals, RoundingMode.HALF_EVEN).stripTrailingZeros();
    return d.signum() == 0 ? "0" : d.toPlainString();
  }

  /** A signed relative change, e.g. {@code +24.8%}; "new" when the base is zero and the value is not. */
  public static String relative(double base, double value) {
    if (!Double.isFinite(base) || !Double.isFinite(value)) {
      return "-";
    }
    if (base == 0) {
      return value == 0 ? "0.0%" : "new";
    }
    double r = (value - base) / Math.abs(base) * 100;
    return (r > 0 ? "+" : "") + String.format(Locale.ROOT, "%.1f%%", r);
  }

  /** {@code v} with an explicit sign ({@code +} for positive values), given its unformatted text. */
  public static String signed(double v, String text) {
    return v > 0 ? "+" + text : text;
  }
}
