package batchsim.core.metrics;

/**
 * Exact time-weighted utilization of one resource on the nodes one flavor stands for: the integral of
 * allocated amount over time divided by the integral of capacity over time (base units × ms).
 *
 * @param flavor the ResourceFlavor, or "*" for all nodes
 * @param meanAllocated time-weighted mean allocated amount, base units
 * @param meanCapacity time-weighted mean capacity, base units
 * @param utilization meanAllocated / meanCapacity (0 when capacity is 0)
 * @param peakAllocated the largest amount allocated at any moment
 */
public record UtilizationStat(
    String flavor, String resource, double meanAllocated, double meanCapacity, double utilization,
    long peakAllocated) {
  /** The flavor name of the row that covers every node. */
  public static final String ALL_NODES = "*";
}
