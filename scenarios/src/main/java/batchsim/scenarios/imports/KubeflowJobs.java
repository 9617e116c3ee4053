package batchsim.scenarios.imports;

import batchsim.scenarios.imports.JobTemplateReader.JobTemplate;
import batchsim.scenarios.imports.KubeObjects.KubeObject;
import batchsim.scenarios.yaml.MapNode;
import batchsim.scenarios.yaml.Node;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The Kubeflow training-operator jobs (kubeflow.org/v1 PyTorchJob, TFJob, PaddleJob, XGBoostJob, JAXJob) and
 * the mpi-operator's MPIJob (kubeflow.org/v2beta1). Kueue (kubeflowjob.PodSets, mpijob.PodSets): one pod set
 * per replica type present, in the integration's order, named by the replica type lower-cased, of replicas
 * (default 1) pods; replica types the integration does not know are not Kueue's pods. An MPIJob's
 * {@code runLauncherAsWorker} does not change them: the launcher is its own pod set either way.
 */
final class KubeflowJobs {
  /** The replica specs' field and the replica types in Kueue's order (each integration's OrderedReplicaTypes). */
  private record Kind(String field, List<String> order) {}

  private static final Map<String, Kind> KINDS = Map.of(
      "PyTorchJob", new Kind("pytorchReplicaSpecs", List.of("Master", "Worker")),
      "TFJob", new Kind("tfReplicaSpecs", List.of("Chief", "Master", "PS", "Worker", "Evaluator")),
      "PaddleJob", new Kind("paddleReplicaSpecs", List.of("Master", "Worker")),
      "XGBoostJob", new Kind("xgbReplicaSpecs", List.of("Master", "Worker")),
      "JAXJob", new Kind("jaxReplicaSpecs", List.of("Worker")),
      "MPIJob", new Kind("mpiReplicaSpecs", List.of("Launcher", "Worker")));

  private final PodTemplates p;

  KubeflowJobs(PodTemplates p) {
    this.p = p;
  }

  static boolean handles(KubeObject o) {
    return o.group().equals("kubeflow.org") && KINDS.containsKey(o.kind())
        && (o.kind().equals("MPIJob") ? o.version().equals("v2beta1") : o.version().equals("v1"));
  }

  JobTemplate read(KubeObject o) {
    Kind kind = KINDS.get(o.kind());
    Node specs = Tree.get(o.node(), "spec", kind.field());
    if (!(specs instanceof MapNode m) || m.entries().isEmpty()) {
      return p.cannot(o, Tree.get(o.node(), "spec"), o.kind() + " " + o.name() + " has no spec." + kind.field());
    }
    List<Tree.Map_> sets = new ArrayList<>();
    List<Node> templates = new ArrayList<>();
    for (String type : kind.order()) {
      Node spec = m.get(type);
      if (spec == null || spec.isNull()) {
        continue;
      }
      Node template = Tree.get(spec, "template");
      templates.addAll(BatchJobs.list(template));
      sets.add(p.podSet(o, PodTemplates.podSetName(type), p.number(Tree.get(spec, "replicas"), 1), template,
          o.kind() + " " + o.name() + " " + type));
    }
    m.entries().forEach((type, e) -> {
      if (!kind.order().contains(type)) {
        p.warnings.at(o.kind() + ":replicaType", e.key(), o.describe() + ": replica type " + type + " is not one Kueue's "
            + o.kind() + " integration counts (" + String.join(", ", kind.order()) + "); its pods are left out");
      }
    });
    if (sets.isEmpty()) {
      return p.cannot(o, specs, "none of its replica types is one Kueue counts (" + String.join(", ", kind.order()) + ")");
    }
    return p.template(o, sets, templates);
  }
}
