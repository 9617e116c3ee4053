package batchsim.scenarios;

import batchsim.core.model.ClusterAction;
import batchsim.core.model.ClusterAction.StopPolicy;
import batchsim.core.model.QueueObjectAction;
import batchsim.core.model.ResourceFlavorSpec;
import batchsim.core.model.TopologySpec;
import batchsim.scenarios.yaml.MapNode;
import batchsim.scenarios.yaml.Node;
import batchsim.scenarios.yaml.ScalarNode;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Kueue's queue and quota objects created, patched and deleted mid-run. Creates and patches were bound with
 * the scenario ({@link TimelineObjects}); here they become actions, with the checks that need the whole
 * scenario: references of a patch, and what cannot change (a LocalQueue's ClusterQueue, a TAS flavor).
 */
final class QueueObjectActions extends ActionFamily {
  static final List<String> KEYS = List.of("createClusterQueue", "updateClusterQueue", "createLocalQueue",
      "createCohort", "updateCohort", "deleteCohort", "createResourceFlavor", "updateResourceFlavor",
      "deleteResourceFlavor", "createTopology", "deleteTopology");

  QueueObjectActions(ActionContext ctx) {
    super(ctx, KEYS);
  }

  @Override
  ClusterAction bind(String kind, Fields outer) {
    Node block = outer.get(kind);
    if (kind.startsWith("delete")) {
      Fields f = outer.map(kind, "name");
      return switch (kind) {
        case "deleteCohort" -> named(f, ctx.cohorts, "Cohort", QueueObjectAction.DeleteCohort::new);
        case "deleteResourceFlavor" -> named(f, ctx.flavors, "ResourceFlavor",
            QueueObjectAction.DeleteResourceFlavor::new);
        default -> named(f, ctx.topologies, "Topology", QueueObjectAction.DeleteTopology::new);
      };
    }
    Object bound = block == null ? null : ctx.scenario.timelineObjects().get(block);
    if (bound == null) {
      if (block == null) {
        outer.required(kind);
      }
      return null; // its problems were reported when it was bound
    }
    return switch (kind) {
      case "createClusterQueue" -> {
        Spec.ClusterQueue q = (Spec.ClusterQueue) bound;
        yield q.name() == null ? null : new QueueObjectAction.CreateClusterQueue(ModelBuilder.clusterQueue(q));
      }
      case "updateClusterQueue" -> updateClusterQueue((MapNode) block, (Spec.ClusterQueue) bound);
      case "createLocalQueue" -> createLocalQueue((Spec.LocalQueue) bound);
      case "createCohort" -> {
        Spec.Cohort c = (Spec.Cohort) bound;
        yield c.name() == null ? null : new QueueObjectAction.CreateCohort(ModelBuilder.cohort(c));
      }
      case "updateCohort" -> updateCohort((MapNode) block, (Spec.Cohort) bound);
      case "createResourceFlavor" -> {
        Spec.Flavor f = (Spec.Flavor) bound;
        yield f.name() == null ? null : new QueueObjectAction.CreateResourceFlavor(f.spec());
      }
      case "updateResourceFlavor" -> updateFlavor((MapNode) block, (Spec.Flavor) bound);
      default -> new QueueObjectAction.CreateTopology((TopologySpec) bound);
    };
  }

  private interface Named {
    ClusterAction of(String name);
  }

  private static ClusterAction named(Fields f, Set<String> known, String what, Named make) {
    ScalarNode name = f.reference("name", known, what);
    return name == null ? null : make.of(name.text());
  }

  private ClusterAction updateClusterQueue(MapNode block, Spec.ClusterQueue patch) {
    if (patch.name() == null || !exists(patch.name(), ctx.clusterQueues, "ClusterQueue")) {
      return null;
    }
    if (block.get("admissionScope") != null) {
      // Kueue builds a ClusterQueue's queue order (with or without fair sharing) when the queue is created.
      ctx.problems.at(block.get("admissionScope"), "admissionScope cannot be changed by updateClusterQueue: "
          + "Kueue fixes a ClusterQueue's queue order when it is created");
      return null;
    }
    Set<String> fields = given(block, QueueObjectAction.CLUSTER_QUEUE_FIELDS);
    if (block.get("cohort") != null) {
      fields.add("cohortName"); // the v1beta1 spelling
    }
    if (block.get("admissionChecksStrategy") != null) {
      fields.add("admissionChecks"); // the checks with their onFlavors
    }
    StopPolicy stop = null;
    Node sp = block.get(TimelineObjects.STOP_POLICY);
    if (sp != null && !sp.isNull()) {
      stop = Values.enumeration(StopPolicy.class, sp, ctx.problems);
      if (stop == null) {
        return null;
      }
    }
    if (fields.isEmpty()) {
      ctx.problems.at(block, "an update needs at least one field besides name (one of "
          + String.join(", ", QueueObjectAction.CLUSTER_QUEUE_FIELDS.stream().sorted().toList()) + ")");
      return null;
    }
    boolean ok = flavorRefs(patch.resourceGroups());
    for (Spec.CheckRule rule : patch.checkRules()) {
      String c = rule.name().text();
      if (!ctx.admissionChecks.contains(c)) {
        ctx.problems.at(rule.name(), "unknown AdmissionCheck '" + c + "' "
            + ScenarioValidator.known(ctx.admissionChecks));
        ok = false;
      }
    }
    return ok ? new QueueObjectAction.UpdateClusterQueue(ModelBuilder.clusterQueue(patch), Set.copyOf(fields), stop)
        : null;
  }

  private ClusterAction updateCohort(MapNode block, Spec.Cohort patch) {
    if (patch.name() == null || !exists(patch.name(), ctx.cohorts, "Cohort")) {
      return null;
    }
    Set<String> fields = given(block, QueueObjectAction.COHORT_FIELDS);
    if (fields.isEmpty()) {
      ctx.problems.at(block, "an update needs at least one field besides name (one of fairSharing, parentName, "
          + "resourceGroups)");
      return null;
    }
    return flavorRefs(patch.resourceGroups())
        ? new QueueObjectAction.UpdateCohort(ModelBuilder.cohort(patch), Set.copyOf(fields)) : null;
  }

  private ClusterAction createLocalQueue(Spec.LocalQueue lq) {
    if (lq.fullName() == null || lq.clusterQueue() == null) {
      return null;
    }
    for (Spec.LocalQueue declared : ctx.scenario.localQueues()) {
      if (lq.fullName().equals(declared.fullName()) && declared.clusterQueue() != null
          && !declared.clusterQueue().text().equals(lq.clusterQueue().text())) {
        ctx.problems.at(lq.clusterQueue(), "LocalQueue " + lq.fullName() + " is declared with clusterQueue '"
            + declared.clusterQueue().text() + "'; a LocalQueue's clusterQueue cannot change (Kueue: the field "
            + "is immutable), not even by deleting and creating it again here");
        return null;
      }
    }
    return new QueueObjectAction.CreateLocalQueue(new batchsim.core.model.LocalQueueSpec(lq.fullName(),
        lq.clusterQueue().text(), lq.fairWeight()));
  }

  private ClusterAction updateFlavor(MapNode block, Spec.Flavor f) {
    if (f.name() == null || !exists(f.name(), ctx.flavors, "ResourceFlavor")) {
      return null;
    }
    for (Spec.Flavor declared : ctx.scenario.flavors()) {
      ResourceFlavorSpec d = declared.spec();
      if (d.name().equals(f.spec().name())
          && (d.topologyName() != null || f.spec().topologyName() != null)) {
        ctx.problems.at(f.name(), "updating a TAS flavor (one with topologyName) is not supported: its topology "
            + "trees are built from its nodeLabels when the run starts");
        return null;
      }
    }
    Set<String> fields = given(block, QueueObjectAction.FLAVOR_FIELDS);
    if (fields.isEmpty()) {
      ctx.problems.at(block, "an update needs at least one field besides name (one of nodeLabels, nodeTaints, "
          + "tolerations)");
      return null;
    }
    return new QueueObjectAction.UpdateResourceFlavor(f.spec(), Set.copyOf(fields));
  }

  /** The patch's API fields that the block gives (name aside). */
  private static Set<String> given(MapNode block, Set<String> allowed) {
    Set<String> out = new LinkedHashSet<>();
    for (String k : block.entries().keySet()) {
      if (allowed.contains(k) && !Objects.requireNonNullElse(block.get(k), block).isNull()) {
        out.add(k);
      }
    }
    return out;
  }

  private boolean exists(ScalarNode name, Set<String> known, String what) {
    if (known.contains(name.text())) {
      return true;
    }
    ctx.problems.at(name, "unknown " + what + " '" + name.text() + "' " + ScenarioValidator.known(known));
    return false;
  }

  private boolean flavorRefs(List<Spec.ResourceGroup> groups) {
    boolean ok = true;
    for (Spec.ResourceGroup g : groups) {
      for (Spec.FlavorQuotas fq : g.flavors()) {
        if (fq.flavor() != null && !ctx.flavors.contains(fq.flavor().text())) {
          ctx.problems.at(fq.flavor(), "unknown ResourceFlavor '" + fq.flavor().text() + "' "
              + ScenarioValidator.known(ctx.flavors));
          ok = false;
        }
      }
    }
    return ok;
  }
}
