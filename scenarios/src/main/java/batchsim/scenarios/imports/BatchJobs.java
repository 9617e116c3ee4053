package batchsim.scenarios.imports;

import batchsim.scenarios.imports.JobTemplateReader.JobTemplate;
import batchsim.scenarios.imports.KubeObjects.KubeObject;
import batchsim.scenarios.yaml.ListNode;
import batchsim.scenarios.yaml.MapNode;
import batchsim.scenarios.yaml.Node;
import batchsim.scenarios.yaml.ScalarNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** batch/v1 Job, JobSet and plain Pods (alone or in a pod group), as Kueue's job, jobset and pod integrations. */
final class BatchJobs {
  static final String GROUP_LABEL = "kueue.x-k8s.io/pod-group-name";
  static final String GROUP_COUNT = "kueue.x-k8s.io/pod-group-total-count";
  static final String ROLE_HASH = "kueue.x-k8s.io/role-hash";
  static final String MIN_PARALLELISM = "kueue.x-k8s.io/job-min-parallelism";

  private final PodTemplates p;

  BatchJobs(PodTemplates p) {
    this.p = p;
  }

  /** Kueue (job.PodSets): one pod set {@code main} of min(parallelism, completions), minCount from the annotation. */
  JobTemplate job(KubeObject o) {
    Node spec = Tree.get(o.node(), "spec");
    Node template = Tree.get(spec, "template");
    Tree.Map_ ps = p.podSet(o, "main", p.jobCount(spec), template, "Job " + o.name());
    Node min = Tree.get(o.node(), "metadata", "annotations", MIN_PARALLELISM);
    if (min != null) {
      ps.put("minCount", min); // Kueue: partial admission down to this many pods
    }
    return p.template(o, List.of(ps), list(template));
  }

  /** Kueue (jobset.PodSets): one pod set per replicated job, its name lower-cased, replicas × pods per Job. */
  JobTemplate jobSet(KubeObject o) {
    List<Node> jobs = Tree.items(o.node(), "spec", "replicatedJobs");
    if (jobs.isEmpty()) {
      return p.cannot(o, Tree.get(o.node(), "spec"), "JobSet " + o.name() + " has no spec.replicatedJobs");
    }
    return p.template(o, replicatedJobs(o, jobs, "JobSet " + o.name()), templates(jobs));
  }

  /** Pod sets of JobSet replicated jobs (also a TrainJob's runtime after its overrides). */
  List<Tree.Map_> replicatedJobs(KubeObject o, List<Node> jobs, String what) {
    List<Tree.Map_> sets = new ArrayList<>();
    for (Node rj : jobs) {
      String name = Tree.text(rj, "name");
      Node jobSpec = Tree.get(rj, "template", "spec");
      long replicas = p.number(Tree.get(rj, "replicas"), 1);
      sets.add(p.podSet(o, PodTemplates.podSetName(name == null ? "main" : name), replicas * p.jobCount(jobSpec),
          Tree.get(jobSpec, "template"), what));
    }
    return sets;
  }

  static List<Node> templates(List<Node> replicatedJobs) {
    List<Node> out = new ArrayList<>();
    replicatedJobs.forEach(rj -> out.addAll(list(Tree.get(rj, "template", "spec", "template"))));
    return out;
  }

  static List<Node> list(Node n) {
    return n == null ? List.of() : List.of(n);
  }

  /**
   * Pods of one group (or one lone pod). Kueue (pod.constructGroupPodSets): one pod set per role, the pods
   * with the same {@code kueue.x-k8s.io/role-hash} annotation (or, without it, the same requests, node
   * selector and tolerations), named by that annotation, else by the role's first pod (Kueue's name is a
   * hash of the pod spec); a lone pod is one pod set {@code main}. Failed pods are left out, as in Kueue.
   */
  JobTemplate podGroup(List<KubeObject> pods, String name) {
    KubeObject first = pods.get(0);
    List<Node> templates = new ArrayList<>();
    List<Tree.Map_> sets = podSetsByRole(pods, templates);
    String total = Tree.text(first.node(), "metadata", "annotations", GROUP_COUNT);
    if (total != null && !total.equals(Integer.toString(pods.size()))) {
      p.warnings.add("Pod:" + GROUP_COUNT, first.location(), "pod group " + name + " says " + GROUP_COUNT + ": "
          + total + " but the input has " + pods.size() + " of its pods; using those");
    }
    String kind = pods.size() == 1 && total == null ? "Pod" : "pod group";
    return p.template(first, name, kind, sets, templates, null);
  }

  /**
   * The pod sets of a group of pods, one per role as {@link #podGroup} says; the pods that count are added
   * to {@code templates}.
   */
  List<Tree.Map_> podSetsByRole(List<KubeObject> pods, List<Node> templates) {
    Map<MapNode, Integer> counts = new LinkedHashMap<>();
    Map<MapNode, String> names = new LinkedHashMap<>();
    Map<List<Object>, MapNode> byRole = new LinkedHashMap<>();
    java.util.Set<MapNode> hashed = new java.util.HashSet<>();
    for (KubeObject pod : pods) {
      if (pods.size() > 1 && "Failed".equals(Tree.text(pod.node(), "status", "phase"))) {
        continue; // Kueue: only runnable or succeeded pods count
      }
      templates.add(pod.node());
      MapNode built = p.podSet(pod, pod.name(), 1L, pod.node(), "Pod " + pod.name()).build();
      String hash = Tree.text(pod.node(), "metadata", "annotations", ROLE_HASH);
      List<Object> role = hash != null ? List.of(hash) : shapeKey(built);
      MapNode canonical = byRole.computeIfAbsent(role, k -> built);
      counts.merge(canonical, 1, Integer::sum);
      names.putIfAbsent(canonical, hash != null ? hash : pod.name());
      if (hash != null) {
        hashed.add(canonical);
      }
    }
    List<Tree.Map_> sets = new ArrayList<>();
    counts.forEach((ps, n) -> {
      Tree.Map_ out = Tree.map(ps.location(), ps.path());
      ps.entries().forEach((k, e) -> out.put(k, k.equals("name") ? Tree.string(e.value().location(), e.value().path(),
          hashed.contains(ps) ? names.get(ps) : counts.size() == 1 ? "main" : names.get(ps))
          : k.equals("count") ? Tree.integer(e.value().location(), e.value().path(), n) : e.value()));
      sets.add(out);
    });
    return sets;
  }

  /** What makes two pods the same role without a role hash: requests, node selector, tolerations. */
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
    if (n instanceof ListNode l) {
      return l.items().stream().map(BatchJobs::flatten).toList();
    }
    return n == null ? null : ((ScalarNode) n).text();
  }
}
