package batchsim.core.model;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Kubernetes resource quantities in batchsim's base units: cpu in milli-cores, memory (and any resource
 * whose name ends in "memory" or "storage") in bytes, everything else in whole units.
 *
 * <p>Accepts every form Kubernetes' {@code resource.ParseQuantity} accepts (k8s.io/apimachinery
 * pkg/api/resource/quantity.go): an optional sign, digits with an optional fraction ({@code 1.5}, {@code .5},
 * {@code 1.}), then one suffix: decimal {@code n u m k M G T P E}, binary {@code Ki Mi Gi Ti Pi Ei}, or a
 * decimal exponent ({@code 1e3}, {@code 1E-3}, {@code 12e+6}); no spaces. It is rounded as Kubernetes
 * rounds when a quantity is read in base units ({@code MilliValue()}, {@code Value()}: up): cpu below a
 * whole milli-core rounds up ({@code 0.1m} is 1m, {@code 1n} is 1m), bytes to the next whole byte. Whole
 * units stay whole: a fraction of a GPU is rejected, as Kubernetes' validation rejects non-integer
 * extended resources. Negative amounts are rejected (no request or quota can be).
 */
public final class Quantity {
  /** Decimal SI suffixes and their powers of ten (Kubernetes' suffix.go). */
  private static final Map<String, Integer> DECIMAL = Map.of("n", -9, "u", -6, "m", -3,
      "", 0, "k", 3, "M", 6, "G", 9, "T", 12, "P", 15, "E", 18);
  /** Binary SI suffixes and their powers of 1024. */
  private static final Map<String, Integer> BINARY = Map.of("Ki", 1, "Mi", 2, "Gi", 3,
      "Ti", 4, "Pi", 5, "Ei", 6);
  private static final Pattern FORM =
      Pattern.compile("([+-]?)([0-9]*)(?:\\.([0-9]*))?([a-zA-Z]*|[eE][+-]?[0-9]+)");
  /** Exponents beyond this give a value out of any long's range, or below one base unit, whatever the digits. */
  private static final int MAX_EXPONENT = 1000;

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
    if (text.isEmpty()) {
      throw new IllegalArgumentException("empty quantity");
    }
    BigDecimal value = parseDecimal(text);
    if (value == null) {
      throw new IllegalArgumentException("'" + text + "' is not a Kubernetes quantity (e.g. 500m, 4, 64Gi)");
    }
    if (value.signum() < 0) {
      throw new IllegalArgumentException("quantity '" + text + "' must not be negative");
    }
    if (isMilli(resource)) {
      value = value.scaleByPowerOfTen(3);
    }
    if (value.signum() > 0 && value.precision() - value.scale() > 19) { // >= 10^19, > any long: no huge setScale
      throw new IllegalArgumentException("quantity '" + text + "' of " + resource + " is too large");
    }
    if (!isMilli(resource) && !isBytes(resource) && value.stripTrailingZeros().scale() > 0) {
      // Kubernetes' validation refuses a fraction of an extended resource rather than rounding it.
      throw new IllegalArgumentException("quantity '" + text + "' of " + resource + " is not a whole number of units");
    }
    try {
      // Below one base unit the value rounds up to 1; checked first so that 1e-999 costs no 999-digit division.
      return value.signum() > 0 && value.precision() - value.scale() < 0 ? 1
          : value.setScale(0, RoundingMode.CEILING).longValueExact();
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException("quantity '" + text + "' of " + resource + " is too large");
    }
  }

  /** The value of a quantity in Kubernetes' grammar, or null when the text is not one. */
  private static BigDecimal parseDecimal(String s) {
    Matcher m = FORM.matcher(s);
    if (!m.matches() || m.group(2).isEmpty() && (m.group(3) == null || m.group(3).isEmpty())) {
      return null; // no digit at all
    }
    String frac = m.group(3) == null ? "" : m.group(3);
    BigDecimal v = new BigDecimal(m.group(1) + (m.group(2).isEmpty() ? "0" : m.group(2))
        + (frac.isEmpty() ? "" : "." + frac));
    String suffix = m.group(4);
    Integer pow10 = DECIMAL.get(suffix);
    if (pow10 != null) {
      return v.scaleByPowerOfTen(pow10);
    }
    Integer pow1024 = BINARY.get(suffix);
    if (pow1024 != null) {
      return v.multiply(BigDecimal.valueOf(2).pow(10 * pow1024));
    }
    if (suffix.length() > 1 && (suffix.charAt(0) == 'e' || suffix.charAt(0) == 'E')) {
      // Beyond ±MAX_EXPONENT the result is the same (too large, or below a base unit: 1), so clamp.
      BigInteger exponent = new BigInteger(suffix.substring(1)).max(BigInteger.valueOf(-MAX_EXPONENT))
          .min(BigInteger.valueOf(MAX_EXPONENT));
      return v.scaleByPowerOfTen(exponent.intValueExact());
    }
    return null;
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
