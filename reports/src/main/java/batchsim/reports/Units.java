package batchsim.reports;

import batchsim.core.model.Quantity;

/** The units people read resources in (cores, GiB, units) and conversions from base units. */
final class Units {
  private static final double GIB = 1L << 30;

  private Units() {}

  static String unit(String resource) {
    if (Quantity.isMilli(resource)) {
      return "cores";
    }
    return Quantity.isBytes(resource) ? "GiB" : "units";
  }

  /** Base units (milli-cores, bytes, units) to display units. */
  static double toDisplay(String resource, double baseUnits) {
    if (Quantity.isMilli(resource)) {
      return baseUnits / 1000.0;
    }
    return Quantity.isBytes(resource) ? baseUnits / GIB : baseUnits;
  }

  /** A time-weighted mean, already in base units, shown in display units with two decimals. */
  static String display(String resource, double baseUnits) {
    return Formats.fixed(toDisplay(resource, baseUnits), 2);
  }

  /** An exact amount (quota, peak): whole units stay whole, cores and GiB get two decimals. */
  static String displayAmount(String resource, long baseUnits) {
    if (!Quantity.isMilli(resource) && !Quantity.isBytes(resource)) {
      return Formats.grouped(baseUnits);
    }
    return Formats.fixed(Quantity.toDisplayUnits(resource, baseUnits), 2);
  }

  /** Base units × ms to resource-hours in display units (GPU-hours, core-hours, GiB-hours). */
  static double resourceHours(String resource, double baseUnitMs) {
    return toDisplay(resource, baseUnitMs) / 3_600_000.0;
  }

  /** Column label for resource-hours, e.g. "GPU-h" for nvidia.com/gpu, "core-h" for cpu. */
  static String hoursUnit(String resource) {
    if (Quantity.isMilli(resource)) {
      return "core-h";
    }
    if (Quantity.isBytes(resource)) {
      return "GiB-h";
    }
    return resource.endsWith("gpu") ? "GPU-h" : resource + "-h";
  }
}
