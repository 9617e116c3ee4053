package batchsim.scenarios.imports;

import batchsim.core.model.Quantity;

/** Base-unit amounts written back as exact Kubernetes quantities (never rounded, unlike display formats). */
final class Quantities {
  private Quantities() {}

  static String exact(String resource, long amount) {
    if (Quantity.isMilli(resource)) {
      return amount % 1000 == 0 ? Long.toString(amount / 1000) : amount + "m";
    }
    if (Quantity.isBytes(resource) && amount != 0) {
      String[] suffix = {"Ei", "Pi", "Ti", "Gi", "Mi", "Ki"};
      for (int i = 0; i < suffix.length; i++) {
        long unit = 1L << (10 * (6 - i));
        if (amount % unit == 0) {
          return amount / unit + suffix[i];
        }
      }
    }
    return Long.toString(amount);
  }
}
