package batchsim.core.world.kueue;

import batchsim.core.model.Quantity;

/**
 * A base-unit amount as Kueue writes it in its API: Kueue's ResourceFormatter (pkg/resources) gives cpu as a
 * DecimalSI milli-quantity, memory, ephemeral-storage and hugepages-* as a canonical BinarySI quantity, the
 * rest as DecimalSI; the text is Kubernetes' canonical {@code Quantity.String()} ("8", "500m", "64Gi", "1k").
 */
final class KueueQuantity {
  private static final String[] DECIMAL = {"m", "", "k", "M", "G", "T", "P", "E"};
  private static final String[] BINARY = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};

  private KueueQuantity() {}

  static String format(String resource, long amount) {
    if (Quantity.isMilli(resource)) {
      return decimal(amount, -1);
    }
    boolean binary = resource.equals("memory") || resource.equals("ephemeral-storage")
        || resource.startsWith("hugepages-");
    return binary ? binary(amount) : decimal(amount, 0);
  }

  /**
   * A decimal quantity (Kueue's scaled amounts, e.g. admission fair sharing's consumed resources) as
   * Kubernetes' canonical DecimalSI text: the largest power of 1000 (from nano up) that keeps the mantissa whole.
   */
  static String decimal(java.math.BigDecimal v) {
    if (v.signum() == 0) {
      return "0";
    }
    String[] suffix = {"n", "u", "m", "", "k", "M", "G", "T", "P", "E"};
    java.math.BigDecimal m = v.movePointRight(9);
    int i = 0;
    while (i < suffix.length - 1 && m.remainder(java.math.BigDecimal.valueOf(1000)).signum() == 0) {
      m = m.divide(java.math.BigDecimal.valueOf(1000));
      i++;
    }
    return m.setScale(0, java.math.RoundingMode.DOWN).toPlainString() + suffix[i];
  }

  /** DecimalSI: the largest power of 1000 that keeps the mantissa whole; {@code exp} 0 = units, -1 = milli. */
  private static String decimal(long v, int exp) {
    if (v == 0) {
      return "0";
    }
    while (v % 1000 == 0 && exp < DECIMAL.length - 2) {
      v /= 1000;
      exp++;
    }
    return v + DECIMAL[exp + 1];
  }

  /**
   * BinarySI: below 1024, or not a whole multiple of 1024, Kubernetes writes it as DecimalSI (and Kueue's
   * newCanonicalQuantity re-parses that text, so it stays decimal); otherwise the largest power of 1024.
   */
  private static String binary(long v) {
    if (Math.abs(v) < 1024 || v % 1024 != 0) {
      return decimal(v, 0);
    }
    int exp = 0;
    while (v % 1024 == 0 && exp < BINARY.length - 1) {
      v /= 1024;
      exp++;
    }
    return v + BINARY[exp];
  }
}
