package batchsim.scenarios;

import batchsim.core.model.LongDistribution;
import batchsim.core.model.Quantity;
import batchsim.scenarios.yaml.ListNode;
import batchsim.scenarios.yaml.MapNode;
import batchsim.scenarios.yaml.Node;
import batchsim.scenarios.yaml.ScalarNode;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * What every action family needs to bind and check its actions: the problems, the bound scenario and the
 * names it declares, and the readers shared with the rest of the scenario.
 */
final class ActionContext {
  final Problems problems;
  /** The scenario document (feature gates and MultiKueue's worker names are read where an action needs them). */
  final Node root;
  final Spec.Scenario scenario;
  final KubeBinder kube;
  final QueueBinder queues;
  private final WorkloadBinder distributions;
  final Set<String> pools = new LinkedHashSet<>();
  final Set<String> clusterQueues = new LinkedHashSet<>();
  final Set<String> localQueues = new LinkedHashSet<>();
  final Set<String> cohorts = new LinkedHashSet<>();
  final Set<String> flavors = new LinkedHashSet<>();
  final Set<String> classes = new LinkedHashSet<>();
  final Set<String> topologies = new LinkedHashSet<>();
  /** The AdmissionChecks the scenario defines ({@code admissionChecks:}). */
  final Set<String> admissionChecks = new LinkedHashSet<>();
  final Set<String> resources;
  /** Volcano queues declared in {@code volcano.queues} or created by the timeline, with root and default. */
  final Set<String> volcanoQueues = new LinkedHashSet<>();
  /** The {@code volcano} block sets {@code hierarchical: true}. */
  boolean volcanoHierarchical;
  /** Which node names may exist, for actions that name nodes. */
  final NodeNames nodeNames;

  ActionContext(Node root, Spec.Scenario scenario, Problems problems, Set<String> growingPools) {
    this.scenario = scenario;
    this.root = root;
    this.problems = problems;
    this.kube = new KubeBinder(problems);
    this.distributions = new WorkloadBinder(kube);
    this.queues = new QueueBinder(kube);
    // Names may be null where binding found a problem; those are reported already.
    scenario.nodePools().forEach(p -> add(pools, p.name()));
    scenario.clusterQueues().forEach(q -> add(clusterQueues, q.name()));
    scenario.localQueues().forEach(q -> {
      if (q.fullName() != null) {
        localQueues.add(q.fullName());
      }
    });
    scenario.cohorts().forEach(c -> add(cohorts, c.name()));
    scenario.clusterQueues().forEach(q -> add(cohorts, q.cohort())); // Kueue: a named cohort exists implicitly
    scenario.flavors().forEach(f -> add(flavors, f.name()));
    scenario.workloadClasses().forEach(c -> add(classes, c.name()));
    this.resources = new LinkedHashSet<>(scenario.resourceNames());
    scenario.topologies().forEach(t -> topologies.add(t.name()));
    if (root instanceof MapNode m && m.get("admissionChecks") instanceof ListNode checks) {
      for (Node c : checks.items()) { // ProvisioningBinder reports their problems
        if (c instanceof MapNode cm && cm.get("name") instanceof ScalarNode name) {
          admissionChecks.add(name.text());
        }
      }
    }
    this.nodeNames = new NodeNames(scenario, growingPools);
  }

  private static void add(Set<String> to, ScalarNode name) {
    if (name != null) {
      to.add(name.text());
    }
  }

  /** A duration (constant) or a distribution block, as for workload runtimes; null when absent or bad. */
  LongDistribution dist(Node n) {
    return n == null ? null : distributions.runtime(n);
  }

  /** A Kubernetes quantity of {@code resource} in base units; null after reporting a problem. */
  Long quantity(String resource, Node n) {
    ScalarNode s = Values.scalar(n, problems, "a quantity");
    if (s == null) {
      return null;
    }
    try {
      return Quantity.parse(resource, s.text());
    } catch (IllegalArgumentException e) {
      problems.at(s, e.getMessage());
      return null;
    }
  }
}
