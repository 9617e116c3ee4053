package batchsim.reports;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.HexFormat;
import java.util.Locale;

/** Number and duration formatting shared by the writers; all of it locale- and platform-independent. */
public final class Formats {
  private Formats() {}

  /**
   * Rounds {@code v} to {@code scale} decimal places (HALF_EVEN on its shortest decimal representation)
   * and strips trailing zeros, so that output does not depend on binary noise in the last bits.
   * Returns null for NaN and infinities, which JSON cannot represent.
   */
  public static BigDecimal round(double v, int scale) {
    if (!Double.isFinite(v)) {
      return null;
    }
    BigDecimal d = BigDecimal.valueOf(v).setScale(scale, RoundingMode.HALF_EVEN);
    return d.signum() == 0 ? BigDecimal.ZERO : d.stripTrailingZeros();
  }

  /**
   * A short human duration for tables: {@code 850ms}, {@code 12.3s}, {@code 4m12s}, {@code 2h05m},
   * {@code 3d04h}. Truncates rather than rounds so a value never shows as the next unit up.
   */
  public static String humanDuration(long ms) {
    if (ms < 0) {
      return "-" + humanDuration(-ms);
    }
    if (ms < 1_000) {
      return ms + "ms";
    }
    if (ms < 60_000) {
      return (ms / 1_000) + "." + (ms % 1_000 / 100) + "s";
    }
    if (ms < 3_600_000) {
      return (ms / 60_000) + "m" + pad2(ms / 1_000 % 60) + "s";
    }
    if (ms < 86_400_000) {
      return (ms / 3_600_000) + "h" + pad2(ms / 60_000 % 60) + "m";
    }
    return (ms / 86_400_000) + "d" + pad2(ms / 3_600_000 % 24) + "h";
  }

  private static String pad2(long v) {
    return v < 10 ? "0" + v : Long.toString(v);
  }

  /** Fixed-point with {@code decimals} places, or "-" for NaN/infinity. */
  public static String fixed(double v, int decimals) {
    return Double.isFinite(v) ? String.format(Locale.ROOT, "%." + decimals + "f", v) : "-";
  }

  /** A ratio as a percentage with one decimal, "-" when undefined, "inf" when unbounded. */
  static String percent(double ratio) {
    if (Double.isNaN(ratio)) {
      return "-";
    }
    if (Double.isInfinite(ratio)) {
      return ratio > 0 ? "inf" : "-inf";
    }
    return String.format(Locale.ROOT, "%.1f%%", ratio * 100);
  }

  static String grouped(long v) {
    return String.format(Locale.ROOT, "%,d", v);
  }

  static String hex(byte[] bytes) {
    return HexFormat.of().formatHex(bytes);
  }
}
