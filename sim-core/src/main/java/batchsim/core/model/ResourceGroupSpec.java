package batchsim.core.model;

import java.util.List;

/**
 * Kueue resourceGroup: the covered resources are assigned one flavor together, tried in {@code flavors}
 * order.
 */
public record ResourceGroupSpec(List<String> coveredResources, List<FlavorQuotaSpec> flavors) {}
