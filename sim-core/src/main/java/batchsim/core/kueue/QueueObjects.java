package batchsim.core.kueue;

import batchsim.core.model.ActionRefused;
import batchsim.core.model.ClusterAction.StopPolicy;
import batchsim.core.model.ClusterQueueSpec;
import batchsim.core.model.CohortSpec;
import batchsim.core.model.QueueObjectAction;
import batchsim.core.model.QueueObjectAction.CreateClusterQueue;
import batchsim.core.model.QueueObjectAction.CreateCohort;
import batchsim.core.model.QueueObjectAction.CreateLocalQueue;
import batchsim.core.model.QueueObjectAction.CreateResourceFlavor;
import batchsim.core.model.QueueObjectAction.CreateTopology;
import batchsim.core.model.QueueObjectAction.DeleteCohort;
import batchsim.core.model.QueueObjectAction.DeleteResourceFlavor;
import batchsim.core.model.QueueObjectAction.DeleteTopology;
import batchsim.core.model.QueueObjectAction.UpdateClusterQueue;
import batchsim.core.model.QueueObjectAction.UpdateCohort;
import batchsim.core.model.QueueObjectAction.UpdateResourceFlavor;
import batchsim.core.model.ResourceFlavorSpec;
import batchsim.core.model.TopologySpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Kueue's queue and quota objects created, updated and deleted while the cluster runs, as Kueue's cache and
 * queue manager take them in (pkg/cache/scheduler/cache.go, clusterqueue.go; pkg/cache/queue/manager.go):
 *
 * <ul>
 *   <li>every ClusterQueue or Cohort event relinks the quota tree and retries the parked workloads of the
 *       trees involved (manager UpdateClusterQueue / AddOrUpdateCohort: notifyRetryInadmissible);
 *   <li>a ClusterQueue is Active only when it is not stopped and every flavor it names exists, and every
 *       Topology its TAS flavors name exists (inactiveReason: Stopped, FlavorNotFound, TopologyNotFound);
 *   <li>a deleted ClusterQueue stays in the tree, terminating, while it holds workloads (finalizer
 *       resource-in-use), and leaves it once the last one is gone; a deleted ResourceFlavor or Topology stays
 *       while a ClusterQueue (a flavor) still names it, the same finalizer;
 *   <li>a deleted Cohort that is still named stays as an implicit one, without quota or parent.
 * </ul>
 * A name that does not exist at that time, or a create of one that does, is refused ({@link ActionRefused}).
 */
final class QueueObjects {
  private final KueueEngine engine;
  private final boolean[] flavorExists;
  /** Deleted flavors that a ClusterQueue still names. */
  private final Set<String> flavorsTerminating = new LinkedHashSet<>();
  /** Topology name → whether it exists. */
  private final Map<String, Boolean> topologies = new LinkedHashMap<>();
  private final Set<String> topologiesTerminating = new LinkedHashSet<>();

  QueueObjects(KueueEngine engine) {
    this.engine = engine;
    this.flavorExists = new boolean[engine.flavorSpecs.size()];
    java.util.Arrays.fill(flavorExists, true);
  }

  void topologiesDeclared(List<TopologySpec> specs) {
    specs.forEach(t -> topologies.put(t.name(), true));
  }

  /** The objects the timeline creates later (their first lifecycle action is a create) do not exist yet. */
  void absentAtStart(Set<String> objects) {
    for (String o : objects) {
      String name = o.substring(o.indexOf(' ') + 1);
      if (o.startsWith("ClusterQueue ")) {
        ClusterQueue q = queue(name);
        q.deleted = true;
        q.gone = true;
      } else if (o.startsWith("Cohort ")) {
        engine.tree.cohortSpecs.remove(name);
      } else if (o.startsWith("ResourceFlavor ")) {
        flavorExists[engine.index.flavorIndex(name)] = false;
      } else if (o.startsWith("Topology ")) {
        topologies.put(name, false);
      } else if (o.startsWith("LocalQueue ")) {
        engine.queueLifecycle.stopLocalQueue(name, StopPolicy.HOLD, true);
      }
    }
    engine.tree.relink();
    refresh();
  }

