package batchsim.scenarios.imports;

import batchsim.scenarios.imports.JobTemplateReader.JobTemplate;
import batchsim.scenarios.imports.KubeObjects.KubeObject;
import batchsim.scenarios.yaml.Node;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * KubeRay's RayCluster, RayJob and RayService (ray.io/v1). Kueue (raycluster.BuildPodSets): pod set
 * {@code head} of 1 pod, then one per worker group named by its groupName lower-cased, of replicas
 * (default 1) × numOfHosts pods. The head pod also gets what KubeRay adds to it at run time: the
 * autoscaler sidecar when in-tree autoscaling is on, at least 200m CPU / 256Mi for the Redis clean-up
 * with GCS fault tolerance; a RayJob adds its submitter.
 */
final class RayJobs {
  private static final String FT_ANNOTATION = "ray.io/ft-enabled";

  private final PodTemplates p;

  RayJobs(PodTemplates p) {
    this.p = p;
  }

  JobTemplate rayCluster(KubeObject o) {
    Node spec = Tree.get(o.node(), "spec");
    return spec == null ? p.cannot(o, null, "RayCluster " + o.name() + " has no spec") : cluster(o, spec, null);
  }

  /** Kueue (rayservice.PodSets): the cluster of spec.rayClusterConfig. */
  JobTemplate rayService(KubeObject o) {
    Node spec = Tree.get(o.node(), "spec", "rayClusterConfig");
    return spec == null ? p.cannot(o, Tree.get(o.node(), "spec"), "RayService " + o.name()
        + " has no spec.rayClusterConfig") : cluster(o, spec, null);
  }

  /**
   * Kueue (rayjob.PodSets and its webhook): the cluster of spec.rayClusterSpec; in K8sJobMode (the default)
   * a pod set {@code submitter} of 1 pod (spec.submitterPodTemplate, else KubeRay's default submitter:
   * 500m CPU / 200Mi), in SidecarMode that submitter container added to the head pod, none in HTTPMode and
   * InteractiveMode. A RayJob that uses an existing cluster (clusterSelector) is not Kueue's.
   */
  JobTemplate rayJob(KubeObject o) {
    Node spec = Tree.get(o.node(), "spec");
    Node clusterSpec = Tree.get(spec, "rayClusterSpec");
    boolean selector = !Tree.entries(spec, "clusterSelector").isEmpty();
    if (selector && clusterSpec != null) {
      return p.cannot(o, Tree.get(spec, "clusterSelector"), "a RayJob managed by Kueue may not use an existing cluster "
          + "(clusterSelector) and rayClusterSpec together; Kueue's webhook refuses it");
    }
    if (selector) {
      p.warnings.add("RayJob:clusterSelector", o.location(), o.describe() + " runs on an existing cluster "
          + "(clusterSelector): Kueue does not manage it; ignored");
      return null;
    }
    if (clusterSpec == null) {
      return p.cannot(o, spec, "RayJob " + o.name() + " has no spec.rayClusterSpec (Kueue requires one)");
    }
    if (PodTemplates.queued(o) && !"true".equals(Tree.text(spec, "shutdownAfterJobFinishes"))) {
      return p.cannot(o, spec, "spec.shutdownAfterJobFinishes must be true for a RayJob managed by Kueue (its "
          + "webhook refuses it otherwise: the cluster would hold the queue's quota after the job)");
    }
    String mode = Tree.text(spec, "submissionMode");
    mode = mode == null ? "K8sJobMode" : mode;
    Node submitter = Tree.get(spec, "submitterPodTemplate");
    Node at = Tree.get(spec, "submissionMode") != null ? Tree.get(spec, "submissionMode") : spec;
    Node sidecar = mode.equals("SidecarMode") ? defaultSubmitter(at) : null;
    Node job = mode.equals("K8sJobMode")
        ? submitter != null ? submitter : Tree.map(at.location(), at.path()).put("spec", Tree.map(at.location(),
            at.path()).put("containers", Tree.list(at.location(), at.path(), List.of(defaultSubmitter(at)))).build()).build()
        : null;
    return cluster(o, clusterSpec, new Extra(sidecar, job));
  }

  /** What a RayJob adds: a submitter container in the head pod, or a submitter pod template. */
  private record Extra(Node headContainer, Node submitterTemplate) {}

  /** KubeRay's default submitter container: requests 500m CPU / 200Mi, limits 1 CPU / 1Gi. */
  private static Node defaultSubmitter(Node at) {
    return PodTemplates.container(at, "ray-job-submitter", List.of("cpu", "500m", "memory", "200Mi"),
        List.of("cpu", "1", "memory", "1Gi"));
  }

