package batchsim.core.model;

import java.util.List;

/**
 * A Kueue Cohort object. {@code parent} is null for a root. Its own resource groups add quota shared by
 * its subtree; its limits bound the subtree against the parent.
 */
public record CohortSpec(String name, String parent, List<ResourceGroupSpec> resourceGroups, double fairWeight) {
  public static CohortSpec implicit(String name) {
    return new CohortSpec(name, null, List.of(), 1.0);
  }
}
