package batchsim.core.model;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;

/**
 * Kubernetes resource quantities in batchsim's base units: cpu in milli-cores, memory (and any resource
 * whose name ends in "memory" or "storage") in bytes, everything else in whole units.
 *
 * <p>Accepts the Kubernetes suffixes: decimal {@code m k M G T P E}, binary {@code Ki Mi Gi Ti Pi Ei},
 * and exponents ({@code 1e3}). A value that does not resolve to a whole number of base units (e.g.
 * {@code 0.5} GPUs, {@code 0.5m} cpu) is rejected rather than rounded.
 */
public final class Quantity {
  private Quantity() {}

  /** True when amounts of this resource are counted in milli-units (cpu). */
  public static boolean isMilli(String resource) {
    return ResourceSpace.CPU.equals(resource);
  }

  /** True when amounts of this resource are bytes. */
  public static boolean isBytes(String resource) {
    return resource.endsWith("memory") || resource.endsWith("storage");
  }

  /**
   * Parses {@code text} for {@code resource}.
   *
   * @throws IllegalArgumentException with a user-facing message when the text is not a quantity
   */
  public static long parse(String resource, String text) {
    String s = text.trim();
    if (s.isEmpty()) {
      throw new IllegalArgumentException("empty quantity");
    }
    BigDecimal value;
    try {
      value = parseDecimal(s);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("'" + text + "' is not a Kubernetes quantity (e.g. 500m, 4, 64Gi)");
    }
    if (value.signum() < 0) {
      throw new IllegalArgumentException("quantity '" + text + "' must not be negative");
    }
    if (isMilli(resource)) {
      value = value.multiply(BigDecimal.valueOf(1000));
    }
    try {
      return value.setScale(0, RoundingMode.UNNECESSARY).longValueExact();
    } catch (ArithmeticException e) {
      String unit = isMilli(resource) ? "milli-cores" : isBytes(resource) ? "bytes" : "units";
      throw new IllegalArgumentException(
          "quantity '" + text + "' of " + resource + " is not a whole number of " + unit);
    }
  }

  private static BigDecimal parseDecimal(String s) {
    String[][] binary = {{"Ki", "1024"}, {"Mi", "1048576"}, {"Gi", "1073741824"},
        {"Ti", "1099511627776"}, {"Pi", "1125899906842624"}, {"Ei", "1152921504606846976"}};
    for (String[] b : binary) {
      if (s.endsWith(b[0])) {
        return new BigDecimal(s.substring(0, s.length() - 2)).multiply(new BigDecimal(b[1]));
      }
    }
    char last = s.charAt(s.length() - 1);
    String num = s.substring(0, s.length() - 1);
    switch (last) {
      case 'm': return new BigDecimal(num).movePointLeft(3);
      case 'k': return new BigDecimal(num).movePointRight(3);
      case 'M': return new BigDecimal(num).movePointRight(6);
      case 'G': return new BigDecimal(num).movePointRight(9);
      case 'T': return new BigDecimal(num).movePointRight(12);
      case 'P': return new BigDecimal(num).movePointRight(15);
      case 'E': return new BigDecimal(num).movePointRight(18);
      default: return new BigDecimal(s);
    }
  }

  /** Formats a base-unit amount for people: cores with up to 3 decimals, Gi/Mi for bytes, units otherwise. */
  public static String format(String resource, long amount) {
    if (isMilli(resource)) {
      return amount % 1000 == 0
          ? Long.toString(amount / 1000)
          : BigDecimal.valueOf(amount, 3).stripTrailingZeros().toPlainString();
    }
    if (isBytes(resource)) {
      long gi = 1L << 30;
      long mi = 1L << 20;
      if (amount != 0 && amount % gi == 0) {
        return (amount / gi) + "Gi";
      }
      if (amount != 0 && amount % mi == 0) {
        return (amount / mi) + "Mi";
      }
      if (amount >= gi) {
        return String.format(Locale.ROOT, "%.2fGi", amount / (double) gi);
      }
    }
    return Long.toString(amount);
  }

  /** Converts a base-unit amount to the unit people count in (cores, GiB, units), for reports. */
  public static double toDisplayUnits(String resource, long amount) {
    if (isMilli(resource)) {
      return amount / 1000.0;
    }
    if (isBytes(resource)) {
      return amount / (double) (1L << 30);
    }
    return amount;
  }
}
