package batchsim.core.model;

import java.util.List;

/**
 * A Kueue Cohort. {@code parent} is null for a root. Its own resource groups add quota shared by its subtree;
 * its limits bound the subtree against the parent. {@code implicit}: no Cohort object, only named by
 * ClusterQueues (or as a parent); Kueue's hierarchy keeps such a cohort only while something names it.
 */
public record CohortSpec(String name, String parent, List<ResourceGroupSpec> resourceGroups, double fairWeight,
    boolean implicit) {
  /** A Cohort object. */
  public CohortSpec(String name, String parent, List<ResourceGroupSpec> resourceGroups, double fairWeight) {
    this(name, parent, resourceGroups, fairWeight, false);
  }

  public static CohortSpec implicit(String name) {
    return new CohortSpec(name, null, List.of(), 1.0, true);
  }
}
