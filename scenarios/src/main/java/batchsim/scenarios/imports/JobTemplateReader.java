package batchsim.scenarios.imports;

import batchsim.core.model.Quantity;
import batchsim.scenarios.imports.KubeObjects.KubeObject;
import batchsim.scenarios.yaml.IssueSink;
import batchsim.scenarios.yaml.Location;
import batchsim.scenarios.yaml.MapNode;
import batchsim.scenarios.yaml.Node;
import batchsim.scenarios.yaml.ScalarNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Workload templates from the manifests users submit to Kueue: a batch/v1 Job, a JobSet, or a plain Pod
 * group (pods labelled {@code kueue.x-k8s.io/pod-group-name}). Each becomes a scenario-shaped map
 * {@code {queue, priorityClass, podSets}} the way Kueue builds a Workload from it:
 * <ul>
 *   <li>Job: one pod set {@code main} of min(parallelism, completions) pods, {@code minCount} from
 *       {@code kueue.x-k8s.io/job-min-parallelism};
 *   <li>JobSet: one pod set per replicated job, replicas × min(parallelism, completions) pods;
 *   <li>Pod group: one pod set per distinct pod shape, as many pods as have it.
 * </ul>
 * A pod's requests are those of Kubernetes: the containers' requests (limits where a request is missing)
 * plus sidecars, at least the largest init container, plus overhead. The queue is the
 * {@code kueue.x-k8s.io/queue-name} label in the object's namespace ({@code default} when none), the
 * priority class the {@code kueue.x-k8s.io/priority-class} label. The pod template's TAS annotations
 * ({@code kueue.x-k8s.io/podset-*-topology}, slice size and multi-layer constraints) become the pod set's
 * {@code topology}; leader/worker groups, affinity and spread constraints are not modelled and are warned
 * about.
 */
public final class JobTemplateReader {
  static final String QUEUE_LABEL = "kueue.x-k8s.io/queue-name";
  static final String PRIORITY_LABEL = "kueue.x-k8s.io/priority-class";
  static final String GROUP_LABEL = "kueue.x-k8s.io/pod-group-name";
  static final String GROUP_COUNT = "kueue.x-k8s.io/pod-group-total-count";
  static final String MIN_PARALLELISM = "kueue.x-k8s.io/job-min-parallelism";
  private static final String TAS = "kueue.x-k8s.io/podset-";
  private static final Shape TOLERATION = Shape.obj("key", Shape.LEAF, "operator", Shape.LEAF, "value", Shape.LEAF,
      "effect", Shape.LEAF);

  private final IssueSink problems;
  private final Warnings warnings;

  private JobTemplateReader(IssueSink problems, Warnings warnings) {
    this.problems = problems;
    this.warnings = warnings;
  }

  /**
   * One workload template: {@code name} as the manifest names it, {@code template} the scenario map, and
   * the object (the first pod of a group) it came from.
   */
  public record JobTemplate(String name, String kind, KubeObject source, MapNode template) {}

  public static boolean handles(KubeObject o) {
    return o.kind().equals("Job") && o.group().equals("batch")
        || o.kind().equals("JobSet") && o.group().equals("jobset.x-k8s.io")
        || o.kind().equals("Pod") && o.group().isEmpty();
  }

  /** The templates among {@code objects}, in order (a pod group where its first pod is). */
  public static List<JobTemplate> read(List<KubeObject> objects, IssueSink problems, Warnings warnings) {
    JobTemplateReader r = new JobTemplateReader(problems, warnings);
    List<JobTemplate> out = new ArrayList<>();
    Map<String, List<KubeObject>> groups = new LinkedHashMap<>();
    for (KubeObject o : objects) {
      if (!handles(o)) {
        continue;
      }
      switch (o.kind()) {
        case "Job" -> out.add(r.job(o));
        case "JobSet" -> out.add(r.jobSet(o));
        default -> {
          String group = Tree.text(o.node(), "metadata", "labels", GROUP_LABEL);
          if (group == null) {
            out.add(r.podGroup(List.of(o), o.name()));
          } else {
            String key = namespace(o) + "/" + group;
            if (!groups.containsKey(key)) {
              out.add(null); // placeholder keeps the group where its first pod is
              groups.put(key, new ArrayList<>());
            }
            groups.get(key).add(o);
          }
        }
      }
    }
    List<JobTemplate> result = new ArrayList<>();
    var it = groups.entrySet().iterator();
    for (JobTemplate t : out) {
      if (t != null) {
        result.add(t);
      } else {
        var g = it.next();
        result.add(r.podGroup(g.getValue(), g.getKey().substring(g.getKey().indexOf('/') + 1)));
      }
    }
    return result;
  }