  void apply(QueueObjectAction a) {
    if (a instanceof CreateClusterQueue c) {
      createClusterQueue(c.spec());
    } else if (a instanceof UpdateClusterQueue u) {
      updateClusterQueue(u);
    } else if (a instanceof CreateLocalQueue c) {
      engine.queueLifecycle.createLocalQueue(c.spec().name());
    } else if (a instanceof CreateCohort c) {
      if (engine.tree.cohortSpecs.containsKey(c.spec().name())) {
        throw new ActionRefused("Cohort " + c.spec().name() + " already exists");
      }
      Map<String, CohortSpec> next = new LinkedHashMap<>(engine.tree.cohortSpecs);
      next.put(c.spec().name(), c.spec());
      relink(next);
    } else if (a instanceof UpdateCohort u) {
      CohortSpec old = existingCohort(u.patch().name());
      Set<String> f = u.fields();
      CohortSpec p = u.patch();
      Map<String, CohortSpec> next = new LinkedHashMap<>(engine.tree.cohortSpecs);
      next.put(old.name(), new CohortSpec(old.name(), f.contains("parentName") ? p.parent() : old.parent(),
          f.contains("resourceGroups") ? p.resourceGroups() : old.resourceGroups(),
          f.contains("fairSharing") ? p.fairWeight() : old.fairWeight()));
      relink(next);
    } else if (a instanceof DeleteCohort d) {
      existingCohort(d.name());
      Map<String, CohortSpec> next = new LinkedHashMap<>(engine.tree.cohortSpecs);
      next.remove(d.name());
      relink(next);
    } else if (a instanceof CreateResourceFlavor c) {
      int f = flavor(c.spec().name());
      if (flavorExists[f]) {
        throw new ActionRefused("ResourceFlavor " + c.spec().name() + " already exists");
      }
      flavorExists[f] = true;
      engine.flavorSpecs.set(f, c.spec());
      refresh();
    } else if (a instanceof UpdateResourceFlavor u) {
      int f = existingFlavor(u.spec().name());
      ResourceFlavorSpec o = engine.flavorSpecs.get(f);
      ResourceFlavorSpec p = u.spec();
      engine.flavorSpecs.set(f, new ResourceFlavorSpec(o.name(),
          u.fields().contains("nodeLabels") ? p.nodeLabels() : o.nodeLabels(),
          u.fields().contains("nodeTaints") ? p.nodeTaints() : o.nodeTaints(),
          u.fields().contains("tolerations") ? p.tolerations() : o.tolerations(), o.topologyName()));
      // Kueue: a change of the scheduling fields retries the workloads of the ClusterQueues using it.
      for (ClusterQueue q : engine.tree.queues) {
        if (names(q, u.spec().name())) {
          engine.requeues.notifyRequeue(q);
        }
      }
    } else if (a instanceof DeleteResourceFlavor d) {
      existingFlavor(d.name());
      flavorsTerminating.add(d.name());
      refresh();
    } else if (a instanceof CreateTopology c) {
      if (Boolean.TRUE.equals(topologies.get(c.spec().name()))) {
        throw new ActionRefused("Topology " + c.spec().name() + " already exists");
      }
      topologies.put(c.spec().name(), true);
      refresh();
    } else if (a instanceof DeleteTopology d) {
      if (!Boolean.TRUE.equals(topologies.get(d.name())) || topologiesTerminating.contains(d.name())) {
        throw new ActionRefused("Topology " + d.name() + " doesn't exist");
      }
      topologiesTerminating.add(d.name());
      refresh();
    } else {
      throw new IllegalArgumentException("unknown queue object action " + a);
    }
  }

  private void createClusterQueue(ClusterQueueSpec s) {
    ClusterQueue q = queue(s.name());
    if (!q.gone) {
      throw new ActionRefused("ClusterQueue " + s.name() + " already exists"
          + (q.deleted ? " (terminating: it still holds workloads)" : ""));
    }
    q.deleted = false;
    q.gone = false;
    q.stopped = false;
    engine.tree.configure(q, s);
    q.generation++;
    relink(engine.tree.cohortSpecs);
  }

  private void updateClusterQueue(UpdateClusterQueue u) {
    ClusterQueue q = queue(u.patch().name());
    if (q.gone) {
      throw new ActionRefused("ClusterQueue " + q.name + " doesn't exist");
    }
    ClusterQueueSpec o = q.spec;
    ClusterQueueSpec p = u.patch();
    Set<String> f = u.fields();
    ClusterQueueSpec merged = new ClusterQueueSpec(o.name(), f.contains("cohortName") ? p.cohort() : o.cohort(),
        f.contains("resourceGroups") ? p.resourceGroups() : o.resourceGroups(),
        f.contains("queueingStrategy") ? p.queueingStrategy() : o.queueingStrategy(),
        f.contains("preemption") ? p.preemption() : o.preemption(),
        f.contains("flavorFungibility") ? p.fungibility() : o.fungibility(),
        f.contains("fairSharing") ? p.fairWeight() : o.fairWeight(),
        f.contains("admissionChecks") ? p.admissionChecks() : o.admissionChecks(),
        f.contains("admissionChecks") ? p.checkFlavors() : o.checkFlavors(),
        o.admissionMode()); // an update cannot change it (the scenario refuses): Kueue fixes the queue order at creation
    engine.requeues.notifyRequeue(q); // the tree it leaves, if its cohort changes
    engine.tree.configure(q, merged);
    q.generation++;
    // Usage above a lowered quota is legal (Kueue never evicts for a quota change); it may only drain.
    engine.quotaInvariants.tolerateExcess();
    relink(engine.tree.cohortSpecs);
    if (f.contains("stopPolicy")) {
      engine.queueLifecycle.stopClusterQueue(q, u.stopPolicy());
    }
  }

  /** A deleted ClusterQueue's last workload released its quota: Kueue removes the finalizer; it is gone. */
  void released(ClusterQueue q) {
    if (q.deleted && !q.gone && q.admitted.isEmpty()) {
      q.gone = true;
      q.refreshActive();
      engine.queueLifecycle.markPending(q, "Misconfigured", q.inactiveMessage); // "doesn't exist" now
      engine.requeues.notifyRequeue(q); // its quota leaves the cohort
      relink(engine.tree.cohortSpecs);
    }
  }

