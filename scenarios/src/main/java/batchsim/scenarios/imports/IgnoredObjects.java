package batchsim.scenarios.imports;

import batchsim.scenarios.imports.KubeObjects.KubeObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Input objects no reader takes. Those of Kueue-related groups (Kueue's own, the job kinds it integrates,
 * Volcano, provisioning requests, PriorityClass) are each a located warning: batchsim might be expected to
 * read them. The rest (Services, ConfigMaps, Secrets, RBAC, Events, ...) are not Kueue's business and are
 * only counted, in one summary line.
 */
final class IgnoredObjects {
  /** Whole groups that are Kueue's business: its own and those of the job kinds it integrates. */
  private static final Set<String> GROUPS = Set.of("kueue.x-k8s.io", "visibility.kueue.x-k8s.io", "batch",
      "jobset.x-k8s.io", "kubeflow.org", "trainer.kubeflow.org", "ray.io", "leaderworkerset.x-k8s.io",
      "workload.codeflare.dev", "sparkoperator.k8s.io", "autoscaling.x-k8s.io", "scheduling.k8s.io",
      "scheduling.volcano.sh", "batch.volcano.sh", "bus.volcano.sh", "topology.volcano.sh");
  /** Kinds of shared groups Kueue integrates or reads: {@code group/Kind} ("" is the core group). */
  private static final Set<String> KINDS = Set.of("/Pod", "/Node", "apps/Deployment", "apps/StatefulSet");

  private final Map<String, Integer> counts = new LinkedHashMap<>();

  /** Whether Kueue (or Volcano) would act on objects like {@code o}. */
  static boolean kueueRelated(KubeObject o) {
    return GROUPS.contains(o.group()) || KINDS.contains(o.group() + "/" + o.kind());
  }

  /** An object no reader took: a warning when it is Kueue-related, else counted. */
  void add(KubeObject o, Warnings warnings) {
    if (kueueRelated(o)) {
      warnings.add("kind:" + o.apiVersion() + "/" + o.kind(), o.location(), o.describe() + " (" + o.apiVersion()
          + "): batchsim does not read this kind; ignored");
    } else {
      counts.merge(o.kind(), 1, Integer::sum);
    }
  }

  /** {@code ignored 14 objects that are not Kueue's business: 6 Service, 5 ConfigMap, 3 Secret}, or null. */
  String summary() {
    if (counts.isEmpty()) {
      return null;
    }
    int total = counts.values().stream().mapToInt(Integer::intValue).sum();
    List<Map.Entry<String, Integer>> byCount = new ArrayList<>(counts.entrySet());
    byCount.sort(Map.Entry.<String, Integer>comparingByValue().reversed()); // stable: ties keep input order
    List<String> parts = byCount.stream().map(e -> e.getValue() + " " + e.getKey()).toList();
    return "ignored " + total + " object" + (total == 1 ? "" : "s") + " that " + (total == 1 ? "is" : "are")
        + " not Kueue's business: " + String.join(", ", parts);
  }
}
