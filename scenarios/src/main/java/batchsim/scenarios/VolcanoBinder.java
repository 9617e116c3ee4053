package batchsim.scenarios;

import batchsim.core.volcano.VolcanoSetup;
import batchsim.core.volcano.ExtensionPoint;
import batchsim.core.volcano.PluginSpec;
import batchsim.core.volcano.QueueState;
import batchsim.core.volcano.ResourceList;
import batchsim.core.volcano.VolcanoConfig;
import batchsim.core.volcano.VolcanoQueueSpec;
import batchsim.scenarios.yaml.ListNode;
import batchsim.scenarios.yaml.MapNode;
import batchsim.scenarios.yaml.Node;
import batchsim.scenarios.yaml.ScalarNode;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Binds {@code scheduler:} and the {@code volcano:} block — Volcano's scheduler configuration, its queues, and
 * the Volcano queue each LocalQueue's workloads go to. Runs after the rest of the scenario is bound and
 * validated (like {@link TimelineBinder}), so LocalQueues, ClusterQueues and resources are known. The block is
 * checked whenever it is present, so that {@code --set scheduler=volcano} meets no surprise; with
 * {@code scheduler: volcano}, what a Volcano run cannot do (Kueue's own timeline actions: quota, preemption
 * and queue edits) is reported where it is written. Kueue-only blocks stay valid and are
 * ignored by a Volcano run, as the volcano block is by a Kueue run.
 */
final class VolcanoBinder {
  static final String KUEUE = "kueue";
  static final String VOLCANO = "volcano";
  private static final String ROOT = "root";
  private static final String DEFAULT_QUEUE = "default";
  private static final List<String> PRESETS = List.of("proportion", "capacity");
  /** The world's timeline actions (nodes by pool or name, arrivals), Volcano's own, and deleting a job; quota, preemption and queue actions are Kueue's. */
  private static final List<String> SUPPORTED_EVENTS = supportedEvents();
  private static final String CREATE_QUEUE = "createVolcanoQueue";

  private static List<String> supportedEvents() {
    List<String> out = new ArrayList<>(List.of("failNodes", "cordonNodes", "drainNodes", "uncordonNodes", "addNodes",
        "removeNodes", "scaleArrivals", "deleteWorkload"));
    out.addAll(VolcanoActions.KEYS);
    out.addAll(NodeActions.KEYS);
    return List.copyOf(out);
  }

  private final Problems problems;
  private final Spec.Scenario scenario;

  VolcanoBinder(Spec.Scenario scenario, Problems problems) {
    this.scenario = scenario;
    this.problems = problems;
  }

  /** The Volcano setup when the scenario selects {@code scheduler: volcano}, else null (Kueue). */
  static VolcanoSetup bind(Node root, Spec.Scenario scenario, Problems problems) {
    return root instanceof MapNode m ? new VolcanoBinder(scenario, problems).bind(m) : null;
  }

  private VolcanoSetup bind(MapNode root) {
    boolean volcano = scheduler(root.get("scheduler"));
    Node block = root.get(VOLCANO);
    if (volcano) {
      unsupported(root);
    } else {
      volcanoOnly(root);
    }
    if (!volcano && (block == null || block.isNull())) {
      return null;
    }
    Fields f = Fields.of(block, problems, "schedulePeriod", "bindDelay", "terminationGracePeriod", "actions",
        "plugins", "hierarchical", "pluginOptions", "queueFor", "queues");
    VolcanoConfig config = config(f);
    boolean hierarchical = config != null && config.hierarchical();
    Map<String, Queue> queues = queues(f.list("queues"), hierarchical);
    TreeMap<String, String> queueFor = queueFor(f, queues, createdQueues(root), hierarchical);
    long grace = f.duration("terminationGracePeriod", scenario.kueue().terminationGraceMs());
    if (!volcano || config == null) {
      return null;
    }
    List<VolcanoQueueSpec> specs = new ArrayList<>();
    queues.values().forEach(q -> specs.add(q.spec));
    return new VolcanoSetup(config, specs, queueFor, grace);
  }