  /** Applies a new set of Cohort objects, refused when it would make a cycle; then refreshes activity. */
  private void relink(Map<String, CohortSpec> next) {
    String cycle = engine.tree.cycleWith(next);
    if (cycle != null) {
      throw new ActionRefused("Cohort " + cycle + " would be part of a cycle of parentName");
    }
    List<QuotaNode> rootsBefore = roots();
    if (next != engine.tree.cohortSpecs) {
      engine.tree.cohortSpecs.clear();
      engine.tree.cohortSpecs.putAll(next);
    }
    engine.tree.relink();
    engine.quotaInvariants.tolerateExcess();
    for (QuotaNode r : rootsBefore) {
      notifyTree(r);
    }
    for (QuotaNode r : roots()) {
      notifyTree(r);
    }
    refresh();
  }

  private List<QuotaNode> roots() {
    List<QuotaNode> out = new ArrayList<>();
    for (ClusterQueue q : engine.tree.queues) {
      QuotaNode r = q.hasParent() ? q.root() : q;
      if (!q.gone && !out.contains(r)) {
        out.add(r);
      }
    }
    return out;
  }

  /** Retries the parked workloads of the tree (any one of its ClusterQueues names it). */
  private void notifyTree(QuotaNode root) {
    List<ClusterQueue> qs = root instanceof ClusterQueue q ? List.of(q) : ((Cohort) root).subtreeQueues();
    if (!qs.isEmpty()) {
      engine.requeues.notifyRequeue(qs.get(0));
    }
  }

  /**
   * Drops deleted flavors and topologies nobody names any more, then recomputes every ClusterQueue's
   * missing flavors and topologies and its Active state; a queue that became inactive marks its pending
   * workloads, one that became active retries them.
   */
  private void refresh() {
    for (String name : new ArrayList<>(flavorsTerminating)) {
      if (engine.tree.queues.stream().noneMatch(q -> !q.gone && names(q, name))) {
        flavorsTerminating.remove(name);
        flavorExists[engine.index.flavorIndex(name)] = false;
      }
    }
    for (String name : new ArrayList<>(topologiesTerminating)) {
      boolean used = false;
      for (int f = 0; f < flavorExists.length; f++) {
        used |= flavorExists[f] && name.equals(engine.flavorSpecs.get(f).topologyName());
      }
      if (!used) {
        topologiesTerminating.remove(name);
        topologies.put(name, false);
      }
    }
    for (ClusterQueue q : engine.tree.queues) {
      List<String> missing = new ArrayList<>();
      List<String> noTopology = new ArrayList<>();
      for (ResourceGroup g : q.groups) {
        for (int f : g.flavors()) {
          ResourceFlavorSpec spec = engine.flavorSpecs.get(f);
          if (!flavorExists[f]) {
            missing.add(spec.name());
          } else if (spec.topologyName() != null && !Boolean.TRUE.equals(topologies.get(spec.topologyName()))) {
            noTopology.add("there is no Topology \"" + spec.topologyName() + "\" for TAS flavor \"" + spec.name() + "\"");
          }
        }
      }
      boolean wasActive = q.active;
      q.missingFlavors = List.copyOf(missing);
      q.missingTopologies = List.copyOf(noTopology);
      q.refreshActive();
      if (wasActive && !q.active) {
        engine.queueLifecycle.markPending(q, q.gone ? "Misconfigured" : "Suspended", q.inactiveMessage);
      } else if (!wasActive && q.active) {
        engine.requeues.notifyRequeue(q);
      }
    }
  }

  private static boolean names(ClusterQueue q, String flavor) {
    return q.spec.resourceGroups().stream().anyMatch(g -> g.flavors().stream().anyMatch(f -> f.flavor().equals(flavor)));
  }

  private ClusterQueue queue(String name) {
    ClusterQueue q = engine.tree.queuesByName.get(name);
    if (q == null) {
      throw new IllegalArgumentException("ClusterQueue " + name + " was not declared to the engine");
    }
    return q;
  }

  private CohortSpec existingCohort(String name) {
    CohortSpec c = engine.tree.cohortSpecs.get(name);
    if (c == null) {
      throw new ActionRefused("Cohort " + name + " doesn't exist" + (engine.tree.cohorts.containsKey(name)
          ? " as an object (ClusterQueues name it, so it exists only implicitly: create it first)" : ""));
    }
    return c;
  }

  private int flavor(String name) {
    int f = engine.index.flavorIndex(name);
    if (f < 0) {
      throw new IllegalArgumentException("ResourceFlavor " + name + " was not declared to the engine");
    }
    return f;
  }

  private int existingFlavor(String name) {
    int f = flavor(name);
    if (!flavorExists[f] || flavorsTerminating.contains(name)) {
      throw new ActionRefused("ResourceFlavor " + name + " doesn't exist"
          + (flavorExists[f] ? " (it is being deleted: ClusterQueues still name it)" : ""));
    }
    return f;
  }
}