  private static String namespace(KubeObject o) {
    return o.namespace() == null ? "default" : o.namespace();
  }

  private JobTemplate job(KubeObject o) {
    Node spec = Tree.get(o.node(), "spec");
    Tree.Map_ t = header(o, o.node());
    Tree.Map_ ps = podSet(o, "main", count(o, spec, 1), Tree.get(spec, "template"), "Job " + o.name());
    Node min = Tree.get(o.node(), "metadata", "annotations", MIN_PARALLELISM);
    if (min != null) {
      ps.put("minCount", min); // Kueue: partial admission down to this many pods
    }
    t.put("podSets", Tree.list(o.location(), "podSets", List.of(ps.build())));
    return new JobTemplate(o.name(), o.kind(), o, t.build());
  }

  private JobTemplate jobSet(KubeObject o) {
    Tree.Map_ t = header(o, o.node());
    List<Node> sets = new ArrayList<>();
    for (Node rj : Tree.items(o.node(), "spec", "replicatedJobs")) {
      String name = Tree.text(rj, "name");
      Node jobSpec = Tree.get(rj, "template", "spec");
      long replicas = number(Tree.get(rj, "replicas"), 1);
      Long perJob = count(o, jobSpec, 1);
      sets.add(podSet(o, name == null ? "main" : name, perJob == null ? null : replicas * perJob,
          Tree.get(jobSpec, "template"), "JobSet " + o.name()).build());
    }
    if (sets.isEmpty()) {
      problems.report(o.location(), o.node().path(), "JobSet " + o.name() + " has no spec.replicatedJobs");
    }
    t.put("podSets", Tree.list(o.location(), "podSets", sets));
    return new JobTemplate(o.name(), o.kind(), o, t.build());
  }

  /** Pods of one group (or one lone pod); pods with the same shape form one pod set. */
  private JobTemplate podGroup(List<KubeObject> pods, String name) {
    KubeObject first = pods.get(0);
    Tree.Map_ t = header(first, first.node());
    List<Node> sets = podSetsByShape(pods);
    String total = Tree.text(first.node(), "metadata", "annotations", GROUP_COUNT);
    if (total != null && !total.equals(Integer.toString(pods.size()))) {
      warnings.add("Pod:" + GROUP_COUNT, first.location(), "pod group " + name + " says " + GROUP_COUNT + ": "
          + total + " but the input has " + pods.size() + " of its pods; using those");
    }
    t.put("podSets", Tree.list(first.location(), "podSets", sets));
    return new JobTemplate(name, pods.size() == 1 && total == null ? "Pod" : "pod group", first, t.build());
  }

  /** A pod set from a pod template, for the readers of other job kinds (Volcano's). */
  static MapNode podSet(KubeObject o, String name, long count, Node podTemplate, String what, IssueSink problems,
      Warnings warnings) {
    return new JobTemplateReader(problems, warnings).podSet(o, name, count, podTemplate, what).build();
  }

  /** One pod set per distinct pod shape among {@code pods}, for the readers of other pod groups (Volcano's). */
  static List<Node> podSets(List<KubeObject> pods, IssueSink problems, Warnings warnings) {
    return new JobTemplateReader(problems, warnings).podSetsByShape(pods);
  }

