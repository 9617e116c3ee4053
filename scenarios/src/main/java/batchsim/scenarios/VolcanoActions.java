package batchsim.scenarios;

import batchsim.core.model.ClusterAction;
import batchsim.core.model.VolcanoAction;
import batchsim.core.model.VolcanoAction.QueueFields;
import batchsim.core.volcano.ResourceList;
import batchsim.scenarios.yaml.ScalarNode;
import java.util.List;
import java.util.SortedMap;

/**
 * Volcano's queues and PodGroups changed mid-run (scheduler: volcano only; a Kueue run reports them where they are
 * written). Queue fields read as in the {@code volcano.queues} block.
 */
final class VolcanoActions extends ActionFamily {
  static final List<String> KEYS = List.of("createVolcanoQueue", "updateVolcanoQueue", "closeVolcanoQueue",
      "openVolcanoQueue", "deleteVolcanoQueue", "deletePodGroup");
  private static final String[] QUEUE_FIELDS = {"name", "parent", "weight", "capability", "deserved", "guarantee",
      "priority", "reclaimable"};

  private final VolcanoBinder queues;

  VolcanoActions(ActionContext ctx) {
    super(ctx, KEYS);
    this.queues = new VolcanoBinder(ctx.scenario, ctx.problems);
  }

  @Override
  ClusterAction bind(String kind, Fields outer) {
    switch (kind) {
      case "createVolcanoQueue":
      case "updateVolcanoQueue": {
        boolean create = kind.equals("createVolcanoQueue");
        Fields f = outer.map(kind, QUEUE_FIELDS);
        ScalarNode name = create ? f.requiredName("name") : queueName(f);
        QueueFields fields = fields(f, create);
        if (!create && fields != null && f.present() && f.node().entries().size() == 1) {
          ctx.problems.at(f.node(), "nothing to update: give at least one of weight, capability, deserved, guarantee,"
              + " priority, reclaimable");
          return null;
        }
        if (name == null || fields == null) {
          return null;
        }
        return create ? new VolcanoAction.CreateQueue(name.text(), fields)
            : new VolcanoAction.UpdateQueue(name.text(), fields);
      }
      case "deletePodGroup": {
        Fields f = outer.map(kind, "workload");
        ScalarNode w = f.requiredName("workload");
        return w == null ? null : new VolcanoAction.DeletePodGroup(w.text());
      }
      default: {
        ScalarNode name = queueName(outer.map(kind, "name"));
        if (name == null) {
          return null;
        }
        return switch (kind) {
          case "closeVolcanoQueue" -> new VolcanoAction.CloseQueue(name.text());
          case "openVolcanoQueue" -> new VolcanoAction.OpenQueue(name.text());
          default -> new VolcanoAction.DeleteQueue(name.text());
        };
      }
    }
  }

  /** A queue the scenario declares or creates somewhere (or Volcano's root and default). */
  private ScalarNode queueName(Fields f) {
    return f.reference("name", ctx.volcanoQueues, "Volcano queue");
  }

  /** The fields given; null after a problem. */
  private QueueFields fields(Fields f, boolean create) {
    int before = ctx.problems.count();
    ScalarNode parent = f.optionalName("parent");
    if (parent != null && !create) {
      ctx.problems.at(parent, "updateVolcanoQueue cannot change a queue's parent (not modelled): delete the queue and"
          + " create it under the new parent");
    } else if (parent != null && !ctx.volcanoHierarchical) {
      ctx.problems.at(parent, "a parent needs hierarchical: true (with plugins: capacity)");
    } else if (parent != null && !ctx.volcanoQueues.contains(parent.text())) {
      ctx.problems.at(parent, "unknown parent queue '" + parent.text() + "' (known: "
          + String.join(", ", ctx.volcanoQueues) + ")");
    }
    ResourceList capability = queues.resources(f.get("capability"));
    ResourceList deserved = queues.resources(f.get("deserved"));
    ResourceList guarantee = queues.resources(f.get("guarantee"));
    queues.atMost(f.get("guarantee"), guarantee, deserved, "deserved");
    queues.atMost(f.get("guarantee"), guarantee, capability, "capability");
    queues.atMost(f.get("deserved"), deserved, capability, "capability");
    Integer weight = f.has("weight") ? f.int32("weight", 1, 1) : null;
    Integer priority = f.has("priority") ? f.int32("priority", 0, Integer.MIN_VALUE) : null;
    Boolean reclaimable = f.has("reclaimable") ? f.bool("reclaimable", true) : null;
    if (ctx.problems.count() != before) {
      return null;
    }
    return new QueueFields(parent == null ? null : parent.text(), weight, amounts(capability), amounts(deserved),
        amounts(guarantee), priority, reclaimable);
  }

  private static SortedMap<String, Long> amounts(ResourceList l) {
    return l == null ? null : l.amounts();
  }
}