  /** True for {@code scheduler: volcano}; false for kueue or absent. */
  private boolean scheduler(Node n) {
    if (n == null || n.isNull()) {
      return false;
    }
    ScalarNode s = Values.scalar(n, problems, "kueue or volcano");
    if (s == null) {
      return false;
    }
    if (!s.text().equals(KUEUE) && !s.text().equals(VOLCANO)) {
      problems.at(s, "unknown scheduler '" + s.text() + "' (expected kueue or volcano)");
      return false;
    }
    return s.text().equals(VOLCANO);
  }

  // ------------------------------------------------------------------ scheduler configuration

  private VolcanoConfig config(Fields f) {
    Long period = f.has("schedulePeriod") ? Values.positiveDuration(f.get("schedulePeriod"), problems) : null;
    long bindDelay = f.duration("bindDelay", 0);
    String preset = f.string("plugins", "proportion");
    if (!PRESETS.contains(preset)) {
      problems.at(f.get("plugins"), "unknown plugins '" + preset + "' (expected capacity or proportion)");
      return null;
    }
    boolean hierarchical = f.bool("hierarchical", false);
    if (hierarchical && !preset.equals("capacity")) {
      problems.at(f.get("hierarchical"), "hierarchical queues need plugins: capacity (proportion has no hierarchy)");
      hierarchical = false;
    }
    // Volcano's defaults: proportion = DefaultSchedulerConf, capacity = how_to_use_capacity_plugin.md.
    VolcanoConfig base = preset.equals("capacity") ? VolcanoConfig.capacity(hierarchical) : VolcanoConfig.defaults();
    List<String> actions = f.has("actions") ? actions(f) : base.actions();
    List<List<PluginSpec>> tiers = pluginOptions(f.get("pluginOptions"), base.tiers());
    return new VolcanoConfig(actions, null, tiers, period == null ? base.schedulePeriodMs() : period,
        Math.max(0, bindDelay));
  }

  private List<String> actions(Fields f) {
    List<String> out = new ArrayList<>();
    for (ScalarNode a : f.stringList("actions")) {
      if (!VolcanoConfig.KNOWN_ACTIONS.contains(a.text())) {
        problems.at(a, "unknown Volcano action '" + a.text() + "' (known: "
            + String.join(", ", VolcanoConfig.KNOWN_ACTIONS) + ")");
      } else if (out.contains(a.text())) {
        problems.at(a, "action '" + a.text() + "' is listed twice");
      } else {
        out.add(a.text());
      }
    }
    return out;
  }

  /**
   * Per plugin of the preset, Volcano's scheduler-configuration switches ({@code enablePreemptable: false}, ...)
   * and {@code arguments}; every switch a plugin entry leaves out stays on, as in a real configuration.
   */
  private List<List<PluginSpec>> pluginOptions(Node n, List<List<PluginSpec>> tiers) {
    Map<String, PluginSpec> byName = new LinkedHashMap<>();
    tiers.forEach(t -> t.forEach(p -> byName.put(p.name(), p)));
    if (n instanceof MapNode m) {
      List<String> keys = new ArrayList<>(List.of("arguments"));
      for (ExtensionPoint e : ExtensionPoint.values()) {
        keys.add(flag(e));
      }
      for (MapNode.Entry e : m.entries().values()) {
        PluginSpec p = byName.get(e.key().text());
        if (p == null) {
          problems.at(e.key(), "plugin '" + e.key().text() + "' is not in this configuration (plugins: "
              + String.join(", ", byName.keySet()) + ")");
          continue;
        }
        Fields o = Fields.of(e.value(), problems, keys.toArray(new String[0]));
        EnumSet<ExtensionPoint> on = p.enabled().isEmpty() ? EnumSet.noneOf(ExtensionPoint.class)
            : EnumSet.copyOf(p.enabled());
        for (ExtensionPoint x : ExtensionPoint.values()) {
          if (o.has(flag(x))) {
            if (o.bool(flag(x), true)) {
              on.add(x);
            } else {
              on.remove(x);
            }
          }
        }
        TreeMap<String, String> args = new TreeMap<>(p.arguments());
        args.putAll(o.stringMap("arguments"));
        byName.put(p.name(), new PluginSpec(p.name(), on, p.hierarchy(), args));
      }
    } else if (n != null && !n.isNull()) {
      problems.wrongType(n, "a map of plugin name to its options");
    }
    List<List<PluginSpec>> out = new ArrayList<>();
    for (List<PluginSpec> t : tiers) {
      out.add(t.stream().map(p -> byName.get(p.name())).toList());
    }
    return out;
  }