  private List<Node> podSetsByShape(List<KubeObject> pods) {
    Map<MapNode, Integer> counts = new LinkedHashMap<>();
    Map<MapNode, String> names = new LinkedHashMap<>();
    Map<List<Object>, MapNode> byShape = new LinkedHashMap<>();
    for (KubeObject p : pods) {
      Tree.Map_ ps = podSet(p, p.name(), 1L, p.node(), "Pod " + p.name());
      MapNode built = ps.build();
      List<Object> shape = shapeKey(built);
      MapNode canonical = byShape.computeIfAbsent(shape, k -> built);
      counts.merge(canonical, 1, Integer::sum);
      names.putIfAbsent(canonical, p.name());
    }
    List<Node> sets = new ArrayList<>();
    counts.forEach((ps, n) -> {
      Tree.Map_ out = Tree.map(ps.location(), ps.path());
      ps.entries().forEach((k, e) -> out.put(k, k.equals("name") ? Tree.string(e.value().location(), e.value().path(),
          counts.size() == 1 ? "main" : names.get(ps)) : k.equals("count") ? Tree.integer(e.value().location(),
          e.value().path(), n) : e.value()));
      sets.add(out.build());
    });
    return sets;
  }

  /** What makes two pods the same role: requests, node selector, tolerations. */
  private static List<Object> shapeKey(MapNode ps) {
    List<Object> key = new ArrayList<>();
    for (String k : List.of("requests", "nodeSelector", "tolerations")) {
      key.add(flatten(ps.get(k)));
    }
    return key;
  }

  private static Object flatten(Node n) {
    if (n instanceof MapNode m) {
      Map<String, Object> out = new LinkedHashMap<>();
      m.entries().forEach((k, e) -> out.put(k, flatten(e.value())));
      return out;
    }
    if (n instanceof batchsim.scenarios.yaml.ListNode l) {
      return l.items().stream().map(JobTemplateReader::flatten).toList();
    }
    return n == null ? null : ((ScalarNode) n).text();
  }

  /** {@code queue} and {@code priorityClass} from the object's labels. */
  private Tree.Map_ header(KubeObject o, Node object) {
    Tree.Map_ t = Tree.map(o.location(), "");
    Node queue = Tree.get(object, "metadata", "labels", QUEUE_LABEL);
    if (queue instanceof ScalarNode q) {
      t.put("queue", Tree.string(q.location(), q.path(), namespace(o) + "/" + q.text()));
    } else {
      warnings.add(o.kind() + ":queue", o.location(), o.describe() + " has no " + QUEUE_LABEL
          + " label, so Kueue would not manage it; give the workload class a queue");
    }
    Node priority = Tree.get(object, "metadata", "labels", PRIORITY_LABEL);
    if (priority != null) {
      t.put("priorityClass", priority);
    }
    return t;
  }

  /** Kueue's count for a Job spec: parallelism (default 1), at most completions. */
  private Long count(KubeObject o, Node jobSpec, long dflt) {
    long parallelism = number(Tree.get(jobSpec, "parallelism"), dflt);
    Node completions = Tree.get(jobSpec, "completions");
    return completions == null ? parallelism : Math.min(parallelism, number(completions, parallelism));
  }

  private long number(Node n, long dflt) {
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
  private Tree.Map_ podSet(KubeObject o, String name, Long count, Node podTemplate, String what) {
    Location at = podTemplate == null ? o.location() : podTemplate.location();
    Tree.Map_ ps = Tree.map(at, "");
    ps.put("name", name, at);
    ps.put("count", Tree.integer(at, "count", count == null ? 1 : count));
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
      if (n != null) {
        warnings.at("pod:" + k, n, what + ": spec." + k + " is not modelled by batchsim; ignored");
      }
    }
    return ps;
  }

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
    Node parsed = json == null ? null : batchsim.scenarios.yaml.YamlTreeReader.read("annotation", json,
        (at, path, m) -> problems.report(annotation.location(), annotation.path(), "not a JSON list: " + m));
    List<Node> layers = new ArrayList<>();
    for (Node l : parsed instanceof batchsim.scenarios.yaml.ListNode list ? list.items() : List.<Node>of()) {
      layers.add(Tree.map(annotation.location(), annotation.path())
          .put("level", Tree.string(annotation.location(), annotation.path(), String.valueOf(Tree.text(l, "topology"))))
          .put("size", Tree.string(annotation.location(), annotation.path(), String.valueOf(Tree.text(l, "size"))))
          .build());
    }
    return Tree.list(annotation.location(), annotation.path(), layers);
  }

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
