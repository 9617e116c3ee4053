package batchsim.core.model;

import java.util.Map;

/** The quotas a ClusterQueue or Cohort has in one flavor, keyed by resource name (insertion order kept). */
public record FlavorQuotaSpec(String flavor, Map<String, QuotaSpec> resources) {}