  /** Volcano's configuration key for an extension point: enableJobOrder, enablePreemptable, ... */
  private static String flag(ExtensionPoint e) {
    String n = e.volcanoName();
    return "enable" + Character.toUpperCase(n.charAt(0)) + n.substring(1);
  }

  // ------------------------------------------------------------------ queues

  /** A bound queue and where its name and parent are written. */
  private record Queue(ScalarNode name, ScalarNode parent, VolcanoQueueSpec spec) {}

  private Map<String, Queue> queues(List<Node> items, boolean hierarchical) {
    Map<String, Queue> out = new LinkedHashMap<>();
    for (Node n : items) {
      Fields f = Fields.of(n, problems, "name", "parent", "weight", "capability", "deserved", "guarantee",
          "priority", "reclaimable", "state");
      ScalarNode name = f.requiredName("name");
      ScalarNode parent = f.optionalName("parent");
      if (parent != null && !hierarchical) {
        problems.at(parent, "a parent needs hierarchical: true (with plugins: capacity)");
        parent = null;
      }
      if (parent != null && name != null && name.text().equals(ROOT)) {
        problems.at(parent, "the root queue has no parent");
        parent = null;
      }
      ResourceList capability = resources(f.get("capability"));
      ResourceList deserved = resources(f.get("deserved"));
      ResourceList guarantee = resources(f.get("guarantee"));
      // Volcano's queue admission webhook: guarantee <= deserved <= capability, per resource.
      atMost(f.get("guarantee"), guarantee, deserved, "deserved");
      atMost(f.get("guarantee"), guarantee, capability, "capability");
      atMost(f.get("deserved"), deserved, capability, "capability");
      QueueState state = QueueState.OPEN;
      if (f.has("state")) {
        try {
          state = QueueState.parse(f.string("state", "Open"));
        } catch (IllegalArgumentException e) {
          problems.at(f.get("state"), e.getMessage());
        }
      }
      if (name == null) {
        continue;
      }
      VolcanoQueueSpec spec = new VolcanoQueueSpec(name.text(), parent == null ? null : parent.text(),
          f.int32("weight", 1, 1), capability, deserved, guarantee, f.int32("priority", 0, Integer.MIN_VALUE),
          f.bool("reclaimable", true), state);
      Queue first = out.putIfAbsent(name.text(), new Queue(name, parent, spec));
      if (first != null) {
        problems.at(name, "duplicate Volcano queue name '" + name.text() + "' (first defined at line "
            + first.name().location().line() + ", column " + first.name().location().column() + ")");
      }
    }
    if (hierarchical) {
      parents(out);
    }
    return out;
  }

  /** Parents must be queues (or root), and following them must reach root. */
  private void parents(Map<String, Queue> queues) {
    for (Queue q : queues.values()) {
      if (q.parent() != null && !q.parent().text().equals(ROOT) && !queues.containsKey(q.parent().text())) {
        problems.at(q.parent(), "unknown parent queue '" + q.parent().text() + "' "
            + ScenarioValidator.known(names(queues)));
      }
    }
    for (Queue q : queues.values()) {
      Set<String> seen = new LinkedHashSet<>();
      String at = q.name().text();
      while (at != null && seen.add(at)) {
        Queue cur = queues.get(at);
        at = cur == null || cur.parent() == null ? null : cur.parent().text();
      }
      if (at != null && at.equals(q.name().text())) {
        problems.at(q.parent(), "queue cycle: " + String.join(" -> ", seen) + " -> " + at);
      }
    }
  }

