package batchsim.core.model;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Kueue's queue and quota objects created, updated or deleted mid-run, as {@code kubectl apply / patch /
 * delete} would. An object created by the timeline (and not declared at the top of the scenario) does not
 * exist before its first create. Updates are merge patches: the {@code fields} given replace the object's,
 * a list (resourceGroups, admissionChecks) as a whole.
 */
public interface QueueObjectAction extends ClusterAction {
  /** The object's kind and name, for messages. */
  String object();

  /** Fields of a ClusterQueue an update may set, by their Kueue API names. */
  Set<String> CLUSTER_QUEUE_FIELDS = Set.of("cohortName", "queueingStrategy", "resourceGroups", "flavorFungibility",
      "preemption", "fairSharing", "admissionChecks", "stopPolicy");

  /** Fields of a ResourceFlavor an update may set. */
  Set<String> FLAVOR_FIELDS = Set.of("nodeLabels", "nodeTaints", "tolerations");

  /** Fields of a Cohort an update may set. */
  Set<String> COHORT_FIELDS = Set.of("parentName", "resourceGroups", "fairSharing");

  /**
   * The objects (named as {@link #object()} names them) whose first create or delete on the timeline, by time
   * and then order, is a create: they do not exist before it.
   */
  static Set<String> createdLater(List<TimelineEvent> timeline) {
    List<TimelineEvent> byTime = new ArrayList<>(timeline);
    byTime.sort(Comparator.comparingLong(TimelineEvent::atMs));
    Map<String, Boolean> first = new LinkedHashMap<>();
    for (TimelineEvent e : byTime) {
      Step s = Step.of(e.action());
      if (s != null && s.op() != Lifecycle.USE) {
        first.putIfAbsent(s.object(), s.op() == Lifecycle.CREATE);
      }
    }
    Set<String> out = new LinkedHashSet<>();
    first.forEach((o, create) -> {
      if (create) {
        out.add(o);
      }
    });
    return out;
  }

  /** What a timeline action does to the queue object it names. */
  enum Lifecycle { CREATE, DELETE, USE }

  /** The queue object a timeline action names ({@link #object()}'s form) and what it does to it. */
  record Step(String object, Lifecycle op) {
    /** The step of any timeline action; null when it names no queue object (nodes, workloads, ...). */
    public static Step of(ClusterAction a) {
      if (a instanceof ClusterAction.DeleteQueue d) {
        return new Step(queue(d.clusterQueue(), d.localQueue()), Lifecycle.DELETE);
      }
      if (a instanceof ClusterAction.StopQueue q) {
        return new Step(queue(q.clusterQueue(), q.localQueue()), Lifecycle.USE);
      }
      if (a instanceof ClusterAction.SetQuota q) {
        return new Step("ClusterQueue " + q.clusterQueue(), Lifecycle.USE);
      }
      if (a instanceof ClusterAction.SetPreemption p) {
        return new Step("ClusterQueue " + p.clusterQueue(), Lifecycle.USE);
      }
      if (a instanceof CreateClusterQueue || a instanceof CreateLocalQueue || a instanceof CreateCohort
          || a instanceof CreateResourceFlavor || a instanceof CreateTopology) {
        return new Step(((QueueObjectAction) a).object(), Lifecycle.CREATE);
      }
      if (a instanceof DeleteCohort || a instanceof DeleteResourceFlavor || a instanceof DeleteTopology) {
        return new Step(((QueueObjectAction) a).object(), Lifecycle.DELETE);
      }
      return a instanceof QueueObjectAction q ? new Step(q.object(), Lifecycle.USE) : null;
    }

    private static String queue(String clusterQueue, String localQueue) {
      return clusterQueue != null ? "ClusterQueue " + clusterQueue : "LocalQueue " + localQueue;
    }
  }

  record CreateClusterQueue(ClusterQueueSpec spec) implements QueueObjectAction {
    @Override
    public String object() {
      return "ClusterQueue " + spec.name();
    }
  }

  /** {@code stopPolicy} is null unless {@code fields} has it. */
  record UpdateClusterQueue(ClusterQueueSpec patch, Set<String> fields, ClusterAction.StopPolicy stopPolicy)
      implements QueueObjectAction {
    @Override
    public String object() {
      return "ClusterQueue " + patch.name();
    }
  }

  record CreateLocalQueue(LocalQueueSpec spec) implements QueueObjectAction {
    @Override
    public String object() {
      return "LocalQueue " + spec.name();
    }
  }

  record CreateCohort(CohortSpec spec) implements QueueObjectAction {
    @Override
    public String object() {
      return "Cohort " + spec.name();
    }
  }

  record UpdateCohort(CohortSpec patch, Set<String> fields) implements QueueObjectAction {
    @Override
    public String object() {
      return "Cohort " + patch.name();
    }
  }

  /** A deleted Cohort that ClusterQueues or cohorts still name stays as an implicit one (no quota, no parent). */
  record DeleteCohort(String name) implements QueueObjectAction {
    @Override
    public String object() {
      return "Cohort " + name;
    }
  }

  record CreateResourceFlavor(ResourceFlavorSpec spec) implements QueueObjectAction {
    @Override
    public String object() {
      return "ResourceFlavor " + spec.name();
    }
  }

  /** A patch of the flavor's nodeLabels, nodeTaints and tolerations (the {@code fields} given). */
  record UpdateResourceFlavor(ResourceFlavorSpec spec, Set<String> fields) implements QueueObjectAction {
    @Override
    public String object() {
      return "ResourceFlavor " + spec.name();
    }
  }

  /** Kueue keeps a flavor that a ClusterQueue still uses (finalizer resource-in-use) until none does. */
  record DeleteResourceFlavor(String name) implements QueueObjectAction {
    @Override
    public String object() {
      return "ResourceFlavor " + name;
    }
  }

  record CreateTopology(TopologySpec spec) implements QueueObjectAction {
    @Override
    public String object() {
      return "Topology " + spec.name();
    }
  }

  record DeleteTopology(String name) implements QueueObjectAction {
    @Override
    public String object() {
      return "Topology " + name;
    }
  }
}
