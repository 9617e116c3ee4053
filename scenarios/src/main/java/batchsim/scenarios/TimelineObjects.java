package batchsim.scenarios;

import batchsim.core.model.TopologySpec;
import batchsim.scenarios.yaml.ListNode;
import batchsim.scenarios.yaml.MapNode;
import batchsim.scenarios.yaml.Node;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.function.Function;

/**
 * The queue and quota objects the timeline creates or patches ({@code createClusterQueue}, {@code
 * updateCohort}, ...), bound with the rest of the scenario: their resources and references are the
 * scenario's, and the objects they create join the scenario's lists so that the run knows every object that
 * ever exists (the engine keeps those created later absent until their create). The timeline's action
 * family looks each block up here rather than binding it twice.
 */
final class TimelineObjects {
  static final List<String> CREATE_KEYS = List.of("createClusterQueue", "createLocalQueue", "createCohort",
      "createResourceFlavor", "createTopology");
  static final List<String> UPDATE_KEYS = List.of("updateClusterQueue", "updateCohort", "updateResourceFlavor");

  /** Keys a ClusterQueue patch may have beyond a ClusterQueue's own. */
  static final String STOP_POLICY = "stopPolicy";

  private final IdentityHashMap<Node, Object> bound = new IdentityHashMap<>();
  final List<Spec.ClusterQueue> clusterQueues = new ArrayList<>();
  final List<Spec.LocalQueue> localQueues = new ArrayList<>();
  final List<Spec.Cohort> cohorts = new ArrayList<>();
  final List<Spec.Flavor> flavors = new ArrayList<>();
  final List<TopologySpec> topologies = new ArrayList<>();
  /** The objects only the timeline creates (not declared at the top), as "Kind name". */
  final java.util.Set<String> createdOnly = new java.util.LinkedHashSet<>();

  /** What was bound from {@code block} (a Spec record, or a TopologySpec), or null. */
  Object get(Node block) {
    return bound.get(block);
  }

  /** First the Topologies (flavors may name them), before the rest of the scenario is bound. */
  static TimelineObjects bindTopologies(Node events, TopologyBinder topology) {
    TimelineObjects out = new TimelineObjects();
    for (MapNode m : items(events)) {
      Node block = m.get("createTopology");
      if (block != null && !block.isNull()) {
        TopologySpec t = topology.topology(block, true);
        if (t != null) {
          out.bound.put(block, t);
          out.topologies.add(t);
        }
      }
    }
    return out;
  }

  /** Then the queue objects and flavors, once the scenario's own are bound. */
  void bind(Node events, QueueBinder queues, Function<Node, Spec.Flavor> flavor) {
    TimelineObjects out = this;
    for (MapNode m : items(events)) {
      for (String key : CREATE_KEYS) {
        Node block = m.get(key);
        if (block != null && !block.isNull() && !key.equals("createTopology")) {
          out.create(key, block, queues, flavor);
        }
      }
      Node cq = m.get("updateClusterQueue");
      if (cq != null && !cq.isNull()) {
        out.bound.put(cq, queues.clusterQueue(cq, STOP_POLICY));
      }
      Node cohort = m.get("updateCohort");
      if (cohort != null && !cohort.isNull()) {
        out.bound.put(cohort, queues.cohort(cohort));
      }
      Node rf = m.get("updateResourceFlavor");
      if (rf != null && !rf.isNull()) {
        out.bound.put(rf, flavor.apply(rf));
      }
    }
  }

  private static List<MapNode> items(Node events) {
    List<MapNode> out = new ArrayList<>();
    if (events instanceof ListNode list) { // else the timeline's own binder reports the shape
      for (Node item : list.items()) {
        if (item instanceof MapNode m) {
          out.add(m);
        }
      }
    }
    return out;
  }

  private void create(String key, Node block, QueueBinder queues, Function<Node, Spec.Flavor> flavor) {
    switch (key) {
      case "createClusterQueue" -> {
        Spec.ClusterQueue q = queues.clusterQueue(block);
        bound.put(block, q);
        clusterQueues.add(q);
      }
      case "createLocalQueue" -> {
        Spec.LocalQueue q = queues.localQueue(block);
        bound.put(block, q);
        localQueues.add(q);
      }
      case "createCohort" -> {
        Spec.Cohort c = queues.cohort(block);
        bound.put(block, c);
        cohorts.add(c);
      }
      default -> {
        Spec.Flavor f = flavor.apply(block);
        bound.put(block, f);
        flavors.add(f);
      }
    }
  }
}