  /** A queue's resource list (capability, deserved, guarantee); null when absent or bad. */
  ResourceList resources(Node n) {
    TreeMap<String, Long> out = new TreeMap<>();
    if (n == null) {
      return null;
    }
    if (!(n instanceof MapNode m)) {
      problems.wrongType(n, "a map of resource name to quantity");
      return null;
    }
    for (MapNode.Entry e : m.entries().values()) {
      String r = e.key().text();
      if (!scenario.resourceNames().contains(r)) {
        problems.at(e.key(), "resource '" + r + "' appears nowhere else in the scenario (no node, quota or "
            + "workload has it)");
        continue;
      }
      Long v = Values.quantity(r, e.value(), problems);
      if (v != null) {
        out.put(r, v);
      }
    }
    return new ResourceList(out);
  }

  /** Reports amounts of {@code small} above {@code big} (Volcano's guarantee <= deserved <= capability). */
  void atMost(Node where, ResourceList small, ResourceList big, String bigName) {
    if (small == null || big == null || !(where instanceof MapNode m)) {
      return;
    }
    for (Map.Entry<String, Long> e : small.amounts().entrySet()) {
      if (big.has(e.getKey()) && e.getValue() > big.get(e.getKey())) {
        problems.at(m.entries().get(e.getKey()).value(), "exceeds the queue's " + bigName + " of " + e.getKey()
            + " (Volcano's queue webhook requires guarantee <= deserved <= capability)");
      }
    }
  }

  private static Set<String> names(Map<String, Queue> queues) {
    Set<String> out = new LinkedHashSet<>(queues.keySet());
    out.add(ROOT);
    return out;
  }

  // ------------------------------------------------------------------ LocalQueue → Volcano queue

  /**
   * Every LocalQueue's Volcano queue: its {@code queueFor} entry, else the queue named like the LocalQueue,
   * else the queue named like its ClusterQueue. Reported where the mapping is written, or at the LocalQueue.
   */
  private TreeMap<String, String> queueFor(Fields f, Map<String, Queue> queues, Set<String> created,
      boolean hierarchical) {
    Map<String, Spec.LocalQueue> lqs = new LinkedHashMap<>();
    scenario.localQueues().forEach(lq -> lqs.putIfAbsent(lq.fullName(), lq));
    Map<String, ScalarNode> given = new LinkedHashMap<>();
    Node n = f.get("queueFor");
    if (n instanceof MapNode m) {
      for (MapNode.Entry e : m.entries().values()) {
        ScalarNode target = Values.scalar(e.value(), problems, "a Volcano queue name");
        if (!lqs.containsKey(e.key().text())) {
          problems.at(e.key(), "unknown LocalQueue '" + e.key().text() + "' " + ScenarioValidator.known(lqs.keySet()));
        } else if (target != null && !queues.containsKey(target.text()) && !target.text().equals(DEFAULT_QUEUE)
            && !created.contains(target.text())) { // a queue created mid-run takes workloads from then on
          problems.at(target, "unknown Volcano queue '" + target.text() + "' "
              + ScenarioValidator.known(queues.keySet()));
        } else if (target != null) {
          given.put(e.key().text(), target);
        }
      }
    } else if (n != null) {
      problems.wrongType(n, "a map of LocalQueue to Volcano queue");
    }
    TreeMap<String, String> out = new TreeMap<>();
    for (Spec.LocalQueue lq : lqs.values()) {
      String full = lq.fullName();
      String cq = lq.clusterQueue() == null ? null : lq.clusterQueue().text();
      ScalarNode at = given.get(full);
      String target = at != null ? at.text() : queues.containsKey(full) ? full
          : cq != null && queues.containsKey(cq) ? cq : null;
      if (target == null) {
        if (!hasEntry(f, full)) { // a bad queueFor entry is reported where it is written
          problems.at(lq.name(), "LocalQueue '" + full + "' has no Volcano queue: volcano.queues has none named '"
              + full + "'" + (cq == null ? "" : " or '" + cq + "' (its ClusterQueue)")
              + ", and volcano.queueFor does not map it");
        }
        continue;
      }
      if (hierarchical && !leaf(target, queues)) {
        problems.at(at != null ? at : lq.name(), "Volcano queue '" + target + "' (for LocalQueue '" + full
            + "') has child queues; with hierarchical queues workloads go to leaf queues only");
        continue;
      }
      out.put(full, target);
    }
    return out;
  }

