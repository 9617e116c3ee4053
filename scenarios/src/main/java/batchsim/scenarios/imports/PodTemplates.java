package batchsim.scenarios.imports;

import batchsim.core.model.Quantity;
import batchsim.scenarios.imports.JobTemplateReader.JobTemplate;
import batchsim.scenarios.imports.KubeObjects.KubeObject;
import batchsim.scenarios.yaml.IssueSink;
import batchsim.scenarios.yaml.ListNode;
import batchsim.scenarios.yaml.Location;
import batchsim.scenarios.yaml.MapNode;
import batchsim.scenarios.yaml.Node;
import batchsim.scenarios.yaml.ScalarNode;
import batchsim.scenarios.yaml.YamlTreeReader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What every job kind's reader shares: the header (queue, priority class), a pod set from a pod template
 * (Kubernetes' effective requests, node selector, tolerations, TAS annotations), counts, and the rule for
 * what cannot be modelled (an error when Kueue would manage the object, a warning when it would not).
 */
final class PodTemplates {
  static final String QUEUE_LABEL = "kueue.x-k8s.io/queue-name";
  static final String ELASTIC = "kueue.x-k8s.io/elastic-job";
  private static final String TAS = "kueue.x-k8s.io/podset-";
  private static final Shape TOLERATION = Shape.obj("key", Shape.LEAF, "operator", Shape.LEAF, "value", Shape.LEAF,
      "effect", Shape.LEAF);

  final IssueSink problems;
  final Warnings warnings;
  private final Priorities priorities;

  PodTemplates(IssueSink problems, Warnings warnings, Priorities priorities) {
    this.problems = problems;
    this.warnings = warnings;
    this.priorities = priorities;
  }

  static String namespace(KubeObject o) {
    return o.namespaceOrDefault();
  }

  static boolean queued(KubeObject o) {
    return Tree.get(o.node(), "metadata", "labels", QUEUE_LABEL) != null;
  }

  /** Kueue's workload-slicing opt-in ({@code kueue.x-k8s.io/elastic-job: "true"}, case-sensitive). */
  static boolean elastic(KubeObject o) {
    return "true".equals(Tree.text(o.node(), "metadata", "annotations", ELASTIC));
  }

  /**
   * An object batchsim cannot model: a located error when it carries the queue label (Kueue would manage
   * it), otherwise a warning (Kueue would not either). Returns null so readers can {@code return} it.
   */
  JobTemplate cannot(KubeObject o, Node at, String why) {
    Node where = at == null ? o.node() : at;
    if (queued(o)) {
      problems.report(where.location(), where.path(), o.describe() + ": " + why);
    } else {
      warnings.add(o.kind() + ":unmodelled", where.location(), o.describe() + " (no " + QUEUE_LABEL + " label): " + why
          + "; ignored");
    }
    return null;
  }

  /**
   * {@code queue} and {@code priorityClass} (or {@code priority}) of a job: the queue label in the object's
   * namespace, the priority as {@link Priorities} resolves it. {@code podTemplates} are the job's pod templates (each {@code {metadata, spec}}),
   * for a priority taken from their {@code priorityClassName}.
   */
  Tree.Map_ header(KubeObject o, List<Node> podTemplates) {
    Tree.Map_ t = Tree.map(o.location(), "");
    Node queue = Tree.get(o.node(), "metadata", "labels", QUEUE_LABEL);
    if (queue instanceof ScalarNode q) {
      t.put("queue", Tree.string(q.location(), q.path(), namespace(o) + "/" + q.text()));
    } else {
      warnings.add(o.kind() + ":queue", o.location(), o.describe() + " has no " + QUEUE_LABEL
          + " label, so Kueue would not manage it; give the workload class a queue");
    }
    priorities.apply(o, podTemplates, t);
    return t;
  }

  /**
   * The template of {@code o} with these pod sets (each a {@link #podSet} result or null when it has no
   * pods); pod sets of no pods are left out (Kueue keeps them at count 0: they request nothing).
   */
  JobTemplate template(KubeObject o, List<Tree.Map_> podSets, List<Node> podTemplates) {
    return template(o, o.name(), o.kind(), podSets, podTemplates, null);
  }

  JobTemplate template(KubeObject o, String name, String kind, List<Tree.Map_> podSets, List<Node> podTemplates,
      Integer standing) {
    Tree.Map_ t = header(o, podTemplates);
    List<Node> sets = new ArrayList<>();
    for (Tree.Map_ ps : podSets) {
      MapNode built = ps.build();
      if ("0".equals(Tree.text(built, "count"))) {
        warnings.add(o.kind() + ":empty-podset", built.location(), o.describe() + ": pod set " + Tree.text(built, "name")
            + " has 0 pods; left out (it requests nothing)");
      } else {
        sets.add(built);
      }
    }
    if (sets.isEmpty()) {
      problems.report(o.location(), o.node().path(), o.describe() + " has no pods (every pod set's count is 0)");
    }
    t.put("podSets", Tree.list(o.location(), "podSets", sets));
    return new JobTemplate(name, kind, o, t.build(), standing);
  }

  /** Kueue's count for a Job spec: parallelism (default 1), at most completions. */
  long jobCount(Node jobSpec) {
    long parallelism = number(Tree.get(jobSpec, "parallelism"), 1);
    Node completions = Tree.get(jobSpec, "completions");
    return completions == null ? parallelism : Math.min(parallelism, number(completions, parallelism));
  }

  /** A whole number >= 0 at {@code n}, {@code dflt} when absent; a bad value is a located problem. */
  long number(Node n, long dflt) {
    if (n == null) {
      return dflt;
    }
    try {
      long v = Long.parseLong(((ScalarNode) n).text().trim());
      if (v >= 0) {
        return v;
      }
    } catch (NumberFormatException | ClassCastException e) {
      // reported below
    }
    problems.report(n.location(), n.path(), "expected a whole number >= 0, got " + n.describe());
    return dflt;
  }

  /** A scenario pod set from a pod template ({@code metadata} + {@code spec}). */
  Tree.Map_ podSet(KubeObject o, String name, long count, Node podTemplate, String what) {
    Location at = podTemplate == null ? o.location() : podTemplate.location();
    Tree.Map_ ps = Tree.map(at, "");
    ps.put("name", name, at);
    ps.put("count", Tree.integer(at, "count", count));
    if (podTemplate == null) {
      problems.report(o.location(), o.node().path(), what + " has no pod template");
      return ps;
    }
    MapNode topology = topology(podTemplate, what);
    Node spec = Tree.get(podTemplate, "spec");
    ps.put("requests", requests(spec, at));
    Node selector = Tree.get(spec, "nodeSelector");
    if (selector instanceof MapNode m && !m.entries().isEmpty()) {
      ps.put("nodeSelector", selector);
    }
    List<Node> tolerations = Tree.items(spec, "tolerations");
    if (!tolerations.isEmpty()) {
      ps.put("tolerations", Shape.list(TOLERATION).keep(Tree.get(spec, "tolerations"), "toleration", what, warnings));
    }
    if (topology != null) {
      ps.put("topology", topology);
    }
    for (String k : List.of("affinity", "topologySpreadConstraints", "schedulingGates", "resourceClaims")) {
      Node n = Tree.get(spec, k);
      if (k.equals("schedulingGates") && Tree.items(spec, k).stream()
          .allMatch(g -> String.valueOf(Tree.text(g, "name")).startsWith("kueue.x-k8s.io/"))) {
        continue; // Kueue's own admission gate: what batchsim models as admission
      }
      if (n != null) {
        warnings.at("pod:" + k, n, what + ": spec." + k + " is not modelled by batchsim; ignored");
      }
    }
    return ps;
  }

  /** Kueue's pod set name: the role's name lower-cased (kueue.NewPodSetReference). */
  static String podSetName(String name) {
    return name.toLowerCase(java.util.Locale.ROOT);
  }

  // ---- building pod templates that Kueue derives (synthetic nodes, located at what they stand for) ------

  /** {@code template} with {@code more} containers appended to {@code spec.containers}. */
  static Node withContainers(Node template, List<Node> more) {
    if (more.isEmpty()) {
      return template;
    }
    Node spec = Tree.get(template, "spec");
    List<Node> all = new ArrayList<>(Tree.items(spec, "containers"));
    all.addAll(more);
    Node list = Tree.list(spec == null ? template.location() : spec.location(), "containers", all);
    return with(template, "spec", with(spec == null ? Tree.map(template) : spec, "containers", list));
  }

  /** A copy of map {@code m} (or an empty map at {@code m}) with {@code key} set to {@code value}. */
  static MapNode with(Node m, String key, Node value) {
    Tree.Map_ out = Tree.map(m.location(), m.path());
    Tree.entries(m).forEach((k, e) -> out.put(k, e.value()));
    out.put(key, value);
    return out.build();
  }

  /** A container {@code {name, resources: {requests, limits}}}; amounts are {@code resource, text} pairs in order. */
  static Node container(Node at, String name, List<String> requests, List<String> limits) {
    Tree.Map_ resources = Tree.map(at.location(), "resources");
    resources.put("requests", literal(at, requests));
    resources.put("limits", literal(at, limits));
    return Tree.map(at.location(), at.path()).put("name", name, at.location()).put("resources", resources.build())
        .build();
  }

  private static Node literal(Node at, List<String> amounts) {
    Tree.Map_ m = Tree.map(at.location(), at.path());
    for (int i = 0; i + 1 < amounts.size(); i += 2) {
      m.put(amounts.get(i), amounts.get(i + 1), at.location());
    }
    return m.build();
  }

  // ---- TAS annotations ----------------------------------------------------------------------------------

  /**
   * The pod template's TAS annotations as a scenario {@code topology} block, or null: required / preferred
   * / unconstrained, slice level and size, or the multi-layer constraints (a JSON list of
   * {@code {topology, size}}).
   */
  private MapNode topology(Node podTemplate, String what) {
    Map<String, MapNode.Entry> ann = Tree.entries(podTemplate, "metadata", "annotations");
    Tree.Map_ t = null;
    for (MapNode.Entry e : ann.values()) {
      String k = e.key().text();
      if (!k.startsWith(TAS)) {
        continue;
      }
      t = t == null ? Tree.map(e.key().location(), "topology") : t;
      switch (k.substring(TAS.length())) {
        case "required-topology" -> t.put("required", e.value());
        case "preferred-topology" -> t.put("preferred", e.value());
        case "unconstrained-topology" -> t.put("unconstrained", e.value());
        case "slice-required-topology" -> t.put("sliceLevel", e.value());
        case "slice-size" -> t.put("sliceSize", e.value());
        case "slice-required-topology-constraints" -> t.put("slices", slices(e.value()));
        default -> warnings.at("tas:" + k, e.key(), what + ": " + k + " is not modelled by batchsim; ignored");
      }
    }
    return t == null || t.isEmpty() ? null : t.build();
  }

  /** {@code [{"topology": L, "size": N}, ...]} → {@code [{level: L, size: N}, ...]}, located at the annotation. */
  private Node slices(Node annotation) {
    String json = Tree.text(annotation);
    Node parsed = json == null ? null : YamlTreeReader.read("annotation", json,
        (at, path, m) -> problems.report(annotation.location(), annotation.path(), "not a JSON list: " + m));
    List<Node> layers = new ArrayList<>();
    for (Node l : parsed instanceof ListNode list ? list.items() : List.<Node>of()) {
      layers.add(Tree.map(annotation.location(), annotation.path())
          .put("level", Tree.string(annotation.location(), annotation.path(), String.valueOf(Tree.text(l, "topology"))))
          .put("size", Tree.string(annotation.location(), annotation.path(), String.valueOf(Tree.text(l, "size"))))
          .build());
    }
    return Tree.list(annotation.location(), annotation.path(), layers);
  }

  // ---- requests -----------------------------------------------------------------------------------------

  /** Kubernetes' effective pod requests; each amount is located at its first mention. */
  private MapNode requests(Node spec, Location at) {
    Map<String, Long> sum = new LinkedHashMap<>();
    Map<String, Long> initMax = new LinkedHashMap<>();
    Map<String, Node> where = new LinkedHashMap<>();
    for (Node c : Tree.items(spec, "containers")) {
      add(sum, containerRequests(c, where));
    }
    for (Node c : Tree.items(spec, "initContainers")) {
      Map<String, Long> r = containerRequests(c, where);
      if ("Always".equals(Tree.text(c, "restartPolicy"))) {
        add(sum, r); // a sidecar runs alongside the containers
      } else {
        r.forEach((k, v) -> initMax.merge(k, v, Math::max));
      }
    }
    initMax.forEach((k, v) -> sum.merge(k, v, Math::max));
    add(sum, amounts(Tree.get(spec, "overhead"), where));
    Tree.Map_ out = Tree.map(at, "requests");
    sum.forEach((r, v) -> {
      Node w = where.get(r);
      out.put(r, Tree.string(w.location(), w.path(), Quantities.exact(r, v)));
    });
    return out.build();
  }

  private Map<String, Long> containerRequests(Node c, Map<String, Node> where) {
    Map<String, Long> r = amounts(Tree.get(c, "resources", "requests"), where);
    amounts(Tree.get(c, "resources", "limits"), where).forEach(r::putIfAbsent); // a limit alone is the request
    return r;
  }

  private Map<String, Long> amounts(Node n, Map<String, Node> where) {
    Map<String, Long> out = new LinkedHashMap<>();
    if (n instanceof MapNode m) {
      m.entries().forEach((r, e) -> {
        String text = Tree.text(e.value());
        try {
          out.put(r, Quantity.parse(r, Objects.requireNonNullElse(text, "")));
          where.putIfAbsent(r, e.value());
        } catch (IllegalArgumentException ex) {
          problems.report(e.value().location(), e.value().path(), ex.getMessage());
        }
      });
    }
    return out;
  }

  private static void add(Map<String, Long> into, Map<String, Long> more) {
    more.forEach((k, v) -> into.merge(k, v, Long::sum));
  }
}
