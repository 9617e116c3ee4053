package batchsim.scenarios.imports;

import batchsim.scenarios.imports.JobTemplateReader.JobTemplate;
import batchsim.scenarios.imports.KubeObjects.KubeObject;
import batchsim.scenarios.yaml.Node;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The Spark operator's SparkApplication (sparkoperator.k8s.io/v1beta2). Kueue (sparkapplication.PodSets):
 * pod sets {@code driver} (1 pod) and {@code executor} (executor.instances, default 0), each pod built as
 * the operator's pod defaulter builds it — NOT from the role's {@code template.spec}: one Spark container
 * whose requests are {@code coreRequest} and {@code memory} (a Java size: 512m is 512Mi) and whose limits are
 * {@code coreLimit}, {@code memoryLimit} and {@code gpu: {name, quantity}}, plus the role's sidecars and init
 * containers, node selector, tolerations and affinity, priority class; the template's metadata gives the
 * TAS annotations. {@code cores} and {@code memoryOverhead} are not part of Kueue's pod sets.
 */
final class SparkApplications {
  private final PodTemplates p;

  SparkApplications(PodTemplates p) {
    this.p = p;
  }

  JobTemplate read(KubeObject o) {
    Node spec = Tree.get(o.node(), "spec");
    String mode = Tree.text(spec, "mode");
    if (mode != null && !mode.equals("cluster")) {
      return p.cannot(o, Tree.get(spec, "mode"), "only mode: cluster is supported for a SparkApplication managed by "
          + "Kueue (its webhook refuses " + mode + ")");
    }
    Node dynamic = Tree.get(spec, "dynamicAllocation", "enabled");
    if ("true".equals(Tree.text(dynamic))) {
      if (!PodTemplates.elastic(o)) {
        return p.cannot(o, dynamic, "dynamicAllocation needs Kueue's workload slicing (annotation "
            + PodTemplates.ELASTIC + ": \"true\"); Kueue's webhook refuses it otherwise");
      }
      p.warnings.at("SparkApplication:dynamicAllocation", dynamic, o.describe() + ": dynamic allocation is not modelled "
          + "by batchsim; the executors stay at executor.instances");
    }
    Node driver = pod(Tree.get(spec, "driver"), "spark-kubernetes-driver", spec);
    Node executor = pod(Tree.get(spec, "executor"), "spark-kubernetes-executor", spec);
    long instances = p.number(Tree.get(spec, "executor", "instances"), 0);
    String what = "SparkApplication " + o.name();
    return p.template(o, List.of(p.podSet(o, "driver", 1, driver, what + " driver"),
        p.podSet(o, "executor", instances, executor, what + " executor")), List.of(driver, executor));
  }

  /** The role's pod as Kueue builds it ({@code mutateSparkPod}), located at the role's fields. */
  private Node pod(Node role, String containerName, Node at) {
    Node where = role == null ? at : role;
    Tree.Map_ requests = Tree.map(where.location(), "requests");
    Tree.Map_ limits = Tree.map(where.location(), "limits");
    requests.put("cpu", Tree.get(role, "coreRequest"));
    requests.put("memory", javaSize(Tree.get(role, "memory")));
    limits.put("cpu", Tree.get(role, "coreLimit"));
    limits.put("memory", javaSize(Tree.get(role, "memoryLimit")));
    Node gpu = Tree.get(role, "gpu");
    String gpuName = Tree.text(gpu, "name");
    if (gpuName != null && !gpuName.isEmpty() && p.number(Tree.get(gpu, "quantity"), 0) > 0) {
      limits.put(gpuName, Tree.get(gpu, "quantity"));
    }
    Node main = Tree.map(where.location(), where.path()).put("name", containerName, where.location())
        .put("resources", Tree.map(where.location(), "resources").put("requests", requests.build())
            .put("limits", limits.build()).build()).build();
    List<Node> containers = new ArrayList<>(List.of(main));
    containers.addAll(Tree.items(role, "sidecars"));
    Tree.Map_ podSpec = Tree.map(where.location(), "spec")
        .put("containers", Tree.list(where.location(), "containers", containers));
    for (String[] k : new String[][] {{"initContainers", "initContainers"}, {"nodeSelector", "nodeSelector"},
        {"tolerations", "tolerations"}, {"affinity", "affinity"}, {"priorityClassName", "priorityClassName"}}) {
      podSpec.put(k[1], Tree.get(role, k[0]));
    }
    Tree.Map_ metadata = Tree.map(where.location(), "metadata");
    Node templateMeta = Tree.get(role, "template", "metadata");
    Tree.Map_ annotations = Tree.map(where.location(), "annotations");
    Tree.entries(templateMeta, "annotations").forEach((k, e) -> annotations.put(k, e.value()));
    Tree.entries(role, "annotations").forEach((k, e) -> annotations.put(k, e.value()));
    metadata.put("annotations", annotations.build());
    return Tree.map(where.location(), where.path()).put("metadata", metadata.build()).put("spec", podSpec.build())
        .build();
  }

  /** The operator's ConvertJavaMemoryStringToK8sMemoryString: k/kb → Ki, m/mb → Mi, g/gb → Gi, t/tb, p/pb. */
  private static Node javaSize(Node n) {
    String text = Tree.text(n);
    if (text == null) {
      return n;
    }
    String lower = text.toLowerCase(Locale.ROOT);
    for (Map.Entry<String, String> u : Map.of("kb", "Ki", "mb", "Mi", "gb", "Gi", "tb", "Ti", "pb", "Pi",
        "k", "Ki", "m", "Mi", "g", "Gi", "t", "Ti", "p", "Pi").entrySet()) {
      if (lower.endsWith(u.getKey()) && (u.getKey().length() == 2 || !lower.endsWith("b"))) {
        return Tree.string(n.location(), n.path(), text.substring(0, text.length() - u.getKey().length()) + u.getValue());
      }
    }
    return n;
  }
}