  private static boolean hasEntry(Fields f, String key) {
    return f.get("queueFor") instanceof MapNode m && m.entries().containsKey(key);
  }

  /** With hierarchical queues every queue without a parent is root's child, so root is never a leaf. */
  private static boolean leaf(String name, Map<String, Queue> queues) {
    if (name.equals(ROOT)) {
      return false;
    }
    for (Queue q : queues.values()) {
      if (q.parent() != null && q.parent().text().equals(name)) {
        return false;
      }
    }
    return true;
  }

  // ------------------------------------------------------------------ names the timeline's Volcano actions use

  /** The names {@code createVolcanoQueue} events give, as written (unchecked). */
  private static Set<String> createdQueues(MapNode root) {
    Set<String> out = new LinkedHashSet<>();
    if (root.get("events") instanceof ListNode events) {
      for (Node item : events.items()) {
        if (item instanceof MapNode e && e.get(CREATE_QUEUE) instanceof MapNode c
            && c.get("name") instanceof ScalarNode name) {
          out.add(name.text());
        }
      }
    }
    return out;
  }

  /** Fills the context's Volcano queue names (declared, created, root, default) and hierarchy flag. */
  static void queueNames(MapNode root, ActionContext ctx) {
    if (root.get(VOLCANO) instanceof MapNode block) {
      if (block.get("queues") instanceof ListNode queues) {
        for (Node q : queues.items()) {
          if (q instanceof MapNode m && m.get("name") instanceof ScalarNode name) {
            ctx.volcanoQueues.add(name.text());
          }
        }
      }
      ctx.volcanoHierarchical = block.get("hierarchical") instanceof ScalarNode h && h.text().equals("true");
    }
    ctx.volcanoQueues.addAll(createdQueues(root));
    ctx.volcanoQueues.add(ROOT);
    ctx.volcanoQueues.add(DEFAULT_QUEUE);
  }

  // ------------------------------------------------------------------ what Volcano runs do not support

  /** Under Kueue, Volcano's own actions are reported where they are written. */
  private void volcanoOnly(MapNode root) {
    if (root.get("events") instanceof ListNode events) {
      for (Node item : events.items()) {
        if (item instanceof MapNode e) {
          for (MapNode.Entry x : e.entries().values()) {
            if (VolcanoActions.KEYS.contains(x.key().text())) {
              problems.at(x.key(), x.key().text() + " is a Volcano action: it needs scheduler: volcano");
            }
          }
        }
      }
    }
  }

  private void unsupported(MapNode root) {
    if (root.get("events") instanceof ListNode events) {
      for (Node item : events.items()) {
        if (item instanceof MapNode e) {
          for (MapNode.Entry x : e.entries().values()) {
            String k = x.key().text();
            if (TimelineBinder.ACTION_KEYS.contains(k) && !SUPPORTED_EVENTS.contains(k)) {
              problems.at(x.key(), k + " is not supported under scheduler: volcano (supported: "
                  + String.join(", ", SUPPORTED_EVENTS) + ")");
            }
          }
        }
      }
    }
  }
}
