package batchsim.scenarios.conformance.volcano;

import batchsim.core.model.Quantity;
import batchsim.core.model.ResourceSpace;
import batchsim.core.model.Resources;
import batchsim.core.model.Taint;
import batchsim.core.volcano.ExtensionPoint;
import batchsim.core.volcano.PluginSpec;
import batchsim.core.volcano.PodGroupPhase;
import batchsim.core.volcano.PodGroupSpec;
import batchsim.core.volcano.PodSpec;
import batchsim.core.volcano.QueueState;
import batchsim.core.volcano.ResourceList;
import batchsim.core.volcano.VolcanoConfig;
import batchsim.core.volcano.VolcanoEngine;
import batchsim.core.volcano.VolcanoNodeSpec;
import batchsim.core.volcano.VolcanoQueueSpec;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns a case document into a Volcano engine: the resource names it mentions, the scheduler tier, nodes,
 * queues, PodGroups and pods, following the conventions at the top of volcano-cases.yaml.
 */
final class CaseSetup {
  static final Set<String> PLUGINS = Set.of("capacity", "proportion", "gang", "priority", "drf", "predicates",
      "nodeorder", "overcommit", "conformance", "test-rejecter");
  /** A node's keys that are not resources; every other key of a node is a capacity. */
  static final Set<String> NODE_KEYS = Set.of("name", "labels", "taints", "ready", "unschedulable");
  private static final Pattern REJECT = Pattern.compile("Reject for PodGroup named ([^\\s,.;]+)");

  private final JsonNode spec;
  final ResourceSpace resources;

  CaseSetup(JsonNode spec) {
    this.spec = spec;
    this.resources = resourceSpace(spec);
  }

  // ------------------------------------------------------------------ resources

  private static ResourceSpace resourceSpace(JsonNode spec) {
    Set<String> names = new LinkedHashSet<>(List.of(ResourceSpace.CPU, ResourceSpace.MEMORY, ResourceSpace.PODS));
    for (JsonNode n : spec.path("nodes")) {
      n.fieldNames().forEachRemaining(k -> {
        if (!NODE_KEYS.contains(k)) {
          names.add(k);
        }
      });
    }
    collect(spec, names);
    for (JsonNode step : spec.path("timeline")) {
      collect(step, names);
    }
    return ResourceSpace.of(new ArrayList<>(names));
  }

  private static void collect(JsonNode doc, Set<String> names) {
    for (String list : List.of("pods", "add_pods")) {
      for (JsonNode p : doc.path(list)) {
        p.path("request").fieldNames().forEachRemaining(names::add);
      }
    }
    for (JsonNode q : doc.path("queues")) {
      for (String k : List.of("capability", "deserved", "guarantee")) {
        q.path(k).fieldNames().forEachRemaining(names::add);
      }
    }
    for (String list : List.of("podgroups", "add_podgroups")) {
      for (JsonNode g : doc.path(list)) {
        g.path("minResources").fieldNames().forEachRemaining(names::add);
      }
    }
  }

  private static long amount(String resource, JsonNode v) {
    if (v == null || v.isNull()) {
      throw UnsupportedCase.invalid("resource " + resource + " has no amount");
    }
    try {
      return Quantity.parse(resource, v.asText());
    } catch (IllegalArgumentException e) {
      throw UnsupportedCase.invalid(resource + ": " + e.getMessage());
    }
  }

  private static ResourceList list(JsonNode m) {
    if (m == null || m.isMissingNode() || m.isNull()) {
      return null;
    }
    TreeMap<String, Long> out = new TreeMap<>();
    m.fields().forEachRemaining(e -> out.put(e.getKey(), amount(e.getKey(), e.getValue())));
    return new ResourceList(out);
  }

  private Resources vector(JsonNode m, Set<String> skip) {
    long[] v = new long[resources.size()];
    for (Iterator<Map.Entry<String, JsonNode>> it = m.fields(); it.hasNext();) {
      Map.Entry<String, JsonNode> e = it.next();
      if (skip.contains(e.getKey())) {
        continue;
      }
      v[resources.require(e.getKey())] = amount(e.getKey(), e.getValue());
    }
    return Resources.wrap(v);
  }

  // ------------------------------------------------------------------ scheduler

  /** The scheduler tier; {@code LEVEL}-style placeholders in arguments take the case's value of that key. */
  List<PluginSpec> plugins() {
    List<PluginSpec> out = new ArrayList<>();
    for (JsonNode p : spec.path("scheduler").path("plugins")) {
      String name = p.path("name").asText();
      if (!PLUGINS.contains(name)) {
        throw UnsupportedCase.unsupported("plugin '" + name + "' is not modelled");
      }
      EnumSet<ExtensionPoint> enabled = EnumSet.noneOf(ExtensionPoint.class);
      for (JsonNode e : p.path("enabled")) {
        try {
          enabled.add(ExtensionPoint.parse(e.asText()));
        } catch (IllegalArgumentException ex) {
          throw UnsupportedCase.unsupported("extension point '" + e.asText() + "' is not modelled");
        }
      }
      TreeMap<String, String> args = new TreeMap<>();
      p.path("args").fields().forEachRemaining(a -> {
        String value = a.getValue().asText();
        if (value.matches("[A-Z][A-Z_0-9]*") && spec.has(value)) {
          value = spec.get(value).asText();
        }
        args.put(a.getKey(), value);
      });
      if (name.equals("test-rejecter") && !args.containsKey("rejectJob")) {
        Matcher m = REJECT.matcher(p.path("behaviour").asText());
        if (!m.find()) {
          throw UnsupportedCase.unsupported("test-rejecter without a PodGroup to reject");
        }
        args.put("rejectJob", m.group(1));
      }
      out.add(new PluginSpec(name, enabled, p.path("hierarchy").asBoolean(false), args));
    }
    return out;
  }

