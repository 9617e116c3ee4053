package batchsim.scenarios;

import batchsim.core.model.LongDistribution;
import batchsim.core.model.Quantity;
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
  final Set<String> resources;
  /** Which node names may exist, for actions that name nodes. */
  final NodeNames nodeNames;

  ActionContext(Spec.Scenario scenario, Problems problems, Set<String> growingPools) {
    this.scenario = scenario;
    this.problems = problems;
    this.kube = new KubeBinder(problems);
    this.distributions = new WorkloadBinder(kube);
    this.queues = new QueueBinder(kube);
    scenario.nodePools().forEach(p -> pools.add(p.name().text()));
    scenario.clusterQueues().forEach(q -> clusterQueues.add(q.name().text()));
    scenario.localQueues().forEach(q -> localQueues.add(q.fullName()));
    scenario.cohorts().forEach(c -> cohorts.add(c.name().text()));
    scenario.clusterQueues().forEach(q -> {
      if (q.cohort() != null) {
        cohorts.add(q.cohort().text()); // Kueue: a cohort named by a ClusterQueue exists implicitly
      }
    });
    scenario.flavors().forEach(f -> flavors.add(f.name().text()));
    scenario.workloadClasses().forEach(c -> classes.add(c.name().text()));
    this.resources = new LinkedHashSet<>(scenario.resourceNames());
    this.nodeNames = new NodeNames(scenario, growingPools);
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
