package batchsim.scenarios.tables;

import batchsim.reports.Formats;
import java.math.BigDecimal;
import java.util.Locale;

/** Locale-independent number and duration formatting for the tables and messages of this module. */
public final class Format {
  private Format() {}

  /**
   * A short human duration: {@code 850ms}, {@code 12.3s}, {@code 6m27s}, {@code 2h05m}, {@code 3d04h}
   * (truncated, never shown as the next unit up).
   */
  public static String duration(double ms) {
    return Double.isFinite(ms) ? Formats.humanDuration(Math.round(ms)) : "-";
  }

  /** Fixed-point with {@code decimals} places, "-" for NaN and infinities. */
  public static String fixed(double v, int decimals) {
    return Formats.fixed(v, decimals);
  }

  /** A whole number when {@code v} is one, else up to {@code decimals} places without trailing zeros. */
  public static String number(double v, int decimals) {
    BigDecimal d = Formats.round(v, decimals);
    return d == null ? "-" : d.toPlainString();
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