  private JobTemplate cluster(KubeObject o, Node spec, Extra extra) {
    String what = o.kind() + " " + o.name();
    if ("true".equals(Tree.text(spec, "enableInTreeAutoscaling"))) {
      if (!PodTemplates.elastic(o)) {
        return p.cannot(o, Tree.get(spec, "enableInTreeAutoscaling"), "in-tree autoscaling needs Kueue's workload "
            + "slicing (annotation " + PodTemplates.ELASTIC + ": \"true\"); Kueue's webhook refuses it otherwise");
      }
      p.warnings.at(o.kind() + ":autoscaling", Tree.get(spec, "enableInTreeAutoscaling"), o.describe()
          + ": autoscaling is not modelled by batchsim; the worker groups keep their current replicas");
    }
    Node headGroup = Tree.get(spec, "headGroupSpec");
    Node head = Tree.get(headGroup, "template");
    if (head == null) {
      return p.cannot(o, spec, what + " has no headGroupSpec.template");
    }
    head = headTemplate(o, spec, head, extra);
    List<Tree.Map_> sets = new ArrayList<>();
    List<Node> templates = new ArrayList<>(List.of(head));
    sets.add(p.podSet(o, "head", 1, head, what + " head"));
    for (Node wg : Tree.items(spec, "workerGroupSpecs")) {
      String group = Tree.text(wg, "groupName");
      if (group == null || group.equals("head")) {
        return p.cannot(o, wg, "a worker group needs a groupName other than \"head\" (Kueue's webhook refuses it)");
      }
      long replicas = p.number(Tree.get(wg, "replicas"), 1);
      long hosts = p.number(Tree.get(wg, "numOfHosts"), 1);
      Node template = Tree.get(wg, "template");
      templates.addAll(BatchJobs.list(template));
      sets.add(p.podSet(o, PodTemplates.podSetName(group), hosts > 1 ? replicas * hosts : replicas, template,
          what + " worker group " + group));
    }
    if (extra != null && extra.submitterTemplate() != null) {
      templates.add(extra.submitterTemplate());
      sets.add(p.podSet(o, "submitter", 1, extra.submitterTemplate(), what + " submitter"));
    }
    return p.template(o, sets, templates);
  }

  /** The head pod as KubeRay runs it: autoscaler sidecar, Redis clean-up floor, RayJob sidecar submitter. */
  private Node headTemplate(KubeObject o, Node spec, Node head, Extra extra) {
    List<Node> more = new ArrayList<>();
    Node autoscaling = Tree.get(spec, "enableInTreeAutoscaling");
    if ("true".equals(Tree.text(autoscaling))) {
      Node resources = Tree.get(spec, "autoscalerOptions", "resources");
      more.add(resources != null
          ? Tree.map(resources.location(), resources.path()).put("name", "autoscaler", resources.location())
              .put("resources", resources).build()
          : PodTemplates.container(autoscaling, "autoscaler", List.of("cpu", "500m", "memory", "512Mi"),
              List.of("cpu", "500m", "memory", "512Mi")));
    }
    if (extra != null && extra.headContainer() != null) {
      more.add(extra.headContainer());
    }
    Node out = head;
    boolean ft = Tree.get(spec, "gcsFaultToleranceOptions") != null
        || "true".equalsIgnoreCase(Tree.text(o.node(), "metadata", "annotations", FT_ANNOTATION));
    if (ft) {
      out = redisCleanupFloor(out);
    }
    return PodTemplates.withContainers(out, more);
  }

  /** Kueue (accountForRedisCleanupInHeadPodSet): the Ray container's requests at least 200m CPU and 256Mi. */
  private Node redisCleanupFloor(Node head) {
    Node spec = Tree.get(head, "spec");
    List<Node> containers = new ArrayList<>(Tree.items(spec, "containers"));
    if (containers.isEmpty()) {
      return head;
    }
    Node ray = containers.get(0);
    Node requests = Tree.get(ray, "resources", "requests");
    Map<String, Node> merged = new LinkedHashMap<>();
    Tree.entries(requests).forEach((k, e) -> merged.put(k, e.value()));
    floor(merged, "cpu", "200m", ray);
    floor(merged, "memory", "256Mi", ray);
    Tree.Map_ r = Tree.map(ray.location(), "requests");
    merged.forEach(r::put);
    Node resources = Tree.get(ray, "resources");
    containers.set(0, PodTemplates.with(ray, "resources", PodTemplates.with(resources == null ? Tree.map(ray)
        : resources, "requests", r.build())));
    return PodTemplates.with(head, "spec", PodTemplates.with(spec, "containers",
        Tree.list(spec.location(), "containers", containers)));
  }

  private void floor(Map<String, Node> requests, String resource, String min, Node at) {
    Node have = requests.get(resource);
    long floor = batchsim.core.model.Quantity.parse(resource, min);
    try {
      if (have != null && batchsim.core.model.Quantity.parse(resource, Tree.text(have)) >= floor) {
        return;
      }
    } catch (IllegalArgumentException | NullPointerException e) {
      return; // the pod set's requests report it
    }
    requests.put(resource, Tree.string(at.location(), at.path(), min));
  }
}