  List<String> actions(JsonNode actions) {
    List<String> out = new ArrayList<>();
    for (JsonNode a : actions) {
      String name = a.asText();
      if (!VolcanoConfig.KNOWN_ACTIONS.contains(name)) {
        throw UnsupportedCase.unsupported("action '" + name + "' is not modelled");
      }
      out.add(name);
    }
    return out;
  }

  /** {@code configured_actions} when the case gives it, else the actions run. */
  Set<String> configured(List<String> actions) {
    if (!spec.has("configured_actions")) {
      return Set.copyOf(actions);
    }
    return Set.copyOf(actions(spec.get("configured_actions")));
  }

  // ------------------------------------------------------------------ objects

  VolcanoEngine engine(VolcanoConfig config) {
    List<VolcanoNodeSpec> nodes = new ArrayList<>();
    for (JsonNode n : spec.path("nodes")) {
      TreeMap<String, String> labels = new TreeMap<>();
      n.path("labels").fields().forEachRemaining(e -> labels.put(e.getKey(), e.getValue().asText()));
      nodes.add(new VolcanoNodeSpec(n.path("name").asText(), labels, taints(n), vector(n, NODE_KEYS)));
    }
    List<VolcanoQueueSpec> queues = new ArrayList<>();
    for (JsonNode q : spec.path("queues")) {
      String parent = q.hasNonNull("parent") ? q.get("parent").asText() : null;
      queues.add(new VolcanoQueueSpec(q.path("name").asText(), parent, q.path("weight").asInt(1),
          list(q.get("capability")), list(q.get("deserved")), list(q.get("guarantee")), q.path("priority").asInt(0),
          q.path("reclaimable").asBoolean(true),
          q.hasNonNull("state") ? QueueState.parse(q.get("state").asText()) : QueueState.OPEN));
    }
    VolcanoEngine e = new VolcanoEngine(resources, config, queues, nodes, () -> 0L).checked(true);
    addObjects(e, spec.path("podgroups"), spec.path("pods"));
    return e;
  }

  /**
   * A node's taints, plus the ones kube puts on it by condition. Volcano keeps a NotReady node in the session
   * (node_info.go setNodeState ignores node conditions "because of taint/toleration"); what keeps pods off it
   * is the node lifecycle controller's not-ready:NoSchedule taint, seen by the predicates plugin's
   * TaintToleration filter. An unschedulable node is refused by the predicates' NodeUnschedulable filter,
   * which honours exactly a toleration of the unschedulable:NoSchedule taint. Without the predicates plugin
   * Volcano places pods on such nodes, and so does the engine.
   */
  private static List<Taint> taints(JsonNode n) {
    List<Taint> out = new ArrayList<>();
    for (JsonNode t : n.path("taints")) {
      if (!t.hasNonNull("key")) {
        throw UnsupportedCase.invalid("node " + n.path("name").asText() + ": a taint needs a key");
      }
      out.add(new Taint(t.get("key").asText(), t.path("value").asText(""), t.path("effect").asText("NoSchedule")));
    }
    if (!flag(n, "ready", true)) {
      out.add(Taint.NOT_READY);
    }
    if (flag(n, "unschedulable", false)) {
      out.add(Taint.UNSCHEDULABLE);
    }
    return out;
  }

  private static boolean flag(JsonNode n, String key, boolean dflt) {
    JsonNode v = n.get(key);
    if (v == null || v.isNull()) {
      return dflt;
    }
    if (!v.isBoolean()) {
      throw UnsupportedCase.invalid("node " + n.path("name").asText() + ": " + key + " must be true or false, got " + v);
    }
    return v.booleanValue();
  }

  void addObjects(VolcanoEngine e, JsonNode podgroups, JsonNode pods) {
    for (JsonNode g : podgroups) {
      TreeMap<String, Integer> roles = new TreeMap<>();
      g.path("minTaskMember").fields().forEachRemaining(r -> roles.put(r.getKey(), r.getValue().asInt()));
      PodGroupPhase phase = g.hasNonNull("phase") ? PodGroupPhase.parse(g.get("phase").asText()) : PodGroupPhase.PENDING;
      e.addPodGroup(new PodGroupSpec(g.path("id").asText(), g.path("queue").asText("default"),
          g.path("minMember").asInt(0), roles, list(g.get("minResources")), g.path("priority").asInt(0), 0), phase);
    }
    for (JsonNode p : pods) {
      String id = p.path("id").asText();
      int slash = id.indexOf('/');
      String ns = slash < 0 ? "" : id.substring(0, slash);
      String pg = ns.isEmpty() ? p.path("pg").asText() : ns + "/" + p.path("pg").asText();
      TreeMap<String, String> selector = new TreeMap<>();
      p.path("nodeSelector").fields().forEachRemaining(s -> selector.put(s.getKey(), s.getValue().asText()));
      PodSpec ps = new PodSpec(id, pg, p.path("role").asText(""), vector(p.path("request"), Set.of()),
          p.hasNonNull("priority") ? p.get("priority").asInt() : null, p.path("preemptable").asBoolean(true), selector,
          null, 0);
      String node = p.hasNonNull("node") ? p.get("node").asText() : null;
      String phase = p.path("phase").asText(node == null ? "Pending" : "Running");
      if (node == null) {
        if (!phase.equals("Pending")) {
          throw UnsupportedCase.unsupported("pod " + id + ": phase " + phase + " without a node is not modelled");
        }
        e.addPod(ps);
      } else {
        if (!phase.equals("Running")) {
          throw UnsupportedCase.unsupported("pod " + id + ": phase " + phase + " on a node is not modelled");
        }
        e.addRunningPod(ps, node);
      }
    }
  }
}
