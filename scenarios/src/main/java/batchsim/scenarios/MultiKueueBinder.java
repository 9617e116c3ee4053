package batchsim.scenarios;

import batchsim.core.model.AdmissionCheckSpec;
import batchsim.core.model.LocalQueueSpec;
import batchsim.core.model.MultiKueueSpec;
import batchsim.core.model.SimulationSpec;
import batchsim.scenarios.yaml.MapNode;
import batchsim.scenarios.yaml.Node;
import batchsim.scenarios.yaml.ScalarNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Binds {@code multiKueue:} (MultiKueue's configuration and its worker clusters) onto the manager's spec.
 * Each worker is a cluster written as a scenario is (cluster, kueue, resourceFlavors, cohorts, clusterQueues,
 * localQueues, priorityClasses, topologies), bound by the same binders, with the manager's seed, horizon and
 * sampleInterval; {@code count: N} makes N such workers ({@code name}, {@code name-2}, ...). Every LocalQueue
 * of the manager whose ClusterQueue has a MultiKueue check must exist on every worker (Kueue creates the copy
 * in the same namespace and LocalQueue).
 */
final class MultiKueueBinder {
  static final String KEY = "multiKueue";
  private static final List<String> WORKER_KEYS = List.of("name", "count", "cluster", "kueue", "resourceFlavors",
      "cohorts", "clusterQueues", "localQueues", "priorityClasses", "topologies");
  private static final List<String> INHERITED = List.of("seed", "horizon", "sampleInterval");

  private final Problems problems;

  private MultiKueueBinder(Problems problems) {
    this.problems = problems;
  }

  /** The worker names {@code multiKueue.workers} declares, counts expanded (timeline actions name them). */
  static Set<String> workerNames(Node root) {
    Set<String> out = new LinkedHashSet<>();
    if (root instanceof MapNode m && m.get(KEY) instanceof MapNode mk
        && mk.get("workers") instanceof batchsim.scenarios.yaml.ListNode list) {
      for (Node n : list.items()) {
        if (n instanceof MapNode w && w.get("name") instanceof ScalarNode name) {
          boolean counted = w.get("count") instanceof ScalarNode c && c.text().matches("\\d{1,4}");
          int count = counted ? Integer.parseInt(((ScalarNode) w.get("count")).text()) : 1;
          out.addAll(names(name.text(), count));
        }
      }
    }
    return out;
  }

  private static List<String> names(String name, int count) {
    List<String> out = new ArrayList<>();
    for (int i = 1; i <= count; i++) {
      out.add(i == 1 ? name : name + "-" + i);
    }
    return out;
  }

  /** {@code spec} as MultiKueue's manager of the workers {@code root} declares; problems go to {@code problems}. */
  static SimulationSpec bind(Node root, SimulationSpec spec, boolean volcano, Problems problems) {
    return new MultiKueueBinder(problems).bind(root, spec, volcano);
  }

  private SimulationSpec bind(Node root, SimulationSpec spec, boolean volcano) {
    MapNode m = root instanceof MapNode map ? map : null;
    Node block = m == null ? null : m.get(KEY);
    if (block instanceof ScalarNode s && s.type() == ScalarNode.Type.NULL) {
      block = null; // removed (--set multiKueue=, or ~ over an include)
    }
    Set<String> mkChecks = new LinkedHashSet<>();
    spec.admissionChecks().stream().filter(AdmissionCheckSpec::multiKueue).forEach(c -> mkChecks.add(c.name()));
    if (block == null) {
      if (!mkChecks.isEmpty()) {
        problems.at(m.get("admissionChecks"), "admission check '" + mkChecks.iterator().next() + "' has controllerName "
            + MultiKueueSpec.CONTROLLER_NAME + ", which needs a multiKueue: block with its workers");
      }
      return spec;
    }
    if (volcano) {
      problems.at(block, "MultiKueue is Kueue's: this scenario runs under Volcano");
      return spec;
    }
    Fields f = Fields.of(block, problems, "dispatcher", "workerLostTimeout", "remoteLatency", "stepSize", "workers");
    MultiKueueSpec.Dispatcher dispatcher = dispatcher(f);
    long lost = f.duration("workerLostTimeout", MultiKueueSpec.DEFAULT_WORKER_LOST_TIMEOUT_MS);
    long latency = f.duration("remoteLatency", 1000);
    int step = f.int32("stepSize", MultiKueueSpec.DEFAULT_STEP_SIZE, 1);
    if (f.has("stepSize") && dispatcher != MultiKueueSpec.Dispatcher.INCREMENTAL) {
      problems.at(f.get("stepSize"), "stepSize is the Incremental dispatcher's (dispatcher: Incremental)");
    }
    if (mkChecks.isEmpty()) {
      problems.at(block, "no admission check has controllerName " + MultiKueueSpec.CONTROLLER_NAME
          + ": no ClusterQueue dispatches to these workers");
    }
    Set<String> dispatched = dispatchedLocalQueues(spec, mkChecks);
    List<MultiKueueSpec.Worker> workers = new ArrayList<>();
    Map<String, ScalarNode> seen = new LinkedHashMap<>();
    for (Node n : f.requiredList("workers", true)) {
      Fields w = Fields.of(n, problems, WORKER_KEYS.toArray(String[]::new));
      ScalarNode name = w.requiredName("name");
      int count = w.int32("count", 1, 1);
      if (name == null || !w.present()) {
        continue;
      }
      for (String workerName : names(name.text(), count)) {
        if (seen.put(workerName, name) != null) {
          problems.at(name, "duplicate worker name '" + workerName + "'");
          continue;
        }
        SimulationSpec ws = worker(m, w.node(), name, workerName, spec, dispatched);
        if (ws != null) {
          workers.add(new MultiKueueSpec.Worker(workerName, ws));
        }
      }
    }
    return workers.isEmpty() ? spec
        : spec.withMultiKueue(new MultiKueueSpec(dispatcher, lost, latency, step, workers));
  }

  private MultiKueueSpec.Dispatcher dispatcher(Fields f) {
    Node d = f.get("dispatcher");
    if (d == null) {
      return MultiKueueSpec.Dispatcher.ALL_AT_ONCE; // Kueue's default dispatcherName
    }
    for (MultiKueueSpec.Dispatcher x : MultiKueueSpec.Dispatcher.values()) {
      if (d instanceof ScalarNode s && (s.text().equals(x.kueueName()) || s.text().equals(x.dispatcherName()))) {
        return x;
      }
    }
    problems.at(d, d.describe() + " is not a dispatcher: AllAtOnce or Incremental (or Kueue's "
        + MultiKueueSpec.Dispatcher.ALL_AT_ONCE.dispatcherName() + ", "
        + MultiKueueSpec.Dispatcher.INCREMENTAL.dispatcherName() + ")");
    return MultiKueueSpec.Dispatcher.ALL_AT_ONCE;
  }

  /** The manager's LocalQueues whose ClusterQueue has a MultiKueue check. */
  private static Set<String> dispatchedLocalQueues(SimulationSpec spec, Set<String> mkChecks) {
    Set<String> out = new LinkedHashSet<>();
    for (LocalQueueSpec lq : spec.localQueues()) {
      spec.clusterQueues().stream().filter(cq -> cq.name().equals(lq.clusterQueue()))
          .filter(cq -> cq.admissionChecks().stream().anyMatch(mkChecks::contains))
          .findFirst().ifPresent(cq -> out.add(lq.name()));
    }
    return out;
  }

  /** One worker's cluster, bound as a scenario of its own; null after a problem. */
  private SimulationSpec worker(MapNode root, MapNode w, ScalarNode name, String workerName, SimulationSpec manager,
      Set<String> dispatched) {
    Map<String, MapNode.Entry> entries = new LinkedHashMap<>();
    MapNode.Entry nameEntry = w.entries().get("name");
    entries.put("name", new MapNode.Entry(nameEntry.key(),
        new ScalarNode(name.location(), name.path(), workerName, ScalarNode.Type.STRING)));
    for (String k : INHERITED) {
      if (root.entries().containsKey(k)) {
        entries.put(k, root.entries().get(k));
      }
    }
    w.entries().forEach((k, e) -> {
      if (!k.equals("name") && !k.equals("count")) {
        entries.put(k, e);
      }
    });
    MapNode doc = new MapNode(w.location(), w.path(), entries);
    int before = problems.count();
    Spec.Scenario s = ScenarioBinder.bind(doc, problems);
    ScenarioValidator.validate(s, problems);
    TimelineBinder.Timeline timeline = TimelineBinder.bind(doc, s, problems); // waitForPodsReady
    for (Spec.ClusterQueue cq : s.clusterQueues()) {
      if (!cq.checkRules().isEmpty()) {
        problems.at(cq.checkRules().get(0).name(), "a worker's ClusterQueue takes no admission checks here");
      }
    }
    Set<String> lqs = new LinkedHashSet<>();
    s.localQueues().forEach(lq -> lqs.add(lq.fullName()));
    for (String lq : dispatched) {
      if (!lqs.contains(lq)) {
        problems.at(name, "worker " + workerName + " has no LocalQueue " + lq
            + " (MultiKueue creates the manager's workloads of " + lq + " there)");
      }
    }
    if (problems.count() > before) {
      return null;
    }
    // The worker knows the manager's resources first (a copy's requests keep their meaning), then its own.
    List<String> resources = new ArrayList<>(manager.resources().names());
    s.resourceNames().stream().filter(r -> !resources.contains(r)).forEach(resources::add);
    Spec.Scenario withResources = new Spec.Scenario(s.name(), s.seed(), s.horizonMs(), s.sampleIntervalMs(),
        s.nodePools(), s.podScheduling(), s.kueue(), s.flavors(), s.cohorts(), s.clusterQueues(), s.localQueues(),
        s.priorityClasses(), s.workloadClasses(), s.listedWorkloads(), s.traces(), resources, s.topologies(),
        s.timelineObjects());
    return timeline.applyTo(ModelBuilder.build(withResources));
  }
}
