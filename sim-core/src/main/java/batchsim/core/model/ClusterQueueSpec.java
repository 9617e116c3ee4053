package batchsim.core.model;

import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * A Kueue ClusterQueue. {@code cohort} is null for a queue outside any cohort. {@code fairWeight} is the
 * fairSharing.weight (default 1). {@code admissionChecks} names every check of the queue; {@code checkFlavors}
 * holds the {@code admissionChecksStrategy} rules' {@code onFlavors} of the checks that have them (a check
 * without an entry applies to every flavor). {@code admissionMode} is spec.admissionScope.admissionMode (null when
 * admissionScope is absent: no admission fair sharing).
 */
public record ClusterQueueSpec(
    String name,
    String cohort,
    List<ResourceGroupSpec> resourceGroups,
    QueueingStrategy queueingStrategy,
    PreemptionSpec preemption,
    FlavorFungibility fungibility,
    double fairWeight,
    List<String> admissionChecks,
    Map<String, List<String>> checkFlavors,
    AdmissionMode admissionMode) {

  public ClusterQueueSpec {
    checkFlavors = checkFlavors == null ? Map.of() : Map.copyOf(checkFlavors);
  }

  /** A ClusterQueue without an admissionScope. */
  public ClusterQueueSpec(String name, String cohort, List<ResourceGroupSpec> resourceGroups,
      QueueingStrategy queueingStrategy, PreemptionSpec preemption, FlavorFungibility fungibility, double fairWeight,
      List<String> admissionChecks, Map<String, List<String>> checkFlavors) {
    this(name, cohort, resourceGroups, queueingStrategy, preemption, fungibility, fairWeight, admissionChecks,
        checkFlavors, null);
  }

  /** Whether admission fair sharing orders this queue's LocalQueues (given the Configuration enables it). */
  public boolean usageBasedAdmissionFairSharing() {
    return admissionMode == AdmissionMode.USAGE_BASED_ADMISSION_FAIR_SHARING;
  }

  /** A ClusterQueue whose checks apply to every flavor (a plain {@code admissionChecks} list). */
  public ClusterQueueSpec(String name, String cohort, List<ResourceGroupSpec> resourceGroups,
      QueueingStrategy queueingStrategy, PreemptionSpec preemption, FlavorFungibility fungibility, double fairWeight,
      List<String> admissionChecks) {
    this(name, cohort, resourceGroups, queueingStrategy, preemption, fungibility, fairWeight, admissionChecks,
        Map.of());
  }

  public ClusterQueueSpec withResourceGroups(List<ResourceGroupSpec> groups) {
    return new ClusterQueueSpec(name, cohort, groups, queueingStrategy, preemption, fungibility, fairWeight,
        admissionChecks, checkFlavors, admissionMode);
  }

  public ClusterQueueSpec withPreemption(PreemptionSpec p) {
    return new ClusterQueueSpec(name, cohort, resourceGroups, queueingStrategy, p, fungibility, fairWeight,
        admissionChecks, checkFlavors, admissionMode);
  }

  /**
   * Kueue AdmissionChecksForWorkload (pkg/workload) with an admission: a check whose strategy rule names
   * {@code onFlavors} applies when the assigned flavors include one of them; one with empty onFlavors stands
   * for all the queue's flavors, so it always applies. In the queue's order.
   */
  public List<String> checksFor(Collection<String> assignedFlavors) {
    return admissionChecks.stream().filter(c -> appliesTo(c, assignedFlavors)).toList();
  }

  /** Whether check {@code c} runs for a workload assigned {@code flavors} (see {@link #checksFor}). */
  public boolean appliesTo(String c, Collection<String> flavors) {
    List<String> on = checkFlavors.get(c);
    return on == null || on.isEmpty() || flavors.stream().anyMatch(on::contains);
  }
}
